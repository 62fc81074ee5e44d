import Foundation
import KBCore
import KBSearch
import KBScenarios
import KBSite

/// `kb glossary`: the concepts of `entries/glossary.yaml` and the entries that mention them;
/// `kb glossary gaps`: frequent words of the entries that no concept covers yet.
public struct GlossaryCommand: KBCommand {
    public static let minEntriesOption = CommandOption(["--min-entries"], value: "n", help: "gaps: only words found in at least n entries (default: 2).")
    public static let limitOption = CommandOption(["--limit"], value: "n", help: "gaps: at most n suggestions of each kind (default: 30).")
    public static let formatOption = CommandOption(["--format"], value: "format", help: "Output format: text or json (default: text).", choices: ["text", "json"])

    public static let configuration = CommandConfiguration(
        name: "glossary",
        abstract: "List the glossary's concepts and the entries that mention them, or suggest missing concepts.",
        discussion: """
        Without a subcommand, lists every concept of entries/glossary.yaml with its terms per \
        language and, per entry language, the entries that mention it (through any of its terms, \
        as search sees them: code samples are left out). A concept no entry mentions only helps queries. 'gaps' lists CJK \
        bigrams and identifiers that occur in several entries outside every concept's terms: \
        candidates for new concepts or terms (docs/search.md, "Cross-language search").
        """,
        arguments: [.init("subcommand", help: "gaps (optional).", arity: .optional, completion: .words(["gaps"]))],
        options: [minEntriesOption, limitOption, formatOption]
    )

    public let gaps: Bool
    public let minEntries: Int
    public let limit: Int
    public let format: String

    public init(_ arguments: ParsedArguments) throws {
        switch arguments.positionals.count {
        case 0: gaps = false
        case 1:
            guard arguments.positionals[0] == "gaps" else {
                throw UsageError("unknown subcommand '\(arguments.positionals[0])'; expected gaps")
            }
            gaps = true
        default: throw UsageError("expected at most one subcommand: gaps")
        }
        minEntries = try arguments.int(Self.minEntriesOption, default: 2, range: 1...100_000)
        limit = try arguments.int(Self.limitOption, default: 30, range: 1...100_000)
        format = try arguments.choice(Self.formatOption, default: "text")
    }

    public func run(_ context: CommandContext) throws -> Int32 {
        let file = (context.entriesDirectory as NSString).appendingPathComponent(Glossary.fileName)
        let display = EntryLocator.displayPath(file, workingDirectory: context.workingDirectory)
        guard FileManager.default.fileExists(atPath: file) else {
            throw KBError("no glossary at \(display)")
        }
        let kb = try KnowledgeBaseLoader(workingDirectory: context.workingDirectory).load(paths: [context.entriesDirectory])
        let glossary = kb.glossary
        for problem in kb.glossaryDiagnostics { context.stderr.print(problem.formatted) }
        let report = GlossaryReport(glossary: glossary, entries: kb.entries)
        if gaps {
            return try printGaps(report, context: context)
        }
        return try printConcepts(report, glossary: glossary, path: display, context: context)
    }

    // MARK: Concepts

    struct ConceptJSON: Encodable {
        struct Mention: Encodable {
            let entry: String
            let lang: String
            let terms: [String]
            let count: Int
        }
        let id: String
        let name: String
        let terms: [String: [String]]
        let entries: [Mention]
    }

    func printConcepts(_ report: GlossaryReport, glossary: Glossary, path: String, context: CommandContext) throws -> Int32 {
        let languages = report.entryLanguages
        if format == "json" {
            let concepts = glossary.concepts.map { concept in
                ConceptJSON(id: concept.id, name: report.search.concepts.first { $0.id == concept.id }?.name ?? concept.id,
                            terms: Dictionary(grouping: concept.terms, by: \.language).mapValues { $0.map(\.text) },
                            entries: report.mentions[concept.id, default: []].map {
                                .init(entry: $0.entry, lang: $0.lang, terms: $0.terms, count: $0.count)
                            })
            }
            context.stdout.print(try JSONOutput.string(concepts))
            return ExitCode.success
        }
        let style = context.style
        let unused = glossary.concepts.filter { report.mentions[$0.id, default: []].isEmpty }.count
        context.stdout.print("\(glossary.concepts.count) concepts in \(path); \(report.entryCount) entries; \(unused) concepts no entry mentions")
        for concept in glossary.concepts {
            let name = report.search.concepts.first { $0.id == concept.id }?.name ?? concept.id
            context.stdout.print("")
            context.stdout.print("\(style.bold(concept.id))  \(style.dim(name))")
            for language in Glossary.languages {
                let terms = concept.terms.filter { $0.language == language }.map(\.text)
                if terms.isEmpty { continue }
                context.stdout.print("  \(Self.pad(language, 8)) \(terms.joined(separator: ", "))")
            }
            let mentions = report.mentions[concept.id, default: []]
            context.stdout.print("  \(style.dim("entries"))")
            for language in languages {
                let list = mentions.filter { $0.lang == language }
                let text = list.isEmpty ? style.dim("—")
                    : list.map { "\($0.entry) (\($0.terms.joined(separator: ", ")) ×\($0.count))" }.joined(separator: "; ")
                context.stdout.print("    \(Self.pad(language, 8)) \(text)")
            }
        }
        return ExitCode.success
    }

    // MARK: Gaps

    struct GapJSON: Encodable {
        let kind: String
        let token: String
        let example: String
        let entries: Int
        let occurrences: Int
        let ids: [String]
    }

