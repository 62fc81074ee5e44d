/// Maps raw blocks to an entry's sections with the parser's vocabulary: which lines are
/// headings (section words, numbered attempts, bare short lines), which are labels, where
/// each attempt starts and ends, and what outcome the text states.
struct StructureMapper {
    let matcher: VocabularyMatcher
    let vocabulary: Vocabulary
    let lang: String

    init(lang: String, matcher: VocabularyMatcher = .shared) {
        self.matcher = matcher
        self.lang = lang
        self.vocabulary = Vocabulary.forLanguage(lang)
    }

    static let allLabels: Set<LabelKind> = [.idea, .result, .failure, .cause, .fixStep, .code]
    static let sectionLevel = 2
    static let attemptLevel = 3

    enum Decision {
        case attempt(number: AttemptNumber, heading: String, body: String?)
        case section(SectionKind, heading: String, body: String?)
        case earlierImplementation(heading: String)
        /// An implementation or usage heading after the problem (`使い方`, `Implementation`): the fix.
        case fixCandidate(heading: String)
        /// A further such heading inside the drafted fix: kept as a bold line of the fix.
        case fixPart(heading: String)
        case unknown(heading: String)
    }

    final class State {
        var sections: [DraftSection] = []
        var sawAttempt = false
        var references: [String] = []

        var currentKind: DraftSection.Kind? { sections.last?.kind }
        var inAttempt: Bool {
            if case .attempt = currentKind { return true }
            return false
        }
        var currentSection: SectionKind? {
            if case .section(let kind) = currentKind { return kind }
            return nil
        }
        var hasFix: Bool { sections.contains { $0.kind == .section(.fix) } }
        /// Still in the problem: before any attempt, in the preamble or a problem section.
        var inProblem: Bool {
            guard !sawAttempt else { return false }
            switch currentKind {
            case nil, .preamble?, .section(.problem)?: return true
            default: return false
            }
        }

        /// A labelled paragraph joins a directly preceding list of labelled items.
        func appendLabelled(_ item: DraftListItem) {
            if case .list(var items)? = sections.last?.nodes.last, items.allSatisfy({ $0.label != nil }) {
                items.append(item)
                sections[sections.count - 1].nodes[sections[sections.count - 1].nodes.count - 1] = .list(items)
            } else {
                append(.list([item]))
            }
        }

        func append(_ node: DraftNode) {
            if sections.isEmpty { sections.append(DraftSection(kind: .preamble, heading: nil, level: 0)) }
            sections[sections.count - 1].nodes.append(node)
        }
    }

    func map(_ blocks: [RawBlock]) -> DraftDocument {
        var blocks = blocks
        var title: String? = nil
        // The title is the first non-blank line, unless that line is already a section or attempt heading.
        if case .paragraph(let lines)? = blocks.first, let first = lines.first,
           matcher.section(forHeading: first) == nil, matcher.attemptHeading(first) == nil {
            title = first
            if lines.count > 1 { blocks[0] = .paragraph(Array(lines.dropFirst())) } else { blocks.removeFirst() }
        }
        let state = State()
        for (index, block) in blocks.enumerated() {
            let hasNext = index + 1 < blocks.count
            switch block {
            case .paragraph(let lines):
                collectURLs(lines.joined(separator: "\n"), into: state)
                if draftAttemptFromContrast(lines, state: state) { continue }
                if lines.count == 1, let decision = decide(lines[0], inList: false, hasNext: hasNext, state: state) {
                    apply(decision, state: state)
                    continue
                }
                mapParagraph(lines, state: state)
            case .list(let items):
                mapList(items, state: state)
            case .code(let language, let lines):
                state.append(.code(language: language, lines: lines))
            case .media(let lines):
                state.append(.media(lines))
            case .links(let lines):
                for line in lines where !state.references.contains(line) { state.references.append(line) }
            case .rule(let text):
                state.append(.rule(text))
            }
        }
        var document = DraftDocument(title: title ?? "", titleFromInput: title != nil, lang: lang, sections: state.sections)
        document.references = state.references
        for index in document.sections.indices {
            if case .attempt(let number) = document.sections[index].kind, !document.sections[index].outcomeLeftToAuthor {
                inferOutcome(&document.sections[index], number: number)
            }
        }
        return document
    }

