import KBCore
import KBSearch
import KBScenarios
import KBSite
/// A positional argument a command declares: its name, help, how many it takes and what shell
/// completion offers for it.
public struct CommandArgument: Sendable {
    /// How many values the argument takes.
    public enum Arity: Sendable, Equatable {
        /// Exactly one: `<id>`.
        case required
        /// Zero or one: `[<dir>]`.
        case optional
        /// One or more: `<query> ...`.
        case oneOrMore
        /// Any number: `[<paths> ...]`.
        case zeroOrMore
    }

    public let name: String
    public let help: String
    public let arity: Arity
    /// What shell completion offers for it.
    public let completion: ArgumentCompletion

    public init(_ name: String, help: String, arity: Arity = .required, completion: ArgumentCompletion = .none) {
        self.name = name
        self.help = help
        self.arity = arity
        self.completion = completion
    }

    /// Whether further arguments are more of this one.
    public var repeats: Bool { arity == .oneOrMore || arity == .zeroOrMore }

    /// The argument in a usage line.
    public var usage: String {
        switch arity {
        case .required: "<\(name)>"
        case .optional: "[<\(name)>]"
        case .oneOrMore: "<\(name)> ..."
        case .zeroOrMore: "[<\(name)> ...]"
        }
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
