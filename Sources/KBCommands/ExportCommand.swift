import KBCore
import KBSearch
import KBScenarios
import KBSite
/// `kb export --format json`: every record of every entry, with a schema version.
public struct ExportCommand: KBCommand {
    public static let formatOption = CommandOption(["--format"], value: "format", help: "Output format: json (the only one).", choices: ["json"])

    public static let configuration = CommandConfiguration(
        name: "export",
        abstract: "Export every entry's records as JSON (schema in docs/export-schema.md).",
        arguments: [.init("paths", help: "Entries folders, entry folders or entry.md files (default: entries).", arity: .zeroOrMore, completion: .files)],
        options: [formatOption]
    )

    public let paths: [String]

    public init(_ arguments: ParsedArguments) throws {
        paths = arguments.positionals
        _ = try arguments.choice(Self.formatOption, default: "json")
    }

    public var knowledgeBase: KnowledgeBaseRequirement { paths.isEmpty ? .required : .optional }

    public func run(_ context: CommandContext) throws -> Int32 {
        let paths = self.paths.isEmpty ? [context.entriesDirectory] : self.paths
        let kb = try KnowledgeBaseLoader(workingDirectory: context.workingDirectory).load(paths: paths)
        let failures = kb.items.flatMap(\.diagnostics).filter { $0.severity == .error }
        for diagnostic in failures { context.stderr.print(diagnostic.formatted) }
        // Entries that cannot be read are left out (their errors are above), not exported empty.
        let (readable, _) = UnreadableEntries.split(kb.items)
        let export = EntryExport.Document(entries: readable.sorted { $0.id < $1.id }.map(EntryExport.init))
        context.stdout.print(try JSONOutput.string(export))
        return failures.isEmpty ? ExitCode.success : ExitCode.failure
    }
}