    /// A paragraph of several lines. Pasted text (chat above all) puts one thought per line, so a
    /// line that is an attempt heading, a `Section: text` line or (in an attempt) a label starts
    /// a new block even without a blank line before it.
    private func mapParagraph(_ lines: [String], state: State) {
        var group: [String] = []
        func flush() {
            guard let first = group.first else { return }
            if state.inAttempt, var item = labelledItem(first, allowed: StructureBuilder.attemptLabels, level: 0, ordinal: nil) {
                if group.count > 1 { item.text += "\n" + group.dropFirst().joined(separator: "\n") }
                state.appendLabelled(item)
            } else {
                state.append(.paragraph(group))
            }
            group = []
        }
        for (index, line) in lines.enumerated() {
            // A chat message (`[10:31] jun: …`) ends a labelled block.
            if !group.isEmpty, CodeDetector.matches(CodeDetector.chatTimestamp, line),
               labelledItem(group[0], allowed: StructureBuilder.attemptLabels, level: 0, ordinal: nil) != nil {
                flush()
            }
            if let decision = decide(line, inList: false, hasNext: true, state: state) {
                var starts = false
                switch decision {
                case .attempt: starts = true
                case .section:
                    // `Fix: text` anywhere; a bare section word (`概要`, `解決策`) as the first line,
                    // with its text on the next lines (wiki style).
                    starts = ImportText.splitAtLabelColon(line).map { matcher.section(forHeading: $0.head) != nil } ?? false
                    starts = starts || (index == 0 && group.isEmpty && isBareHeading(line))
                case .fixCandidate, .fixPart:
                    // `使い方` with its text on the next lines (blog style).
                    starts = index == 0 && group.isEmpty
                default: starts = false
                }
                if starts {
                    flush()
                    apply(decision, state: state)
                    continue
                }
            }
            if state.inAttempt, !group.isEmpty, labelledItem(line, allowed: StructureBuilder.attemptLabels, level: 0, ordinal: nil) != nil {
                flush()
            }
            group.append(line)
        }
        flush()
    }

    private func collectURLs(_ text: String, into state: State) {
        for url in ImportText.urls(in: text) where !state.references.contains(where: { $0.contains(url) }) {
            state.references.append(url)
        }
    }

    // MARK: Headings

