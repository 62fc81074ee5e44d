/// Parses `entry.md` files into `Entry` records.
public struct EntryParser: Sendable {
    public var markdownOptions: MarkdownParser.Options
    public var vocabulary: VocabularyMatcher

    public init(markdownOptions: MarkdownParser.Options = .init(), vocabulary: VocabularyMatcher = .shared) {
        self.markdownOptions = markdownOptions
        self.vocabulary = vocabulary
    }

    /// The result of parsing one file: the entry (nil when the file cannot be read as
    /// text) and what was found wrong while reading it.
    public struct Result: Sendable {
        public let entry: Entry?
        public let diagnostics: [Diagnostic]
    }

    /// Parses the bytes of an entry file. `folderName` is the name of the entry's folder.
    public func parse(bytes: [UInt8], path: String, folderName: String) -> Result {
        var diagnostics: [Diagnostic] = []
        // The text as a string: checks the UTF-8 once, and the Markdown literals copy from it.
        guard let text = bytes.withUnsafeBufferPointer(UTF8Scan.string) else {
            let offset = Self.firstInvalidUTF8Offset(bytes) ?? 0
            let source = SourceText(bytes: Array(bytes[..<offset]))
            let location = source.location(ofByteOffset: offset)
            diagnostics.append(Diagnostic(path: path, location: location, severity: .error,
                                          message: "the file is not valid UTF-8 (byte offset \(offset))", rule: .invalidUTF8))
            return Result(entry: nil, diagnostics: diagnostics)
        }
        let source = SourceText(bytes: bytes)
        var metadata = EntryMetadata()
        var bodyRange = 0..<bytes.count
        var bodyFirstLine = 1
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
            diagnostics.append(Diagnostic(path: path, location: .init(line: 1, column: 1), severity: .warning,
                                          message: "the file starts with a byte order mark; it is ignored", rule: .bom))
            bodyRange = 3..<bytes.count
        }
        if let offset = source.firstIndex(of: 0) {
            diagnostics.append(Diagnostic(path: path, location: source.location(ofByteOffset: offset), severity: .error,
                                          message: "the file contains a NUL byte", rule: .nulByte))
        }
        if let split = FrontMatterSplit.split(source) {
            bodyRange = split.body
            bodyFirstLine = split.bodyFirstLine
            do {
                let root = try YAMLReader.read(bytes[split.yaml], firstLine: split.yamlFirstLine)
                let (read, problems) = EntryMetadata.read(root, path: path, at: .init(line: split.yamlFirstLine, column: 1))
                metadata = read
                diagnostics += problems
            } catch {
                diagnostics.append(Diagnostic(path: path, location: error.location, severity: .error,
                                              message: "invalid YAML in front matter: \(error.message)", rule: .frontMatter))
            }
        } else {
            diagnostics.append(Diagnostic(path: path, location: .init(line: 1, column: 1), severity: .error,
                                          message: "missing front matter: the file must start with a '---' line, YAML, and a closing '---' line",
                                          rule: .frontMatter))
        }
        let document = MarkdownParser(options: markdownOptions).parse(source, text: text, byteRange: bodyRange, firstLine: bodyFirstLine)
        let entry = StructureBuilder(vocabulary: vocabulary).build(document: document, source: source, metadata: metadata,
                                                                   path: path, folderName: folderName)
        return Result(entry: entry, diagnostics: diagnostics)
    }

    package static func firstInvalidUTF8Offset(_ bytes: [UInt8]) -> Int? {
        if bytes.withUnsafeBufferPointer(UTF8Scan.isValid) { return nil }
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                offset += UTF8.width(scalar)
            case .emptyInput:
                return nil
            case .error:
                return offset
            }
        }
    }
}

/// Walks the top-level blocks once and assigns each to a record.
struct StructureBuilder {
    let vocabulary: VocabularyMatcher
    static let attemptLabels: Set<LabelKind> = [.idea, .result, .failure, .cause, .code]
    static let attemptLabelSet = VocabularyMatcher.LabelSet(attemptLabels)

    private final class SectionBuilder {
        let kind: SectionKind
        let level: Int
        let heading: MarkdownNode?
        var blocks: [MarkdownNode] = []
        init(kind: SectionKind, level: Int, heading: MarkdownNode?) {
            self.kind = kind
            self.level = level
            self.heading = heading
        }
        var section: Section { Section(kind: kind, headingBlock: heading, blocks: blocks) }
    }

