import KBCore
import KBSearch
import KBScenarios
import KBSite
/// `kb manpage`: kb(1) in roff, made from the help text.
public struct ManualCommand: KBCommand {
    public static let configuration = CommandConfiguration(
        name: "manpage",
        abstract: "Print kb's manual page (roff, for man) made from the help of every command.",
        discussion: "'make install' installs it as share/man/man1/kb.1; read it with man kb."
    )

    public init(_ arguments: ParsedArguments) throws {
        guard arguments.positionals.isEmpty else { throw UsageError("unexpected argument '\(arguments.positionals[0])'") }
    }

    public var knowledgeBase: KnowledgeBaseRequirement { .none }

    public func run(_ context: CommandContext) throws -> Int32 {
        context.stdout.write(ManualPage(commands: KBCommandLine.commands.map { $0.configuration }).roff)
        return ExitCode.success
    }
}
