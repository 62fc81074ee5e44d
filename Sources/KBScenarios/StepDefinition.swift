import Foundation
import KBCore

/// What a step handler receives: the parameter values, and the step's doc string or table.
public struct StepArguments: Sendable {
    public let values: [any Sendable]
    public let docString: String?
    public let dataTable: [[String]]?
    /// The step text as written.
    public let text: String

    public init(values: [any Sendable], docString: String? = nil, dataTable: [[String]]? = nil, text: String = "") {
        self.values = values
        self.docString = docString
        self.dataTable = dataTable
        self.text = text
    }

    public func string(_ index: Int) throws -> String {
        guard index < values.count, let value = values[index] as? String else { throw StepFailure("argument \(index + 1) is not text") }
        return value
    }

    public func int(_ index: Int) throws -> Int {
        guard index < values.count, let value = values[index] as? Int else { throw StepFailure("argument \(index + 1) is not an integer") }
        return value
    }

    public func double(_ index: Int) throws -> Double {
        guard index < values.count else { throw StepFailure("argument \(index + 1) is missing") }
        if let value = values[index] as? Double { return value }
        if let value = values[index] as? Int { return Double(value) }
        throw StepFailure("argument \(index + 1) is not a number")
    }

    public func value<T>(_ index: Int, as type: T.Type) throws -> T {
        guard index < values.count, let value = values[index] as? T else { throw StepFailure("argument \(index + 1) is not a \(T.self)") }
        return value
    }

    /// The doc string; a step that needs one fails without it.
    public func requireDocString() throws -> String {
        guard let docString else { throw StepFailure("this step needs a doc string (\"\"\" … \"\"\") under it") }
        return docString
    }
}

/// One step definition: the same step in several languages (its phrases, Cucumber
/// Expressions) and the code that runs it against a world.
public struct StepDefinition<W: World>: Sendable {
    public typealias Handler = @Sendable (W, StepArguments) throws -> Void

    public let phrases: [String]
    public let handler: Handler
    /// Where the definition is written, for ambiguity messages.
    public let location: String

    public init(phrases: [String], file: String = #fileID, line: Int = #line, _ handler: @escaping Handler) {
        self.phrases = phrases
        self.handler = handler
        self.location = "\(file):\(line)"
    }
}

/// The outcome of looking a step up in a library.
public enum StepMatch<W: World> {
    case matched(StepDefinition<W>, [any Sendable])
    /// No definition matches; `snippet` is a definition to start from.
    case undefined(snippet: String)
    /// Several definitions match: their phrases that did.
    case ambiguous([String])
    /// The one definition matched but a parameter could not be converted.
    case invalidArgument(String)
}

/// The step definitions of a world, compiled once.
public struct StepLibrary<W: World>: Sendable {
    public let registry: ParameterTypeRegistry
    public let definitions: [StepDefinition<W>]
    let compiled: [[CucumberExpression]]

    public init(parameterTypes: [ParameterType] = [], definitions: [StepDefinition<W>]) throws {
        var registry = ParameterTypeRegistry()
        for type in parameterTypes { try registry.register(type) }
        self.registry = registry
        self.definitions = definitions
        compiled = try definitions.map { definition in
            try definition.phrases.map { try CucumberExpression($0, registry: registry) }
        }
    }

    /// Finds the definition for a step text: exactly one → matched, none → undefined, several → ambiguous.
    public func match(_ text: String) -> StepMatch<W> {
        let text = text.trimmingCharacters(in: .whitespaces)
        var hits: [(Int, String, Result<[any Sendable], any Error>)] = []
        for (index, expressions) in compiled.enumerated() {
            for expression in expressions {
                do {
                    if let values = try expression.match(text) {
                        hits.append((index, expression.source, .success(values)))
                        break
                    }
                } catch {
                    hits.append((index, expression.source, .failure(error)))
                    break
                }
            }
        }
        if hits.isEmpty { return .undefined(snippet: StepSnippet.make(for: text, worldName: String(describing: W.self))) }
        if hits.count > 1 {
            return .ambiguous(hits.map { "'\($0.1)' (\(definitions[$0.0].location))" })
        }
        switch hits[0].2 {
        case .success(let values): return .matched(definitions[hits[0].0], values)
        case .failure(let error): return .invalidArgument("\(error)")
        }
    }
}

/// Suggested step definitions for undefined steps: numbers become `{int}`/`{float}`, quoted
/// text (`"…"`, `'…'`, 「…」, “…”) becomes `{string}`, and Cucumber Expression metacharacters are escaped.
public enum StepSnippet {
    static let pattern = try! NSRegularExpression(pattern: "\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|「(?:[^「」]|「[^「」]*」)*」|“[^”]*”|(?<![A-Za-z0-9_])[-+]?[0-9]+\\.[0-9]+(?![A-Za-z0-9_])|(?<![A-Za-z0-9_.])[-+]?[0-9]+(?![A-Za-z0-9_.])")

    /// The expression for a step text.
    public static func expression(for text: String) -> String {
        let ns = text as NSString
        var result = ""
        var last = 0
        func escape(_ s: String) -> String {
            var out = ""
            for c in s {
                if "{}()/\\".contains(c) { out.append("\\") }
                out.append(c)
            }
            return out
        }
        for match in pattern.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
            result += escape(ns.substring(with: NSRange(location: last, length: match.range.location - last)))
            let token = ns.substring(with: match.range)
            if let first = token.first, "\"'「“".contains(first) {
                result += "{string}"
            } else if token.contains(".") {
                result += "{float}"
            } else {
                result += "{int}"
            }
            last = match.range.location + match.range.length
        }
        result += escape(ns.substring(from: last))
        return result
    }

    /// A definition to paste into the world's step library.
    public static func make(for text: String, worldName: String) -> String {
        let phrase = expression(for: text).replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return """
        StepDefinition<\(worldName)>(phrases: ["\(phrase)"]) { world, arguments in
            throw StepPending()
        }
        """
    }
}
