/// Help text and option declarations of a command, in swift-argument-parser's shape.
public struct CommandConfiguration: Sendable {
    public struct Argument: Sendable {
        public let name: String
        public let help: String
        /// What shell completion offers for it.
        public let completion: ArgumentCompletion
        public init(_ name: String, help: String, completion: ArgumentCompletion = .none) {
            self.name = name
            self.help = help
            self.completion = completion
        }
    }

    /// What shell completion offers for a positional argument.
    public enum ArgumentCompletion: Sendable, Equatable {
        case none
        case files
        case directories
        case words([String])
        /// The names of kb's subcommands (`kb help <subcommand>`).
        case subcommands
        /// The ids of the knowledge base's entries (`kb list --format ids`).
        case entryIDs
    }

    public struct Option: Sendable {
        public let names: [String]
        /// Name of the value (`<format>`), nil for a flag.
        public let valueName: String?
        public let help: String
        /// The values the option takes, when they are a fixed list (offered by shell completion).
        public let choices: [String]
        public init(_ names: [String], value: String? = nil, help: String, choices: [String] = []) {
            self.names = names
            self.valueName = value
            self.help = help
            self.choices = choices
        }
    }

    public let name: String
    public let abstract: String
    public let usage: String
    public let discussion: String
    public let arguments: [Argument]
    public let options: [Option]

    public init(name: String, abstract: String, usage: String, discussion: String = "", arguments: [Argument] = [], options: [Option] = []) {
        self.name = name
        self.abstract = abstract
        self.usage = usage
        self.discussion = discussion
        self.arguments = arguments
        self.options = options + Self.commonOptions
    }

    /// Options every command accepts (also before the subcommand: `kb --root DIR search …`).
    public static let commonOptions: [Option] = [
        Option(["--root"], value: "dir", help: "The knowledge base to use (default: KB_ROOT, else the first folder here or above with kb.yaml or entries/)."),
        Option(["--verbose"], help: "Say which knowledge base and settings are used."),
        Option(["-h", "--help"], help: "Show help information."),
    ]

    /// `OVERVIEW / USAGE / ARGUMENTS / OPTIONS` help.
    public var help: String {
        var lines = ["OVERVIEW: \(abstract)", ""]
        if !discussion.isEmpty { lines += [discussion, ""] }
        lines += ["USAGE: \(usage)", ""]
        func column(_ left: String, _ right: String) -> String {
            let pad = left.count < 24 ? String(repeating: " ", count: 24 - left.count) : "\n" + String(repeating: " ", count: 26)
            return "  \(left)\(pad)\(right)"
        }
        if !arguments.isEmpty {
            lines.append("ARGUMENTS:")
            lines += arguments.map { column("<\($0.name)>", $0.help) }
            lines.append("")
        }
        lines.append("OPTIONS:")
        for option in options {
            let names = option.names.joined(separator: ", ") + (option.valueName.map { " <\($0)>" } ?? "")
            lines.append(column(names, option.help))
        }
        return lines.joined(separator: "\n")
    }
}

/// A usage error: exit code 64 and the command's usage line.
public struct UsageError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// A `kb` subcommand: parsed from its arguments, run against a context.
public protocol KBCommand {
    static var configuration: CommandConfiguration { get }
    init(_ arguments: ParsedArguments) throws
    /// Whether the command works on a knowledge base (found before it runs; see `KnowledgeBaseRoot`).
    var knowledgeBase: KnowledgeBaseRequirement { get }
    /// Whether the command reports kb.yaml's diagnostics itself (`kb lint` counts them); the
    /// command line prints them before other commands run.
    var reportsConfigurationDiagnostics: Bool { get }
    /// Runs the command; returns the exit code (0 success, 1 failure).
    func run(_ context: CommandContext) throws -> Int32
}

extension KBCommand {
    public var knowledgeBase: KnowledgeBaseRequirement { .required }
    public var reportsConfigurationDiagnostics: Bool { false }
}

/// Whether a command needs a knowledge base root before it runs.
public enum KnowledgeBaseRequirement: Sendable {
    /// No root: exit 1 with "no knowledge base here or above".
    case required
    /// Used when found (a glossary, default paths); the command works without.
    case optional
    /// The command never reads a knowledge base (`kb init`, `kb render FILE`).
    case none
}

public enum ExitCode {
    public static let success: Int32 = 0
    public static let failure: Int32 = 1
    public static let usage: Int32 = 64
}