    /// Whether a line (a one-line paragraph, or a list item's text) starts a section or an attempt.
    func decide(_ line: String, inList: Bool, hasNext: Bool, state: State) -> Decision? {
        let split = ImportText.splitAtLabelColon(line)
        let length = ImportText.scalarCount(line)
        // A label of the current context stays a label: `结果：…` in an attempt, `해결: …` in side effects.
        if state.inAttempt, matcher.label(in: line, allowed: StructureBuilder.attemptLabels) != nil { return nil }
        if inList || state.currentSection == .fix || state.currentSection == .sideEffects,
           matcher.label(in: line, allowed: Self.allLabels) != nil { return nil }

        if let (number, _) = matcher.attemptHeading(line) {
            if inList {
                if let split, matcher.attemptHeading(split.head) != nil, ImportText.scalarCount(split.head) <= 60 {
                    return .attempt(number: number, heading: split.head, body: split.body.isEmpty ? nil : split.body)
                }
                return ImportText.endsLikeSentence(line) ? nil : .attempt(number: number, heading: line, body: nil)
            }
            if let split, matcher.attemptHeading(split.head) != nil,
               ImportText.endsLikeSentence(split.body) || ImportText.scalarCount(split.body) > 60 {
                return .attempt(number: number, heading: split.head, body: split.body)
            }
            if !ImportText.endsLikeSentence(line), length <= 100 { return .attempt(number: number, heading: line, body: nil) }
            return nil
        }

        if let split, let kind = matcher.section(forHeading: split.head), ImportText.scalarCount(split.head) <= 24,
           matcher.section(forHeading: split.head) != nil, inList || ImportText.endsLikeSentence(split.body) || ImportText.scalarCount(split.body) > 60 {
            if split.body.isEmpty { return .section(kind, heading: split.head, body: nil) }
            return .section(kind, heading: split.head, body: split.body)
        }
        if inList { return nil }
        if let kind = matcher.section(forHeading: line), !ImportText.endsLikeSentence(line), length <= 60 {
            return .section(kind, heading: line, body: nil)
        }
        guard isBareHeading(line), hasNext else { return nil }
        if ImportCues.isImplementationHeading(line, lang: lang), !state.inAttempt || state.sawAttempt {
            if !state.hasFix { return .fixCandidate(heading: line) }
            if state.currentSection == .fix { return .fixPart(heading: line) }
        }
        if !state.sawAttempt, !state.inAttempt, ImportCues.isEarlierImplementation(line, lang: lang) {
            return .earlierImplementation(heading: line)
        }
        return .unknown(heading: line)
    }

    /// A short line on its own with no sentence punctuation and no label colon.
    func isBareHeading(_ line: String) -> Bool {
        let length = ImportText.scalarCount(line)
        guard length <= 64, line.split(separator: " ").count <= 8 else { return false }
        if ImportText.endsLikeSentence(line) || ImportText.splitAtLabelColon(line) != nil { return false }
        if let last = line.last, "，,、;；—-–(（[".contains(last) { return false }
        if line.contains("。") || line.contains(". ") { return false }
        return line.contains { $0.isLetter }
    }

    private func apply(_ decision: Decision, state: State) {
        switch decision {
        case .attempt(let number, let heading, let body):
            state.sawAttempt = true
            state.sections.append(DraftSection(kind: .attempt(number), heading: heading, level: Self.attemptLevel))
            if let body { state.append(.paragraph([body])) }
        case .section(let kind, let heading, let body):
            state.sections.append(DraftSection(kind: .section(kind), heading: heading, level: Self.sectionLevel))
            if let body { state.append(.paragraph([body])) }
        case .earlierImplementation(let heading):
            state.sawAttempt = true
            let attemptHeading = "\(vocabulary.attemptWords.first ?? "Attempt") 0\(vocabulary.colon)\(vocabulary.language == "ko" || vocabulary.language == "en" ? " " : "")\(heading)"
            state.sections.append(DraftSection(kind: .attempt(AttemptNumber([0])), heading: attemptHeading, level: Self.attemptLevel,
                                               todos: ["\"\(heading)\" describes the implementation before the attempts; drafted as attempt 0 — check"]))
        case .fixCandidate(let heading):
            let space = vocabulary.language == "ko" || vocabulary.language == "en" ? " " : ""
            state.sections.append(DraftSection(kind: .section(.fix), heading: "\(vocabulary.headingWord(.fix))\(vocabulary.colon)\(space)\(heading)",
                                               level: Self.sectionLevel,
                                               todos: ["\"\(heading)\" reads as the author's solution; drafted as the fix — check that it is what finally worked"]))
        case .fixPart(let heading):
            state.append(.paragraph(["**\(heading)**"]))
        case .unknown(let heading):
            let loose = looseSectionPrefix(heading)
            if state.inAttempt && loose == nil {
                state.append(.heading(level: Self.attemptLevel + 1, text: heading))
                return
            }
            var todo = "heading \"\(heading)\" is not in the vocabulary, so its text is kept as notes"
            if let (word, kind) = loose {
                todo += "; it starts with \"\(word)\" (\(kind.rawValue)), which counts only alone or followed by a separator"
            } else {
                todo += "; rename it to a section word if it belongs to one"
            }
            state.sections.append(DraftSection(kind: .notes, heading: heading, level: Self.sectionLevel, todos: [todo]))
        }
    }