    private final class AttemptBuilder {
        let number: AttemptNumber
        let title: String
        let level: Int
        let heading: MarkdownNode
        /// The heading's plain text.
        let headingText: String
        var parts: [AttemptPart] = []
        var headingRole: PartRole? = nil
        init(number: AttemptNumber, title: String, level: Int, heading: MarkdownNode, headingText: String) {
            self.number = number
            self.title = title
            self.level = level
            self.heading = heading
            self.headingText = headingText
        }
    }

    func build(document: MarkdownDocument, source: SourceText, metadata: EntryMetadata, path: String, folderName: String) -> Entry {
        var titleHeading: String? = nil
        var sections: [SectionBuilder] = []
        var attempts: [AttemptBuilder] = []
        enum Current { case none, section(SectionBuilder), attempt(AttemptBuilder) }
        var current = Current.none

        var first = true
        for block in document.blocks {
            // A comment (`<!-- … -->`: kb init's note, a kb new draft's TODOs) is not part of any
            // record; lint still reads the TODOs from the source.
            if block.isHTMLComment { continue }
            // The title heading is the first block after any comments.
            let isFirst = first
            first = false
            if case .heading(let level) = block.kind {
                let text = block.plainText
                if isFirst, level == 1, titleHeading == nil {
                    titleHeading = text
                    continue
                }
                let attemptHeading = vocabulary.attemptHeading(text)
                if case .attempt(let attempt) = current, level > attempt.level, attemptHeading == nil {
                    // A sub-heading of an attempt: a label (`#### 结果`) or part of its details.
                    if let label = vocabulary.labelHeading(text, allowed: Self.attemptLabelSet) {
                        let role = Self.role(for: label)
                        attempt.headingRole = role
                        attempt.parts.append(AttemptPart(role: role, block: block, text: ""))
                    } else {
                        attempt.headingRole = nil
                        attempt.parts.append(AttemptPart(role: .detail, block: block, text: text))
                    }
                    continue
                }
                if let (number, title) = attemptHeading {
                    let attempt = AttemptBuilder(number: number, title: title, level: level, heading: block, headingText: text)
                    attempts.append(attempt)
                    current = .attempt(attempt)
                } else if let kind = vocabulary.section(forHeading: text) {
                    let section = SectionBuilder(kind: kind, level: level, heading: block)
                    sections.append(section)
                    current = .section(section)
                } else if case .section(let section) = current, level > section.level {
                    section.blocks.append(block)
                } else {
                    let section = SectionBuilder(kind: .notes, level: level, heading: block)
                    sections.append(section)
                    current = .section(section)
                }
                continue
            }
            switch current {
            case .none:
                let section = SectionBuilder(kind: .problem, level: 0, heading: nil)
                section.blocks.append(block)
                sections.append(section)
                current = .section(section)
            case .section(let section):
                section.blocks.append(block)
            case .attempt(let attempt):
                classify(block, fallback: attempt.headingRole, into: &attempt.parts)
            }
        }

        /// The sections of `kind` as one: the first one's heading (or, when the first is the
        /// text before any heading, the next one's), then each one's blocks, a later section's
        /// heading before its blocks.
        func merged(_ kind: SectionKind) -> Section? {
            let matching = sections.filter { $0.kind == kind }
            guard let first = matching.first else { return nil }
            let heading = first.heading ?? matching.lazy.compactMap(\.heading).first
            var blocks = first.blocks
            for other in matching.dropFirst() {
                if let own = other.heading, own.range != heading?.range { blocks.append(own) }
                blocks += other.blocks
            }
            return Section(kind: kind, headingBlock: heading, blocks: blocks)
        }

        let builtAttempts = attempts.map { builder -> Attempt in
            let (outcome, word) = Self.outcome(of: builder.parts, vocabulary: vocabulary)
            var end = builder.heading.range.end
            for part in builder.parts where part.block.range.end > end { end = part.block.range.end }
            let range = SourceRange(start: builder.heading.range.start, end: end)
            if let word {
                // By index, so that the parts array is not shared while it is changed.
                for index in builder.parts.indices where builder.parts[index].role == .result {
                    let part = builder.parts[index]
                    guard Self.startsWithOutcomeWord(part.text, word) else { continue }
                    builder.parts[index] = AttemptPart(role: .result, block: part.block, text: Self.dropOutcomeWord(word, from: part.text))
                }
            }
            return Attempt(number: builder.number, title: builder.title, heading: builder.headingText,
                           outcome: outcome, outcomeWord: word, parts: builder.parts, range: range, headingBlock: builder.heading)
        }
        return Entry(path: path, folderName: folderName, metadata: metadata, titleHeading: titleHeading,
                     problem: merged(.problem), attempts: builtAttempts, fix: merged(.fix),
                     sideEffects: merged(.sideEffects), lessons: merged(.lessons), references: merged(.references),
                     notes: sections.filter { $0.kind == .notes }.map(\.section), body: document, source: source,
                     attemptsIntro: merged(.attempts))
    }

