import Foundation
import KBCore
import KBSearch
import KBScenarios
import KBSite

/// `kb scenario parse FILE [--dialects JSON]`: the Gherkin parser and pickle compiler on one
/// file, as NDJSON (`{"pickle": …}` per pickle, or `{"parseError": …}` per syntax error).
public struct ScenarioCommand: KBCommand {
    public static let dialectsOption = CommandOption(["--dialects"], value: "json", help: "A gherkin-languages.json table to use instead of the built-in dialects.")

    public static let configuration = CommandConfiguration(
        name: "scenario",
        abstract: "Work with check scenario files (Gherkin).",
        discussion: """
        'parse' prints one {"pickle": …} line per scenario (outline rows expanded, background steps \
        included), or one {"parseError": …} line per syntax error and exits 1, as it does when a file cannot be read.
        """,
        arguments: [.init("subcommand", help: "parse", completion: .words(["parse"])), .init("file", help: "A .feature file.", completion: .files)],
        options: [dialectsOption]
    )

    public let file: String
    public let dialects: String?

    public init(_ arguments: ParsedArguments) throws {
        guard let subcommand = arguments.positionals.first else { throw UsageError("expected a subcommand: parse") }
        guard subcommand == "parse" else { throw UsageError("unknown subcommand '\(subcommand)'; expected parse") }
        guard arguments.positionals.count == 2 else { throw UsageError("expected exactly one feature file") }
        file = arguments.positionals[1]
        dialects = arguments.value(Self.dialectsOption)
    }

    public var knowledgeBase: KnowledgeBaseRequirement { .none }

    public func run(_ context: CommandContext) throws -> Int32 {
        let path = EntryLocator.absolute(file, workingDirectory: context.workingDirectory)
        var dialects = GherkinDialects.builtIn
        if let table = self.dialects {
            do {
                dialects = try GherkinDialects.load(jsonAt: EntryLocator.absolute(table, workingDirectory: context.workingDirectory))
            } catch {
                context.stderr.print("Error: \(error)")
                return ExitCode.failure
            }
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            context.stderr.print("Error: \(file): cannot read the file")
            return ExitCode.failure
        }
        // The pickles' uri is the path as given on the command line.
        let output = ScenarioParseCommandCore.run(source: String(decoding: data, as: UTF8.self), uri: file, dialects: dialects)
        for line in output.lines { context.stdout.print(line) }
        if output.exitCode != 0 && output.lines.isEmpty {
            for message in output.diagnostics { context.stderr.print("Error: \(message)") }
        }
        return output.exitCode
    }
}
