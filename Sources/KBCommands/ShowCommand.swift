import KBCore
import KBSearch
import KBScenarios
import KBSite
/// `kb show ID`: an entry as a timeline in the terminal.
public struct ShowCommand: KBCommand {
    public static let configuration = CommandConfiguration(
        name: "show",
        abstract: "Show an entry as a timeline: symptoms, attempts, fix, lessons.",
        arguments: [.init("id", help: "The entry's id (its folder name).", completion: .entryIDs)]
    )

    public let id: String

    public init(_ arguments: ParsedArguments) throws {
        guard arguments.positionals.count == 1 else { throw UsageError("expected exactly one entry id") }
        id = arguments.positionals[0]
    }

    public func run(_ context: CommandContext) throws -> Int32 {
        let kb = try KnowledgeBaseLoader(workingDirectory: context.workingDirectory).load(paths: [context.entriesDirectory])
        // An entry that cannot be read or whose front matter is broken: its errors, not a
        // half-empty timeline or "no entry".
        if let item = kb.items.first(where: { $0.entry?.id == id || ($0.entry == nil && $0.location.folderName == id) }) {
            if UnreadableEntries.contains(item) {
                let errors = item.diagnostics.filter { $0.severity == .error && UnreadableEntries.rules.contains($0.rule) }
                for error in (errors.isEmpty ? item.diagnostics : errors) {
                    context.stderr.printLine { LintCommand.format(error, style: context.errorStyle, into: &$0) }
                }
                throw KBError("entry '\(id)' cannot be shown; fix the errors above (kb lint)")
            }
        }
        guard let entry = kb.entry(id: id) else {
            let near = kb.entries.map(\.id).filter { $0.contains(id) || id.contains($0) }
            throw KBError("no entry '\(id)'" + (near.isEmpty ? ". See 'kb list'." : ". Did you mean: \(near.joined(separator: ", "))?"))
        }
        context.stdout.write(Self.render(entry, style: context.style))
        return ExitCode.success
    }

    static func render(_ entry: Entry, style: TerminalStyle) -> String {
        let meta = entry.metadata
        var out = ""
        func line(_ text: String = "") { out += text + "\n" }
        func indented(_ text: String, _ prefix: String) {
            for row in text.split(separator: "\n", omittingEmptySubsequences: true) { line(prefix + row) }
        }
        /// `label` on the first line only; the lines after it start under the text.
        func labelled(_ text: String, _ label: String) {
            let lead = "      " + label + ": "
            let rest = String(repeating: " ", count: lead.count)
            for (k, row) in text.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
                line(k == 0 ? "      " + style.dim(label + ": ") + row : rest + row)
            }
        }
        line(style.bold(meta.title.isEmpty ? entry.id : meta.title))
        line(style.dim("\(entry.id) · \(meta.lang) · \(meta.status?.rawValue ?? "?") · \(meta.updated)"))
        if !meta.summary.isEmpty { line(); indented(meta.summary, "") }
        if !meta.symptoms.isEmpty {
            line()
            line(style.bold("Symptoms"))
            for symptom in meta.symptoms { line("  • \(symptom)") }
        }
        if !meta.apis.isEmpty { line(style.dim("APIs: " + meta.apis.joined(separator: ", "))) }
        if !entry.attempts.isEmpty {
            line()
            line(style.bold("Attempts"))
        }
        for attempt in entry.attempts {
            let mark: String
            switch attempt.outcome {
            case .failed: mark = style.red(attempt.outcome.symbol)
            case .partial: mark = style.yellow(attempt.outcome.symbol)
            case .worked: mark = style.green(attempt.outcome.symbol)
            case .rejected: mark = style.magenta(attempt.outcome.symbol)
            case .unknown: mark = style.dim(attempt.outcome.symbol)
            }
            line("  \(mark) \(style.bold(attempt.number.description)) \(attempt.title)  \(style.dim("[\(attempt.outcome.rawValue)] #\(attempt.anchor.fragment)"))")
            if !attempt.idea.isEmpty { labelled(attempt.idea, "idea") }
            if !attempt.failure.isEmpty { labelled(attempt.failure, "result") }
            if !attempt.cause.isEmpty { labelled(attempt.cause, "cause") }
        }
        if let fix = entry.fix {
            line()
            line(style.green(style.bold("Fix")) + style.dim("  #fix"))
            for block in fix.blocks {
                switch block.kind {
                case .codeBlock:
                    continue
                case .list(let ordered, let start, _):
                    // Steps keep their numbers (or bullets); an item's later lines start under its text.
                    for (k, item) in block.children.enumerated() {
                        let mark = ordered ? "\(start + k). " : "• "
                        for (r, row) in item.plainText.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
                            line("  " + (r == 0 ? mark : String(repeating: " ", count: mark.count)) + row)
                        }
                    }
                default:
                    indented(block.plainText, "  ")
                }
            }
            for code in fix.code {
                let count = code.code.split(separator: "\n").count
                line(style.dim("  [\(code.language.isEmpty ? "code" : code.language): \(count) \(count == 1 ? "line" : "lines")]"))
            }
        }
        if let lessons = entry.lessons {
            line()
            line(style.bold("Lessons"))
            let items = lessons.listItems
            if items.isEmpty { indented(lessons.text, "  ") } else { for item in items { line("  • " + item.replacingOccurrences(of: "\n", with: " ")) } }
        }
        return out
    }
}
