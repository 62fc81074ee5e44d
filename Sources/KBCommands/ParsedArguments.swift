import KBCore
import KBSearch
import KBScenarios
import KBSite
/// Command-line arguments split into options and positionals by a command's declarations.
/// Options are read back by their declarations (`arguments.value(Self.out)`), never by a name
/// written a second time.
public struct ParsedArguments: Sendable {
    public private(set) var positionals: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []
    /// The keys of the declared options: reading any other is a mistake in the command.
    private let declared: Set<String>
    public private(set) var wantsHelp = false

    /// Parses `arguments` against `configuration`'s options. `--name=value` and `--name value`
    /// are both accepted; `--` ends options.
    public init(_ arguments: [String], configuration: CommandConfiguration) throws {
        declared = Set(configuration.options.map(\.key))
        var index = 0
        var onlyPositionals = false
        func declaration(_ name: String) -> CommandOption? {
            configuration.options.first { $0.names.contains(name) }
        }
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                positionals.append(argument)
                continue
            }
            if argument == "--" { onlyPositionals = true; continue }
            var name = argument
            var inlineValue: String? = nil
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let option = declaration(name) else {
                throw UsageError("unknown option '\(name)'")
            }
            if option == CommandConfiguration.helpOption { wantsHelp = true; continue }
            if option.takesValue {
                if let inlineValue {
                    values[option.key, default: []].append(inlineValue)
                } else if index < arguments.count {
                    values[option.key, default: []].append(arguments[index])
                    index += 1
                } else {
                    throw UsageError("missing value for '\(name)'")
                }
            } else {
                if inlineValue != nil { throw UsageError("'\(name)' takes no value") }
                flags.insert(option.key)
            }
        }
    }

    private func check(_ option: CommandOption, value: Bool) {
        assert(declared.contains(option.key), "\(option.key) is read but the command does not declare it")
        assert(option.takesValue == value, "\(option.key) is read as a \(value ? "value" : "flag") but declared as the other")
    }

    /// The last value given for an option.
    public func value(_ option: CommandOption) -> String? {
        check(option, value: true)
        return values[option.key]?.last
    }

    /// Every value given for a repeatable option.
    public func values(_ option: CommandOption) -> [String] {
        check(option, value: true)
        return values[option.key] ?? []
    }

    /// Whether a flag was given.
    public func flag(_ option: CommandOption) -> Bool {
        check(option, value: false)
        return flags.contains(option.key)
    }

    /// An integer option value, with a usage error naming the option when it is not one.
    public func int(_ option: CommandOption, default defaultValue: Int, range: ClosedRange<Int> = 1...Int.max) throws -> Int {
        guard let text = value(option) else { return defaultValue }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError("'\(option.key)' expects a number in \(range.lowerBound)...\(range.upperBound == Int.max ? "" : String(range.upperBound)), got '\(text)'")
        }
        return number
    }

    /// An integer option value, nil when the option is not given.
    public func int(_ option: CommandOption, range: ClosedRange<Int> = 1...Int.max) throws -> Int? {
        value(option) == nil ? nil : try int(option, default: 0, range: range)
    }

    /// A value of an option with fixed choices (its declared `choices`), nil when not given.
    public func choice(_ option: CommandOption) throws -> String? {
        assert(!option.choices.isEmpty, "\(option.key) declares no choices")
        guard let text = value(option) else { return nil }
        guard option.choices.contains(text) else {
            throw UsageError("'\(option.key)' must be one of \(option.choices.joined(separator: ", ")), got '\(text)'")
        }
        return text
    }

    /// A value of an option with fixed choices, or `defaultValue` when not given.
    public func choice(_ option: CommandOption, default defaultValue: String) throws -> String {
        try choice(option) ?? defaultValue
    }
}
