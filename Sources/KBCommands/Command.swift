import KBCore
import KBSearch
import KBScenarios
import KBSite
/// A command's declarations, in swift-argument-parser's shape: its name, abstract, discussion,
/// positional arguments and options. The usage line and help are made from them.
public struct CommandConfiguration: Sendable {
    public typealias Argument = CommandArgument
    public typealias Option = CommandOption

    public let name: String
    public let abstract: String
    public let discussion: String
    public let arguments: [Argument]
    /// The command's own options, then the common ones.
    public let options: [Option]

    public init(name: String, abstract: String, discussion: String = "", arguments: [Argument] = [], options: [Option] = []) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments
        self.options = options + Self.commonOptions
    }

    public static let rootOption = CommandOption(["--root"], value: "dir", help: "The knowledge base to use (default: KB_ROOT, else the first folder here or above with kb.yaml or entries/).")
    public static let verboseOption = CommandOption(["--verbose"], help: "Say which knowledge base and settings are used.")
    public static let helpOption = CommandOption(["-h", "--help"], help: "Show help information.")

    /// Options every command accepts (also before the subcommand: `kb --root DIR search …`).
    public static let commonOptions: [Option] = [rootOption, verboseOption, helpOption]

    /// The options the command declares itself (without the common ones).
    public var ownOptions: [Option] {
        options.filter { option in !Self.commonOptions.contains(option) }
    }

    /// The usage line: `kb search [--limit <n>] [--format <format>] [--explain] <query> ...`.
    /// The common options are left out, as `--help` is in swift-argument-parser.
    public var usage: String { usageParts.joined(separator: " ") }

    /// The words of the usage line: `kb name`, each option, each argument.
    var usageParts: [String] { ["kb \(name)"] + ownOptions.map(\.usage) + arguments.map(\.usage) }

    /// The usage line wrapped at `width` columns after `prefix`, continued under the first option.
    func wrappedUsage(prefix: String, width: Int = 80) -> String {
        let parts = usageParts
        let indent = String(repeating: " ", count: prefix.count + parts[0].count + 1)
        var lines: [String] = []
        var line = prefix + parts[0]
        for part in parts.dropFirst() {
            if line.count + 1 + part.count > width && line.count > indent.count {
                lines.append(line)
                line = indent + part
            } else {
                line += " " + part
            }
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// One line of help: the name in a 24-column field (alone on its line when longer), the text.
    static func helpColumn(_ left: String, _ right: String) -> String {
        let pad = left.count < 24 ? String(repeating: " ", count: 24 - left.count) : "\n" + String(repeating: " ", count: 26)
        return "  \(left)\(pad)\(right)"
    }

    /// `OVERVIEW / USAGE / ARGUMENTS / OPTIONS` help.
    public var help: String {
        var lines = ["OVERVIEW: \(abstract)", ""]
        if !discussion.isEmpty { lines += [discussion, ""] }
        lines += [wrappedUsage(prefix: "USAGE: "), ""]
        let column = Self.helpColumn
        if !arguments.isEmpty {
            lines.append("ARGUMENTS:")
            lines += arguments.map { column("<\($0.name)>", $0.help) }
            lines.append("")
        }
        lines.append("OPTIONS:")
        for option in options {
            lines.append(column(option.synopsis, option.help))
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