    /// Blog style: in the problem, code the write-up shows and then turns down in a paragraph
    /// opening with a contrast word (`だが、この方法は…`, `However, …`) is a way that was tried.
    /// The code and that paragraph become attempt 1, its outcome left for the author.
    private func draftAttemptFromContrast(_ lines: [String], state: State) -> Bool {
        guard state.inProblem, let first = lines.first, let word = ImportCues.contrastWord(first, lang: lang),
              let last = state.sections.last, case .code? = last.nodes.last else { return false }
        let code = state.sections[state.sections.count - 1].nodes.removeLast()
        let attemptWord = vocabulary.attemptWords.first ?? "Attempt"
        let space = vocabulary.language == "ko" || vocabulary.language == "en" ? " " : ""
        let name = ImportCues.commonWay[String(lang.prefix(2))] ?? "The commonly recommended way"
        state.sawAttempt = true
        let written = String(first.prefix(word.count))
        var attempt = DraftSection(kind: .attempt(AttemptNumber([1])), heading: "\(attemptWord) 1\(vocabulary.colon)\(space)\(name)",
                                   level: Self.attemptLevel,
                                   todos: ["the code before \"\(written)…\" reads as a way that was tried and turned down; drafted as attempt 1 with its outcome unknown — give it a title and state its result with an outcome word"])
        attempt.outcomeLeftToAuthor = true
        state.sections.append(attempt)
        state.append(code)
        mapParagraph(lines, state: state)
        return true
    }

    /// A section word the heading starts with but does not stand apart from (`过程中的几种方案与…`).
    func looseSectionPrefix(_ heading: String) -> (String, SectionKind)? {
        var best: (String, SectionKind)? = nil
        for v in Vocabulary.all {
            for (kind, words) in v.sections {
                for word in words where word.unicodeScalars.count >= 2 && heading.lowercased().hasPrefix(word.lowercased()) {
                    if best == nil || word.unicodeScalars.count > best!.0.unicodeScalars.count { best = (word, kind) }
                }
            }
        }
        return best
    }

    // MARK: Lists and labels

    /// A list item for a labelled line: the label as written (colon included) and the rest.
    func labelledItem(_ text: String, allowed: Set<LabelKind>, level: Int, ordinal: String?) -> DraftListItem? {
        guard let (kind, _) = matcher.label(in: text, allowed: allowed), let split = ImportText.splitAtLabelColon(text) else { return nil }
        let colonIndex = text.index(text.startIndex, offsetBy: split.head.count)
        var label = String(text[..<text.index(after: colonIndex)])
        // Keep any space before the colon out of the label.
        if let colon = text[colonIndex...].firstIndex(where: { $0 == ":" || $0 == "：" }) {
            label = split.head + String(text[colon])
        }
        return DraftListItem(level: level, ordinal: ordinal, label: label, labelKind: kind, text: split.body)
    }

    private func mapList(_ items: [RawListItem], state: State) {
        var pending: [DraftListItem] = []
        func flush() {
            guard !pending.isEmpty else { return }
            let base = pending.map(\.level).min() ?? 0
            state.append(.list(pending.map { var item = $0; item.level -= base; return item }))
            pending = []
        }
        for item in items {
            collectURLs(item.text, into: state)
            if item.level == 0, let decision = decide(item.text, inList: true, hasNext: true, state: state) {
                flush()
                apply(decision, state: state)
                continue
            }
            if state.inAttempt, let labelled = labelledItem(item.text, allowed: StructureBuilder.attemptLabels, level: item.level, ordinal: item.ordinal) {
                pending.append(labelled)
            } else {
                pending.append(DraftListItem(level: item.level, ordinal: item.ordinal, text: item.text))
            }
        }
        flush()
    }

