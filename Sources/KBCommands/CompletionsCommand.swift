import KBCore
import KBSearch
import KBScenarios
import KBSite
/// `kb completions <shell>`: a completion script made from the commands' declarations.
public struct CompletionsCommand: KBCommand {
    public static let configuration = CommandConfiguration(
        name: "completions",
        abstract: "Print a shell completion script for bash, zsh or fish.",
        discussion: """
        Made from the subcommands and options kb declares, so it always matches this kb. \
        'make install' installs all three; by hand: kb completions bash > \
        ~/.local/share/bash-completion/completions/kb.
        """,
        arguments: [.init("shell", help: "bash, zsh or fish.", completion: .words(ShellCompletions.Shell.allCases.map(\.rawValue)))]
    )

    public let shell: ShellCompletions.Shell

    public init(_ arguments: ParsedArguments) throws {
        guard arguments.positionals.count == 1 else { throw UsageError("expected one shell: bash, zsh or fish") }
        guard let shell = ShellCompletions.Shell(rawValue: arguments.positionals[0]) else {
            throw UsageError("unknown shell '\(arguments.positionals[0])'; expected bash, zsh or fish")
        }
        self.shell = shell
    }

    public var knowledgeBase: KnowledgeBaseRequirement { .none }

    public func run(_ context: CommandContext) throws -> Int32 {
        context.stdout.write(ShellCompletions(commands: KBCommandLine.commands.map { $0.configuration }).script(for: shell))
        return ExitCode.success
    }
}
