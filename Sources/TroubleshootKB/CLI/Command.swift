/// Help text and option declarations of a command, in swift-argument-parser's shape.
public struct CommandConfiguration: Sendable {
    public struct Argument: Sendable {
        public let name: String
        public let help: String
        public init(_ name: String, help: String) { self.name = name; self.help = help }
    }

    public struct Option: Sendable {
        public let names: [String]
        /// Name of the value (`<format>`), nil for a flag.
        public let valueName: String?
        public let help: String
        public init(_ names: [String], value: String? = nil, help: String) {
            self.names = names
            self.valueName = value
            self.help = help
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
        self.options = options + [Option(["-h", "--help"], help: "Show help information.")]
    }

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
    /// Runs the command; returns the exit code (0 success, 1 failure).
    func run(_ context: CommandContext) throws -> Int32
}

public enum ExitCode {
    public static let success: Int32 = 0
    public static let failure: Int32 = 1
    public static let usage: Int32 = 64
}