    // MARK: Outcomes

    /// Reads the attempt's outcome the way the parser will, and where the write-up states one
    /// only in the attempt's closing sentence, moves that sentence under a result label. Where
    /// the text states none (or contradicts itself), leaves a question instead of guessing.
    func inferOutcome(_ section: inout DraftSection, number: AttemptNumber) {
        struct Unit { var node: Int; var item: Int?; var text: String; var labelKind: LabelKind? }
        var units: [Unit] = []
        for (n, node) in section.nodes.enumerated() {
            switch node {
            case .paragraph(let lines): units.append(Unit(node: n, item: nil, text: ImportText.joinLines(lines), labelKind: nil))
            case .list(let items):
                for (i, item) in items.enumerated() { units.append(Unit(node: n, item: i, text: item.text, labelKind: item.labelKind)) }
            default: break
            }
        }
        let failed = vocabulary.outcomes[.failed]?.first ?? "failed"
        let partial = vocabulary.outcomes[.partial]?.first ?? "partial"
        let worked = vocabulary.outcomes[.worked]?.first ?? "worked"
        let rejected = vocabulary.outcomes[.rejected]?.first ?? "rejected"
        let resultWord = vocabulary.labels[.result]?.first ?? "Result"
        let choices = "\(failed) / \(partial) / \(worked) / \(rejected)"

        // Outcome words anywhere in the attempt, for the hint and for contradictions. Only the
        // draft language's words count here (`一部分` is not the Japanese `一部`).
        let own = VocabularyMatcher(vocabularies: [vocabulary])
        var mentioned: [(Outcome, String)] = []
        for unit in units {
            for sentence in ImportText.sentences(unit.text) {
                if let found = own.outcome(in: sentence), !mentioned.contains(where: { $0.1 == found.word }) {
                    mentioned.append((found.outcome, found.word))
                }
            }
        }
        let hasFailureLabel = units.contains { $0.labelKind == .failure }
        func hint() -> String {
            var parts: [String] = []
            if !mentioned.isEmpty { parts.append("the text mentions " + mentioned.map { "\"\($0.1)\"" }.joined(separator: ", ")) }
            if hasFailureLabel { parts.append("it has a failure label") }
            return parts.isEmpty ? "" : " (" + parts.joined(separator: "; ") + ")"
        }

        let outcomeWords: [Outcome: String] = [.failed: failed, .partial: partial, .worked: worked, .rejected: rejected]
        let result = units.first(where: { $0.labelKind == .result && !$0.text.isEmpty })
        if let result, matcher.outcome(in: result.text) != nil { return }

        // Without a result, the closing sentence of the last prose block may state the outcome.
        if result == nil, let last = units.last(where: { $0.labelKind == nil && !$0.text.isEmpty }),
           let closing = ImportText.sentences(last.text).last,
           let found = own.outcome(in: closing), matcher.outcome(in: closing)?.outcome == found.outcome {
            let contradicted = mentioned.contains { $0.0 != found.outcome }
                || (hasFailureLabel && (found.outcome == .worked || found.outcome == .partial))
            if !contradicted {
                moveToResult(&section, node: last.node, item: last.item, sentence: closing, label: resultWord + vocabulary.colon)
                return
            }
        }

        // Otherwise the phrases that describe what happened: in the result (and failure labels)
        // when there is a result, else in all prose but ideas and code.
        let weighed = units.filter { unit in
            result == nil ? unit.labelKind != .idea && unit.labelKind != .code && unit.labelKind != .fixStep
                          : unit.labelKind == .result || unit.labelKind == .failure
        }
        var found: [(kind: OutcomeEvidence, phrase: String)] = []
        var lastWithEvidence: Unit? = nil
        for unit in weighed {
            var here = own.evidence(in: unit.text)
            for sentence in ImportText.sentences(unit.text) {
                guard let word = own.outcome(in: sentence) else { continue }
                for kind in OutcomeEvidence.kinds(forOutcomeWord: word.outcome) { here.append((kind, word.word)) }
            }
            guard !here.isEmpty else { continue }
            for item in here where !found.contains(where: { $0.kind == item.kind && $0.phrase == item.phrase }) { found.append(item) }
            lastWithEvidence = unit
        }
        if let outcome = OutcomeEvidence.verdict(Set(found.map(\.kind))), let word = outcomeWords[outcome], let unit = lastWithEvidence {
            let decisive = OutcomeEvidence.kinds(forOutcomeWord: outcome)
            var cited: [String] = []
            for item in found where decisive.contains(item.kind) && !cited.contains(item.phrase) { cited.append(item.phrase) }
            let quoted = cited.map { "\"\($0)\"" }.joined(separator: ", ")
            section.todos.append("attempt \(number): outcome \(word) drafted from \(quoted); confirm it or change it to \(choices)")
            if let result {
                prefixOutcome(&section, node: result.node, item: result.item, word: word)
            } else {
                appendResult(&section, after: unit.node, item: unit.item, label: resultWord + vocabulary.colon, word: word)
            }
            return
        }
        if result != nil {
            section.todos.append("attempt \(number): the result states no outcome word\(hint()); put \(choices) right after \(resultWord)\(vocabulary.colon) once the outcome is clear")
        } else {
            section.todos.append("attempt \(number) has no result with an outcome word\(hint()); add \(resultWord)\(vocabulary.colon) \(choices) if the write-up supports one")
        }
    }

