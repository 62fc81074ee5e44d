import Foundation

/// `kb import`: turns a pasted troubleshooting write-up into a draft `entry.md`.
///
/// The steps are separate types: `LineClassifier` (with `CodeDetector`) splits the text into
/// paragraphs, lists, code runs, media and links; `LanguageDetector` picks the language;
/// `StructureMapper` finds sections, attempts and labels with the parser's vocabulary;
/// `DraftWriter` writes front matter and Markdown. Where the text does not say (an outcome,
/// a heading the vocabulary does not know) the draft carries a `TODO(kb-import)` comment,
/// which `kb lint` reports as a warning.
public struct EntryImporter: Sendable {
    public struct Options: Sendable {
        /// The language tag; detected from the text when nil.
        public var lang: String?
        /// The entry id; a slug of the title when nil.
        public var id: String?
        /// `updated`, as `YYYY-MM-DD`.
        public var today: String

        public init(lang: String? = nil, id: String? = nil, today: String = EntryImporter.today()) {
            self.lang = lang
            self.id = id
            self.today = today
        }
    }

    /// The draft and what the importer found.
    public struct Draft: Sendable {
        /// The id used in the front matter (nil when none was given and no slug could be made).
        public let id: String?
        public let lang: String
        public let title: String
        public let document: DraftDocument
        /// The `entry.md` text, or nil without an id.
        public let markdown: String?
        /// Every question left in the draft.
        public let todos: [String]
    }

    public init() {}

