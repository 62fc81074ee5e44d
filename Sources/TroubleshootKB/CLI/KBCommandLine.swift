import Foundation

/// The `kb` command line: finds the subcommand, handles help and version, maps errors to
/// exit codes (0 success, 1 failure, 64 usage) and prints `Error: …` on standard error.
public enum KBCommandLine {
    /// Every subcommand, in the order `kb --help` lists them.
    nonisolated(unsafe) public static var commands: [any KBCommand.Type] = [
        LintCommand.self, ListCommand.self, ShowCommand.self, SearchCommand.self, AnalyzeCommand.self, GlossaryCommand.self, BuildCommand.self,
        CheckCommand.self, ImportCommand.self, ExportCommand.self, IndexCommand.self, ScenarioCommand.self, RenderCommand.self,
    ]

    static let rootHelp = """
    OVERVIEW: A multilingual troubleshooting knowledge base: entries, search, checks and a static site.

    USAGE: kb <subcommand> [options]

    OPTIONS:
      --version               Show the version.
      -h, --help              Show help information.

    SUBCOMMANDS:
    """

    public static func main(_ arguments: [String], context: CommandContext) -> Int32 {
        defer {
            context.stdout.flush()
            context.stderr.flush()
        }
        guard let first = arguments.first else {
            context.stderr.print(helpText())
            return ExitCode.usage
        }
        switch first {
        case "--version", "version":
            context.stdout.print("kb \(TroubleshootKBVersion.string)")
            return ExitCode.success
        case "-h", "--help":
            context.stdout.print(helpText())
            return ExitCode.success
        case "help":
            guard arguments.count > 1 else {
                context.stdout.print(helpText())
                return ExitCode.success
            }
            guard let command = command(named: arguments[1]) else {
                context.stderr.print("Error: unknown command '\(arguments[1])'. See 'kb --help'.")
                return ExitCode.usage
            }
            context.stdout.print(command.configuration.help)
            return ExitCode.success
        default:
            break
        }
        guard let type = command(named: first) else {
            context.stderr.print("Error: unknown command '\(first)'. See 'kb --help'.")
            return ExitCode.usage
        }
        return run(type, Array(arguments.dropFirst()), context: context)
    }

    static func run(_ type: any KBCommand.Type, _ arguments: [String], context: CommandContext) -> Int32 {
        do {
            let parsed = try ParsedArguments(arguments, configuration: type.configuration)
            if parsed.wantsHelp {
                context.stdout.print(type.configuration.help)
                return ExitCode.success
            }
            let command = try type.init(parsed)
            return try command.run(context)
        } catch let error as UsageError {
            context.stderr.print("Error: \(error.message)")
            context.stderr.print("Usage: \(type.configuration.usage)")
            context.stderr.print("  See 'kb help \(type.configuration.name)'.")
            return ExitCode.usage
        } catch let error as KBError {
            context.stderr.print("Error: \(error.message)")
            return ExitCode.failure
        } catch {
            context.stderr.print("Error: \(error)")
            return ExitCode.failure
        }
    }

    static func command(named name: String) -> (any KBCommand.Type)? {
        commands.first { $0.configuration.name == name }
    }

    static func helpText() -> String {
        let width = (commands.map { $0.configuration.name.count }.max() ?? 0) + 2
        let lines = commands.map { type -> String in
            let name = type.configuration.name
            return "  " + name + String(repeating: " ", count: 22 - min(width, 20) + (width - name.count)) + type.configuration.abstract
        }
        return rootHelp + "\n" + lines.joined(separator: "\n") + "\n\n  See 'kb help <subcommand>' for detailed help."
    }

    /// Runs `kb` as a process: real streams, environment and working directory.
    public static func runAsProcess() -> Never {
        signal(SIGPIPE, SIG_IGN)
        let context = CommandContext(workingDirectory: FileManager.default.currentDirectoryPath,
                                     stdout: OutputStream(fileDescriptor: 1), stderr: OutputStream(fileDescriptor: 2),
                                     environment: ProcessInfo.processInfo.environment)
        let code = main(Array(CommandLine.arguments.dropFirst()), context: context)
        exit(code)
    }
}