    func printGaps(_ report: GlossaryReport, context: CommandContext) throws -> Int32 {
        let bigrams = Array(report.gaps.filter { $0.kind == .bigram && $0.entries.count >= minEntries }.prefix(limit))
        let identifiers = Array(report.gaps.filter { $0.kind == .identifier && $0.entries.count >= minEntries }.prefix(limit))
        if format == "json" {
            let rows = (bigrams + identifiers).map {
                GapJSON(kind: $0.kind.rawValue, token: $0.token, example: $0.example, entries: $0.entries.count,
                        occurrences: $0.occurrences, ids: $0.entries)
            }
            context.stdout.print(try JSONOutput.string(rows))
            return ExitCode.success
        }
        let style = context.style
        context.stdout.print("Words in at least \(minEntries) of \(report.entryCount) entries that no glossary concept covers.")
        context.stdout.print("Add a concept (or a term to one) when the word names a thing people search for in several languages.")
        for (title, rows) in [("CJK bigrams", bigrams), ("Identifiers", identifiers)] {
            context.stdout.print("")
            context.stdout.print(style.bold(title))
            if rows.isEmpty { context.stdout.print("  " + style.dim("none")) }
            for row in rows {
                let shown = row.kind == .identifier ? row.example : row.token
                context.stdout.print("  \(Self.pad(shown, 28)) \(row.entries.count) entries, \(row.occurrences)×  \(style.dim(row.entries.joined(separator: ", ")))")
            }
        }
        return ExitCode.success
    }

    /// Pads to a display width, counting East Asian wide characters as two columns.
    static func pad(_ text: String, _ width: Int) -> String {
        var w = 0
        for s in text.unicodeScalars {
            let c = SearchScalars.classify(s.value)
            w += (c == .han || c == .kana || c == .hangul) ? 2 : 1
        }
        return w >= width ? text + " " : text + String(repeating: " ", count: width - w)
    }
}

/// Which entries mention which concepts, and which frequent words no concept covers.
struct GlossaryReport {
    struct Mention {
        var entry: String
        var lang: String
        /// The terms as written in the entry (distinct, in order of first occurrence).
        var terms: [String]
        var count: Int
    }

    struct Gap {
        var kind: SearchTokenKind
        var token: String
        /// As written in the first entry where it occurs.
        var example: String
        var entries: [String]
        var occurrences: Int
    }

    let search: SearchGlossary
    let entryCount: Int
    /// Entry languages present, glossary languages first.
    let entryLanguages: [String]
    /// Per concept id, in entry id order.
    var mentions: [String: [Mention]] = [:]
    /// Sorted by entry count, then occurrences (descending), then token.
    var gaps: [Gap] = []

    init(glossary: Glossary, entries: [Entry]) {
        search = SearchGlossary(glossary)
        entryCount = entries.count
        let present = Set(entries.map(\.metadata.lang))
        entryLanguages = Glossary.languages.filter(present.contains) + present.subtracting(Glossary.languages).sorted()
        var gapIndex: [String: Int] = [:]
        for entry in entries.sorted(by: { $0.id < $1.id }) {
            let document = SearchDocument(entry: entry)
            var perConcept: [String: Mention] = [:]
            var order: [String] = []
            var seenGaps: Set<String> = []
            // As search sees them: code samples are not expanded, so they are left out.
            for field in SearchField.allCases where field != .code {
                for text in document.fields[field] ?? [] {
                    let tokens = SearchAnalyzer.analyze(text.text, mode: .document, glossary: search)
                    let scalars = Array(text.text.unicodeScalars)
                    func written(_ t: AnalyzedToken) -> String {
                        String(String.UnicodeScalarView(scalars[t.start..<t.end]))
                    }
                    let concepts = tokens.filter { $0.kind == .concept }
                    for t in concepts {
                        let id = String(t.text.dropFirst(3))
                        let term = written(t)
                        if perConcept[id] == nil {
                            perConcept[id] = Mention(entry: entry.id, lang: entry.metadata.lang, terms: [], count: 0)
                            order.append(id)
                        }
                        perConcept[id]!.count += 1
                        if !perConcept[id]!.terms.contains(term) { perConcept[id]!.terms.append(term) }
                    }
                    for t in tokens where t.kind == .bigram || t.kind == .identifier {
                        if t.kind == .bigram && t.text.unicodeScalars.allSatisfy({ (0x3041...0x309F).contains($0.value) }) { continue }
                        if concepts.contains(where: { $0.start < t.end && t.start < $0.end }) { continue }
                        let key = t.kind.rawValue + "\u{0}" + t.text
                        if let i = gapIndex[key] {
                            gaps[i].occurrences += 1
                            if seenGaps.insert(key).inserted { gaps[i].entries.append(entry.id) }
                        } else {
                            gapIndex[key] = gaps.count
                            seenGaps.insert(key)
                            gaps.append(Gap(kind: t.kind, token: t.text, example: written(t), entries: [entry.id], occurrences: 1))
                        }
                    }
                }
            }
            for id in order { mentions[id, default: []].append(perConcept[id]!) }
        }
        gaps.sort {
            if $0.entries.count != $1.entries.count { return $0.entries.count > $1.entries.count }
            if $0.occurrences != $1.occurrences { return $0.occurrences > $1.occurrences }
            return $0.token.utf8.lexicographicallyPrecedes($1.token.utf8)
        }
    }
}