    /// The sentence end the language writes after an outcome word it puts before a result.
    private var fullStop: String {
        switch vocabulary.language {
        case "zh", "ja": return "。"
        case "en": return "; "
        default: return ". "
        }
    }

    /// Puts the drafted outcome word first in a result item (`结果：失败。toolbarColorScheme …`).
    private func prefixOutcome(_ section: inout DraftSection, node: Int, item: Int?, word: String) {
        guard case .list(var items) = section.nodes[node], let item else { return }
        items[item].text = word + fullStop + items[item].text
        section.nodes[node] = .list(items)
    }

    /// Adds a result item holding only the drafted outcome word at the end of the list that
    /// holds the evidence, or right after the paragraph that does.
    private func appendResult(_ section: inout DraftSection, after node: Int, item: Int?, label: String, word: String) {
        var result = DraftListItem(label: label, labelKind: .result, text: word)
        switch section.nodes[node] {
        case .list(var items):
            result.level = items.map(\.level).min() ?? 0
            items.append(result)
            section.nodes[node] = .list(items)
        default:
            section.nodes.insert(.list([result]), at: node + 1)
        }
    }

    /// Moves `sentence` (the end of a paragraph or list item) into a result item after it.
    private func moveToResult(_ section: inout DraftSection, node: Int, item: Int?, sentence: String, label: String) {
        func remainder(_ text: String) -> String {
            let flat = text
            guard let range = flat.range(of: sentence, options: .backwards) else { return flat }
            return String(flat[..<range.lowerBound]).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let result = DraftListItem(label: label, labelKind: .result, text: sentence)
        switch section.nodes[node] {
        case .paragraph(let lines):
            let rest = remainder(lines.joined(separator: "\n"))
            var replacement: [DraftNode] = []
            if !rest.isEmpty { replacement.append(.paragraph(rest.components(separatedBy: "\n"))) }
            replacement.append(.list([result]))
            section.nodes.replaceSubrange(node...node, with: replacement)
        case .list(var items):
            guard let item else { return }
            let rest = remainder(items[item].text)
            var result = result
            result.level = items[item].level
            if rest.isEmpty {
                items[item] = result
            } else {
                items[item].text = rest
                items.insert(result, at: item + 1)
            }
            section.nodes[node] = .list(items)
        default:
            break
        }
    }
}
