import Foundation
import KBCore

/// A parameter type of Cucumber Expressions: `{int}`, `{string}`, or a custom one registered
/// with a name, one or more regular expressions and a transformer.
public struct ParameterType: Sendable {
    /// Turns the text a parameter matched into a value. It receives the capture groups of the
    /// parameter's regular expression (nil for groups that did not take part), or the whole
    /// match when the expression has no groups.
    public typealias Transformer = @Sendable ([String?]) throws -> any Sendable

    public let name: String
    public let regexps: [String]
    public let transformer: Transformer

    public init(name: String, regexps: [String], transformer: @escaping Transformer) {
        self.name = name
        self.regexps = regexps
        self.transformer = transformer
    }

    public init(name: String, regexp: String, transformer: @escaping Transformer) {
        self.init(name: name, regexps: [regexp], transformer: transformer)
    }

    /// `{int}`: a decimal integer with an optional sign (ASCII digits).
    public static let int = ParameterType(name: "int", regexp: "[-+]?[0-9]+") { groups in
        let text = groups.first.flatMap { $0 } ?? ""
        guard let value = Int(text.hasPrefix("+") ? String(text.dropFirst()) : text) else {
            throw StepFailure("'\(text)' is not an integer")
        }
        return value
    }

    /// `{float}`: a decimal number, with optional fraction and exponent.
    public static let float = ParameterType(name: "float", regexp: "[-+]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:[eE][-+]?[0-9]+)?") { groups in
        let text = groups.first.flatMap { $0 } ?? ""
        guard let value = Double(text) else { throw StepFailure("'\(text)' is not a number") }
        return value
    }

    /// `{word}`: anything up to whitespace.
    public static let word = ParameterType(name: "word", regexp: "[^\\s]+") { groups in
        groups.first.flatMap { $0 } ?? ""
    }

    /// `{string}`: text in `"…"` or `'…'` (a backslash escapes the quote), or in 「…」 (which may
    /// hold one level of nested 「…」: 「<p>**「強調」**した</p>」) or “…”. The value is the text between the quotes.
    public static let string = ParameterType(
        name: "string",
        regexps: ["\"((?:[^\"\\\\]|\\\\.)*)\"", "'((?:[^'\\\\]|\\\\.)*)'", "「((?:[^「」]|「[^「」]*」)*)」", "“([^”]*)”"]
    ) { groups in
        guard let index = groups.firstIndex(where: { $0 != nil }), let text = groups[index] else { return "" }
        switch index {
        case 0: return text.replacingOccurrences(of: "\\\"", with: "\"").replacingOccurrences(of: "\\\\", with: "\\")
        case 1: return text.replacingOccurrences(of: "\\'", with: "'").replacingOccurrences(of: "\\\\", with: "\\")
        default: return text
        }
    }

    /// `{}`: anything.
    public static let anonymous = ParameterType(name: "", regexp: ".*") { groups in
        groups.first.flatMap { $0 } ?? ""
    }
}

/// The parameter types an expression may use, by name.
public struct ParameterTypeRegistry: Sendable {
    public private(set) var types: [String: ParameterType] = [:]

    /// The built-in types: `int`, `float`, `word`, `string` and the anonymous `{}`.
    public init() {
        for type in [ParameterType.int, .float, .word, .string, .anonymous] { types[type.name] = type }
    }

    /// Adds a custom type. Names are unique; built-in names cannot be redefined.
    public mutating func register(_ type: ParameterType) throws {
        guard types[type.name] == nil else {
            throw CucumberExpressionError(expression: "{\(type.name)}", column: 1, reason: "parameter type '\(type.name)' is already defined")
        }
        guard type.name.unicodeScalars.allSatisfy({ !"{}()/\\ ".unicodeScalars.contains($0) }) else {
            throw CucumberExpressionError(expression: type.name, column: 1, reason: "a parameter type name may not contain {, }, (, ), / or \\ or spaces")
        }
        types[type.name] = type
    }

    public subscript(name: String) -> ParameterType? { types[name] }
}

/// A mistake in a Cucumber Expression, with the column (in characters, 1-based) where it is.
public struct CucumberExpressionError: Error, Sendable, Equatable, CustomStringConvertible {
    public let expression: String
    public let column: Int
    public let reason: String
    public var description: String { "\(reason) (column \(column) of '\(expression)')" }
}

