import KBCore
import KBSearch
import KBScenarios
import KBSite
/// An option a command declares once: its names, the name of its value (nil for a flag), its
/// help and, when they are a fixed list, the values it takes. The command reads it back by the
/// same constant (`arguments.value(Self.out)`); help, usage, the manual page and shell
/// completions are made from the declarations.
public struct CommandOption: Sendable, Equatable {
    public let names: [String]
    /// Name of the value (`<format>`), nil for a flag.
    public let valueName: String?
    public let help: String
    /// The values the option takes, when they are a fixed list (checked when parsing, offered by
    /// shell completion).
    public let choices: [String]

    public init(_ names: [String], value: String? = nil, help: String, choices: [String] = []) {
        precondition(!names.isEmpty, "an option needs a name")
        self.names = names
        self.valueName = value
        self.help = help
        self.choices = choices
    }

    /// The name values are kept under: the long one (`--jobs` for `-j, --jobs`).
    public var key: String { names[names.count - 1] }

    /// Whether the option takes a value (`--out <dir>`) rather than being a flag (`--clean`).
    public var takesValue: Bool { valueName != nil }

    /// The option in a usage line: `[--format <format>]`, `[--strict]`.
    public var usage: String { "[" + key + (valueName.map { " <\($0)>" } ?? "") + "]" }

    /// The option in help: `-j, --jobs <n>`.
    public var synopsis: String { names.joined(separator: ", ") + (valueName.map { " <\($0)>" } ?? "") }
}