    public static func today(_ date: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: date)
    }

    public func draft(_ text: String, options: Options = .init()) -> Draft {
        let blocks = LineClassifier.blocks(text)
        let lang = options.lang ?? LanguageDetector.detect(Self.prose(of: blocks))
        var document = StructureMapper(lang: lang).map(blocks)
        let vocabulary = Vocabulary.forLanguage(lang)

        var todos: [String] = []
        let problemTexts = Self.problemTexts(document)
        if !document.titleFromInput {
            let first = problemTexts.flatMap { ImportText.sentences($0) }.first ?? "Untitled"
            document.title = ImportText.clause(first, limit: 60)
            todos.append("the write-up has no title line; the title was drafted from the first sentence — rewrite it")
        }
        let id = options.id ?? IdentifierExtractor.slug(document.title)

        // References: links found anywhere go to the references section (added when missing).
        if !document.references.isEmpty {
            let items = document.references.map { DraftListItem(text: $0) }
            if let index = document.sections.firstIndex(where: { $0.kind == .section(.references) }) {
                document.sections[index].nodes.append(.list(items))
            } else {
                document.sections.append(DraftSection(kind: .section(.references), heading: vocabulary.headingWord(.references),
                                                      level: StructureMapper.sectionLevel, nodes: [.list(items)]))
            }
        }

        let sentences = problemTexts.flatMap { ImportText.sentences($0.replacingOccurrences(of: "\n", with: " ")) }
        var summary = ""
        for sentence in sentences {
            if summary.isEmpty || ImportText.scalarCount(summary) + ImportText.scalarCount(sentence) <= 160 {
                summary += (summary.isEmpty || CJKCharacter.isLetter(sentence.unicodeScalars.first!) ? "" : " ") + sentence
            }
            if ImportText.scalarCount(summary) > 80 { break }
        }
        if summary.isEmpty { summary = document.title }
        // Symptoms: the first sentences of the problem's paragraphs and items, cut to a phrase
        // (intros ending in a colon and very short lines say nothing about the problem).
        var symptoms = Array(problemTexts.compactMap { text -> String? in
            let first = ImportText.sentences(text.replacingOccurrences(of: "\n", with: " ")).first ?? text
            let trimmed = first.trimmingCharacters(in: .whitespaces)
            if trimmed.hasSuffix(":") || trimmed.hasSuffix("：") || ImportText.scalarCount(trimmed) < 8 { return nil }
            let phrase = ImportText.clause(first, limit: 60)
            return phrase.isEmpty ? nil : phrase
        }.prefix(3))
        if symptoms.isEmpty { symptoms = [document.title] }
        todos.append("summary and symptoms were drafted from the problem statement; rewrite the summary as the answer and the symptoms as search phrases")

        let attempts = document.sections.filter { if case .attempt = $0.kind { return true }; return false }
        let hasFix = document.sections.contains { $0.kind == .section(.fix) }
        let status: EntryMetadata.Status
        if hasFix && !attempts.isEmpty {
            status = .resolved
        } else if hasFix {
            status = .workaround
            todos.append("a fix section but no numbered attempts: status set to workaround")
        } else {
            status = .open
            todos.append("no fix section found: status set to open")
        }

        var prose: [String] = [document.title]
        var code: [String] = []
        for section in document.sections {
            if let heading = section.heading { prose.append(heading) }
            for node in section.nodes {
                switch node {
                case .paragraph(let lines): prose += lines
                case .list(let items): prose += items.map(\.text)
                case .heading(_, let text): prose.append(text)
                case .code(let language, let lines) where language == "swift" || language == "objc": code += lines
                default: break
                }
            }
        }
        let apis = IdentifierExtractor.apis(prose: prose, code: code)
        if !apis.isEmpty { todos.append("apis were collected from identifiers in the text and code; remove the ones that are not APIs") }
        todos.append("tags are empty; add lower-case tags")
        document.frontMatterTodos = todos

        let allTodos = todos + document.sections.flatMap(\.todos)
        var markdown: String? = nil
        if let id {
            let frontMatter = DraftWriter.FrontMatter(id: id, title: document.title, lang: lang, summary: summary, symptoms: symptoms,
                                                      apis: apis, status: status, updated: options.today, todos: todos)
            markdown = DraftWriter().render(document, frontMatter: frontMatter)
        }
        return Draft(id: id, lang: lang, title: document.title, document: document, markdown: markdown, todos: allTodos)
    }

    /// The prose of the blocks (no code, media or links), for language detection.
    static func prose(of blocks: [RawBlock]) -> String {
        blocks.map { block -> String in
            switch block {
            case .paragraph(let lines): return lines.joined(separator: "\n")
            case .list(let items): return items.map(\.text).joined(separator: "\n")
            default: return ""
            }
        }.joined(separator: "\n")
    }

    static let chatPrefix = try! NSRegularExpression(pattern: #"^\[?\d{1,2}:\d{2}(:\d{2})?\s*([AaPp][Mm])?\]?\s*[^\s:：]{1,32}[:：]\s*"#)

    /// A line without a chat message's timestamp and speaker (`[09:58] maria: `).
    static func withoutChatPrefix(_ line: String) -> String {
        guard let match = chatPrefix.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)),
              let range = Range(match.range, in: line) else { return line }
        return String(line[range.upperBound...])
    }

    /// Texts of the problem statement: the problem section, else the text before the first heading.
    static func problemTexts(_ document: DraftDocument) -> [String] {
        func texts(_ section: DraftSection) -> [String] {
            section.nodes.flatMap { node -> [String] in
                switch node {
                case .paragraph(let lines): return lines.contains(where: { chatPrefix.firstMatch(in: $0, range: NSRange($0.startIndex..., in: $0)) != nil })
                    ? lines.map(withoutChatPrefix) : [ImportText.joinLines(lines)]
                case .list(let items): return items.filter { $0.level == 0 }.map(\.text)
                default: return []
                }
            }
        }
        if let problem = document.sections.first(where: { $0.kind == .section(.problem) }), !texts(problem).isEmpty { return texts(problem) }
        if let preamble = document.sections.first(where: { $0.kind == .preamble }), !texts(preamble).isEmpty { return texts(preamble) }
        return document.sections.lazy.map(texts).first { !$0.isEmpty } ?? []
    }
}