    static func role(for label: LabelKind) -> PartRole {
        switch label {
        case .idea: return .idea
        case .result: return .result
        case .failure: return .failure
        case .cause: return .cause
        case .code: return .code
        case .fixStep: return .detail
        }
    }

    /// Splits a block of an attempt into parts by its labels.
    func classify(_ block: MarkdownNode, fallback: PartRole?) -> [AttemptPart] {
        var parts: [AttemptPart] = []
        classify(block, fallback: fallback, into: &parts)
        return parts
    }

    /// `classify(_:fallback:)` appending to `parts`.
    func classify(_ block: MarkdownNode, fallback: PartRole?, into parts: inout [AttemptPart]) {
        switch block.kind {
        case .codeBlock:
            parts.append(AttemptPart(role: .code, block: block, text: block.literal))
        case .paragraph:
            let text = block.plainText
            if let (label, rest) = vocabulary.label(in: text, allowed: Self.attemptLabelSet) {
                parts.append(AttemptPart(role: Self.role(for: label), block: block, text: rest))
            } else {
                parts.append(AttemptPart(role: fallback ?? .detail, block: block, text: text))
            }
        case .list:
            // A list's plain text is its items' plain texts joined by newlines.
            let texts = block.children.map(\.plainText)
            let labels = texts.map { vocabulary.label(in: $0, allowed: Self.attemptLabelSet) }
            guard labels.contains(where: { $0 != nil }) else {
                parts.append(AttemptPart(role: fallback ?? .detail, block: block, text: texts.joined(separator: "\n")))
                return
            }
            for (index, item) in block.children.enumerated() {
                if let (kind, rest) = labels[index] {
                    parts.append(AttemptPart(role: Self.role(for: kind), block: item, text: rest))
                } else {
                    parts.append(AttemptPart(role: fallback ?? .detail, block: item, text: texts[index]))
                }
            }
        default:
            parts.append(AttemptPart(role: fallback ?? .detail, block: block, text: block.plainText))
        }
    }

    /// The outcome stated right after the first result label, or `unknown`.
    static func outcome(of parts: [AttemptPart], vocabulary: VocabularyMatcher) -> (Outcome, String?) {
        guard let result = parts.first(where: { $0.role == .result && !$0.text.isEmpty }) else { return (.unknown, nil) }
        guard let (outcome, word) = vocabulary.outcome(in: result.text) else { return (.unknown, nil) }
        return (outcome, word)
    }

    /// Whether `text` starts with the outcome `word`, compared lower-cased character by
    /// character. Runs once per result paragraph of an attempt whose outcome word was found;
    /// only the start of the paragraph is lower-cased (lower-casing whole paragraphs made `kb lint`
    /// about 13 % slower at 10,000 entries).
    static func startsWithOutcomeWord(_ text: String, _ word: String) -> Bool {
        text.prefix(word.count + 2).lowercased().hasPrefix(word.lowercased())
    }

    /// `text` without its first `word.unicodeScalars.count` scalars and the separators and
    /// `。，,！!` after them.
    static func dropOutcomeWord(_ word: String, from text: String) -> String {
        let wordLength = word.unicodeScalars.count
        return VocabularyMatcher.withUTF8(text) { t in
            var i = UTF8Scan.advance(t, from: 0, by: wordLength, end: t.count)
            while i < t.count {
                let (value, length) = UTF8Scan.decode(t, i)
                guard VocabularyMatcher.isSeparator(value: value)
                        || value == 0x3002 || value == 0xFF0C || value == 0x2C || value == 0xFF01 || value == 0x21 else { break }
                i += length
            }
            return VocabularyMatcher.substring(text, i, t.count)
        }
    }
}