/// A compiled Cucumber Expression (https://github.com/cucumber/cucumber-expressions):
/// literal text with `{parameter}`s, optional text `(s)`, alternatives `a/b` and `\` escapes,
/// compiled to an anchored `NSRegularExpression`.
///
/// Alternatives extend to the nearest whitespace, parameter or end of the expression on either
/// side, so `{string}을/를 실행한다` offers `을` or `를`, and `运行/执行{string}` offers `运行`
/// or `执行`. Optional text and alternatives may not contain parameters.
public struct CucumberExpression: Sendable {
    public let source: String
    public let regex: NSRegularExpression
    /// The parameter types in order of appearance.
    public let parameterTypes: [ParameterType]
    /// The number of capture groups of each parameter type's own regular expressions.
    let innerGroupCounts: [Int]

    public init(_ source: String, registry: ParameterTypeRegistry = ParameterTypeRegistry()) throws {
        self.source = source
        let nodes = try Self.parse(source)
        var pattern = "^"
        var types: [ParameterType] = []
        var counts: [Int] = []
        for node in nodes {
            switch node {
            case .text(let text): pattern += NSRegularExpression.escapedPattern(for: text)
            case .optional(let text): pattern += "(?:" + NSRegularExpression.escapedPattern(for: text) + ")?"
            case .alternation(let alternatives):
                pattern += "(?:" + alternatives.map { alternative in
                    alternative.map { part -> String in
                        switch part {
                        case .text(let text): return NSRegularExpression.escapedPattern(for: text)
                        case .optional(let text): return "(?:" + NSRegularExpression.escapedPattern(for: text) + ")?"
                        default: return ""
                        }
                    }.joined()
                }.joined(separator: "|") + ")"
            case .parameter(let name, let column):
                guard let type = registry[name] else {
                    throw CucumberExpressionError(expression: source, column: column, reason: "undefined parameter type '{\(name)}'")
                }
                types.append(type)
                var inner = 0
                for regexp in type.regexps {
                    guard let compiled = try? NSRegularExpression(pattern: regexp) else {
                        throw CucumberExpressionError(expression: source, column: column, reason: "parameter type '{\(name)}' has an invalid regular expression")
                    }
                    inner += compiled.numberOfCaptureGroups
                }
                counts.append(inner)
                pattern += "(" + type.regexps.map { "(?:\($0))" }.joined(separator: "|") + ")"
            }
        }
        pattern += "$"
        regex = try NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators])
        parameterTypes = types
        innerGroupCounts = counts
    }

    /// The parameter values when `text` matches the whole expression, else nil.
    public func match(_ text: String) throws -> [any Sendable]? {
        let ns = text as NSString
        guard let result = regex.firstMatch(in: text, range: NSRange(location: 0, length: ns.length)) else { return nil }
        var values: [any Sendable] = []
        var group = 1
        for (index, type) in parameterTypes.enumerated() {
            let whole = Self.substring(ns, result.range(at: group))
            let count = innerGroupCounts[index]
            let groups: [String?] = count == 0 ? [whole] : (1...count).map { Self.substring(ns, result.range(at: group + $0)) }
            values.append(try type.transformer(groups))
            group += 1 + count
        }
        return values
    }

    static func substring(_ ns: NSString, _ range: NSRange) -> String? {
        range.location == NSNotFound ? nil : ns.substring(with: range)
    }

    // MARK: Parsing

    enum Node: Equatable {
        case text(String)
        case optional(String)
        case parameter(name: String, column: Int)
        case alternation([[Node]])
    }

    private enum Token: Equatable {
        case char(Character, escaped: Bool)
    }

    /// Splits the expression into text, optionals, parameters and alternations.
    static func parse(_ source: String) throws -> [Node] {
        let chars = Array(source)
        func fail(_ column: Int, _ reason: String) -> CucumberExpressionError {
            CucumberExpressionError(expression: source, column: column, reason: reason)
        }
        // First pass: text, optional, parameter, and `/` separators, honouring escapes.
        enum Piece: Equatable { case text(String), optional(String), parameter(String, Int), slash(Int), space(String) }
        var pieces: [Piece] = []
        var text = ""
        func flushText() { if !text.isEmpty { pieces.append(.text(text)); text = "" } }
        var i = 0
        while i < chars.count {
            let c = chars[i]
            switch c {
            case "\\":
                guard i + 1 < chars.count else { throw fail(i + 1, "the expression ends with an escape character '\\'") }
                text.append(chars[i + 1])
                i += 2
                continue
            case "{":
                flushText()
                var name = ""
                var j = i + 1
                while j < chars.count, chars[j] != "}" {
                    if "{()/\\".contains(chars[j]) { throw fail(j + 1, "a parameter name may not contain '\(chars[j])'") }
                    name.append(chars[j]); j += 1
                }
                guard j < chars.count else { throw fail(i + 1, "'{' is not closed by '}'") }
                pieces.append(.parameter(name, i + 1))
                i = j + 1
                continue
            case "}": throw fail(i + 1, "'}' has no opening '{' (write '\\}' for the character)")
            case "(":
                flushText()
                var inner = ""
                var j = i + 1
                while j < chars.count, chars[j] != ")" {
                    if chars[j] == "\\", j + 1 < chars.count { inner.append(chars[j + 1]); j += 2; continue }
                    if chars[j] == "{" { throw fail(j + 1, "optional text may not contain a parameter") }
                    if chars[j] == "(" { throw fail(j + 1, "optional text may not be nested") }
                    if chars[j] == "/" { throw fail(j + 1, "optional text may not contain alternatives") }
                    inner.append(chars[j]); j += 1
                }
                guard j < chars.count else { throw fail(i + 1, "'(' is not closed by ')'") }
                guard !inner.isEmpty else { throw fail(i + 1, "optional text may not be empty") }
                pieces.append(.optional(inner))
                i = j + 1
                continue
            case ")": throw fail(i + 1, "')' has no opening '(' (write '\\)' for the character)")
            case "/":
                flushText()
                pieces.append(.slash(i + 1))
            case _ where c.isWhitespace:
                flushText()
                pieces.append(.space(String(c)))
            default:
                text.append(c)
            }
            i += 1
        }
        flushText()

        // Second pass: group runs between boundaries (whitespace, parameters, ends) that hold a `/`.
        var nodes: [Node] = []
        var run: [Piece] = []
        func flushRun() throws {
            defer { run = [] }
            guard run.contains(where: { if case .slash = $0 { return true }; return false }) else {
                for piece in run {
                    if case .text(let t) = piece { nodes.append(.text(t)) }
                    if case .optional(let t) = piece { nodes.append(.optional(t)) }
                }
                return
            }
            var alternatives: [[Node]] = [[]]
            for piece in run {
                switch piece {
                case .slash(let column):
                    if alternatives[alternatives.count - 1].isEmpty { throw fail(column, "an alternative may not be empty") }
                    alternatives.append([])
                case .text(let t): alternatives[alternatives.count - 1].append(.text(t))
                case .optional(let t): alternatives[alternatives.count - 1].append(.optional(t))
                default: break
                }
            }
            if alternatives.last!.isEmpty {
                if case .slash(let column) = run.last! { throw fail(column, "an alternative may not be empty") }
            }
            nodes.append(.alternation(alternatives))
        }
        for piece in pieces {
            switch piece {
            case .space(let s):
                try flushRun()
                nodes.append(.text(s))
            case .parameter(let name, let column):
                try flushRun()
                nodes.append(.parameter(name: name, column: column))
            default:
                run.append(piece)
            }
        }
        try flushRun()
        // Merge adjacent text nodes.
        var merged: [Node] = []
        for node in nodes {
            if case .text(let t) = node, case .text(let previous)? = merged.last {
                merged[merged.count - 1] = .text(previous + t)
            } else {
                merged.append(node)
            }
        }
        return merged
    }
}

/// Thrown by a step to fail it with a message (an assertion that did not hold).
public struct StepFailure: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Thrown by a step that is written but not implemented yet.
public struct StepPending: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String = "pending") { self.message = message }
    public var description: String { message }
}

/// Thrown by a step that cannot run because what it drives does not exist (a `kb` subcommand
/// missing from the binary under test): reported like an undefined step.
public struct StepUndefined: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
