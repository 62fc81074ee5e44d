import Foundation
import KBCore
import KBSearch
import KBScenarios
import KBSite

/// The `kb` command line: finds the subcommand, handles help and version, maps errors to
/// exit codes (0 success, 1 failure, 64 usage) and prints `Error: …` on standard error.
public enum KBCommandLine {
    /// Every subcommand, in the order `kb --help` lists them.
    nonisolated(unsafe) public static var commands: [any KBCommand.Type] = [
        LintCommand.self, ListCommand.self, ShowCommand.self, SearchCommand.self, AnalyzeCommand.self, GlossaryCommand.self, BuildCommand.self,
        CheckCommand.self, ImportCommand.self, ExportCommand.self, IndexCommand.self, ScenarioCommand.self, RenderCommand.self,
        NewCommand.self, ServeCommand.self, InitCommand.self, ThemeCommand.self, CompletionsCommand.self, ManualCommand.self,
    ]

    static let versionOption = CommandOption(["--version"], help: "Show the version.")

    /// The options `kb` takes before a subcommand, in the order its help lists them.
    static let topLevelOptions = [CommandConfiguration.rootOption, CommandConfiguration.verboseOption, versionOption, CommandConfiguration.helpOption]

    static var rootHelp: String {
        (["OVERVIEW: A multilingual troubleshooting knowledge base: entries, search, checks and a static site.", "",
          "USAGE: kb <subcommand> [options]", "", "OPTIONS:"]
         + topLevelOptions.map { CommandConfiguration.helpColumn($0.synopsis, $0.help) }
         + ["", "SUBCOMMANDS:"]).joined(separator: "\n")
    }

    public static func main(_ arguments: [String], context: CommandContext) -> Int32 {
        defer {
            context.stdout.flush()
            context.stderr.flush()
        }
        // Common options before the subcommand (`kb --root DIR search …`) go after it.
        var arguments = arguments
        var leading: [String] = []
        let root = CommandConfiguration.rootOption.key, verbose = CommandConfiguration.verboseOption.key
        while let option = arguments.first, option == verbose || option == root || option.hasPrefix(root + "=") {
            leading.append(arguments.removeFirst())
            if option == root {
                guard !arguments.isEmpty else {
                    context.stderr.print("Error: missing value for '\(root)'")
                    context.stderr.print("Usage: kb \(root) <dir> <subcommand> [options]")
                    return ExitCode.usage
                }
                leading.append(arguments.removeFirst())
            }
        }
        if !leading.isEmpty, let command = arguments.first, !command.hasPrefix("-") {
            arguments = [command] + leading + arguments.dropFirst()
        }
        guard let first = arguments.first else {
            context.stderr.print(helpText())
            return ExitCode.usage
        }
        switch first {
        case versionOption.key, "version":
            context.stdout.print("kb \(TroubleshootKBVersion.string)")
            return ExitCode.success
        case let option where CommandConfiguration.helpOption.names.contains(option):
            context.stdout.print(helpText())
            return ExitCode.success
        case "help":
            // Common options may stand anywhere (`kb --verbose help search`); the name is the first word.
            var rest = Array(arguments.dropFirst())
            while let option = rest.first, option.hasPrefix("-") {
                rest.removeFirst()
                if option == root, !rest.isEmpty { rest.removeFirst() }
            }
            guard let name = rest.first, name != "help" else {
                context.stdout.print(helpText())
                return ExitCode.success
            }
            guard let command = command(named: name) else {
                context.stderr.print("Error: unknown command '\(name)'. See 'kb --help'.")
                return ExitCode.usage
            }
            context.stdout.print(command.configuration.help)
            return ExitCode.success
        default:
            break
        }
        guard let type = command(named: first) else {
            let what = first.hasPrefix("-") ? "option" : "command"
            context.stderr.print("Error: unknown \(what) '\(first)'. See 'kb --help'.")
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
            if command.knowledgeBase == .none, parsed.value(CommandConfiguration.rootOption) != nil {
                throw UsageError(type.configuration.name == "init"
                    ? "kb init takes the folder as an argument: kb init <dir>"
                    : "kb \(type.configuration.name) does not use a knowledge base, so \(CommandConfiguration.rootOption.key) has no effect here")
            }
            var context = context
            context.verbose = parsed.flag(CommandConfiguration.verboseOption)
            if command.knowledgeBase != .none {
                switch try findRoot(explicit: parsed.value(CommandConfiguration.rootOption), command: command, context: context) {
                case .found(let root): context.root = root
                case .notNeeded: break
                case .stop(let code): return code
                }
            }
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

    enum RootOutcome {
        case found(KnowledgeBaseRoot)
        case notNeeded
        case stop(Int32)
    }

    /// Finds the knowledge base a command works on and reports its configuration problems.
    /// A required root that is missing is an error, unless `KB_ENTRIES` names the entries.
    static func findRoot(explicit: String?, command: any KBCommand, context: CommandContext) throws -> RootOutcome {
        let requirement = command.knowledgeBase
        let root: KnowledgeBaseRoot
        let diagnostics: [Diagnostic]
        do {
            (root, diagnostics) = try KnowledgeBaseRoot.discover(workingDirectory: context.workingDirectory,
                                                                 environment: context.environment, explicit: explicit)
        } catch let error as KBError {
            let named = explicit != nil || !(context.environment["KB_ROOT"] ?? "").isEmpty
            if requirement == .optional && !named { return .notNeeded }
            if requirement == .required && !named && context.environment["KB_ENTRIES"] != nil { return .notNeeded }
            throw error
        }
        if context.verbose {
            context.stderr.print(root.explanation)
            context.stderr.print("settings: " + (root.configurationFile ?? "none (no \(KnowledgeBaseConfiguration.fileName); defaults apply)"))
        }
        if command.reportsConfigurationDiagnostics { return .found(root) }
        for diagnostic in diagnostics { context.stderr.printLine { LintCommand.format(diagnostic, style: context.errorStyle, into: &$0) } }
        if diagnostics.contains(where: { $0.severity == .error }) {
            context.stderr.print("Error: \(root.configurationFile ?? KnowledgeBaseConfiguration.fileName) has errors; fix them and run the command again")
            return .stop(ExitCode.failure)
        }
        return .found(root)
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
        // Standard output that cannot be written ends the run: quietly when the reader went away
        // (`kb export | head`), with the reason otherwise (a full disk); exit 1 either way.
        // What was said on standard error before is written first, and the folders registered
        // for cleanup (kb serve's workspace, a build's staging folder) are removed.
        let stderr = OutputStream(fileDescriptor: 2)
        let stdout = OutputStream(fileDescriptor: 1) { error in
            stderr.flush()
            if error != EPIPE {
                stderr.print("Error: cannot write to standard output: \(String(cString: strerror(error)))")
                stderr.flush()
            }
            SiteWriter.Interruption.removeRegisteredFolders()
            exit(1)
        }
        var context = CommandContext(workingDirectory: FileManager.default.currentDirectoryPath,
                                     stdout: stdout, stderr: stderr,
                                     environment: ProcessInfo.processInfo.environment)
        context.executablePath = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let code = main(Array(CommandLine.arguments.dropFirst()), context: context)
        exit(code)
    }
}
