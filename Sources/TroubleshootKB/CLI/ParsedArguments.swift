/// Command-line arguments split into options and positionals by a command's declarations.
public struct ParsedArguments: Sendable {
    public private(set) var positionals: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []
    public private(set) var wantsHelp = false

    /// Parses `arguments` against `configuration`'s options. `--name=value` and `--name value`
    /// are both accepted; `--` ends options.
    public init(_ arguments: [String], configuration: CommandConfiguration) throws {
        var index = 0
        var onlyPositionals = false
        func canonical(_ name: String) -> CommandConfiguration.Option? {
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
            guard let option = canonical(name) else {
                throw UsageError("unknown option '\(name)'")
            }
            let key = option.names.last!
            if key == "--help" { wantsHelp = true; continue }
            if option.valueName != nil {
                if let inlineValue {
                    values[key, default: []].append(inlineValue)
                } else if index < arguments.count {
                    values[key, default: []].append(arguments[index])
                    index += 1
                } else {
                    throw UsageError("missing value for '\(name)'")
                }
            } else {
                if inlineValue != nil { throw UsageError("'\(name)' takes no value") }
                flags.insert(key)
            }
        }
    }

    /// The last value given for an option, by its long name (`--format`).
    public func value(_ name: String) -> String? { values[name]?.last }
    /// Every value given for a repeatable option.
    public func values(_ name: String) -> [String] { values[name] ?? [] }
    public func flag(_ name: String) -> Bool { flags.contains(name) }

    /// An integer option value, with a usage error naming the option when it is not one.
    public func int(_ name: String, default defaultValue: Int, range: ClosedRange<Int> = 1...Int.max) throws -> Int {
        guard let text = value(name) else { return defaultValue }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError("'\(name)' expects a number in \(range.lowerBound)...\(range.upperBound == Int.max ? "" : String(range.upperBound)), got '\(text)'")
        }
        return number
    }

    /// A value restricted to choices.
    public func choice(_ name: String, _ choices: [String], default defaultValue: String) throws -> String {
        guard let text = value(name) else { return defaultValue }
        guard choices.contains(text) else {
            throw UsageError("'\(name)' must be one of \(choices.joined(separator: ", ")), got '\(text)'")
        }
        return text
    }
}
