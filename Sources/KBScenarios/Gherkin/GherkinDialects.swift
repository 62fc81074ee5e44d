import Foundation
import KBCore

/// A set of Gherkin dialects keyed by language code, with the code used when a
/// file has no `# language:` header.
public struct GherkinDialects: Sendable {
    public private(set) var dialects: [String: GherkinDialect]
    /// The language of files without a `# language:` header.
    public var defaultLanguage: String

    public init(_ dialects: [GherkinDialect], defaultLanguage: String = "en") {
        var table: [String: GherkinDialect] = [:]
        for dialect in dialects { table[dialect.code] = dialect }
        self.dialects = table
        self.defaultLanguage = defaultLanguage
    }

    /// The dialects compiled into the library: `en`, `zh-CN`, `zh-TW`, `ko`, `ja`.
    public static let builtIn: GherkinDialects = {
        var order: [String] = []
        var facts: [String: [String: [String]]] = [:]
        for row in GherkinDialectTable.rows {
            if facts[row.code] == nil { order.append(row.code) }
            facts[row.code, default: [:]][row.fact, default: []].append(row.value)
        }
        return GherkinDialects(order.map { code in
            dialect(code: code) { facts[code]?[$0] ?? [] }
        })
    }()

    /// The dialect for a language code, if known.
    public subscript(code: String) -> GherkinDialect? { dialects[code] }

    /// The known language codes, sorted.
    public var languages: [String] { dialects.keys.sorted() }

    /// Adds or replaces dialects.
    public mutating func merge(_ other: GherkinDialects) {
        dialects.merge(other.dialects) { _, new in new }
    }

    /// Loads a full dialect table from a JSON file in the format of cucumber's
    /// `gherkin-languages.json` (`{"en": {"feature": [...], ...}, ...}`).
    public static func load(jsonAt path: String) throws -> GherkinDialects {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw GherkinDialectsError.unreadable(path: path, reason: error.localizedDescription)
        }
        return try load(jsonData: data, source: path)
    }

    /// Loads a dialect table from JSON data; `source` names it in errors.
    public static func load(jsonData data: Data, source: String = "<data>") throws -> GherkinDialects {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw GherkinDialectsError.malformed(source: source, reason: "not JSON: \(error.localizedDescription)")
        }
        guard let table = object as? [String: Any] else {
            throw GherkinDialectsError.malformed(source: source, reason: "top level is not an object")
        }
        var dialects: [GherkinDialect] = []
        for (code, value) in table {
            guard let entry = value as? [String: Any] else {
                throw GherkinDialectsError.malformed(source: source, reason: "language \(code) is not an object")
            }
            var problem: String?
            let dialect = dialect(code: code) { fact in
                switch entry[fact] {
                case let list as [String]: return list
                case let single as String: return [single]
                case nil: return []
                default:
                    problem = "language \(code): \(fact) is not a list of strings"
                    return []
                }
            }
            if let problem { throw GherkinDialectsError.malformed(source: source, reason: problem) }
            dialects.append(dialect)
        }
        return GherkinDialects(dialects)
    }

    private static func dialect(code: String, _ facts: (String) -> [String]) -> GherkinDialect {
        GherkinDialect(
            code: code,
            name: facts("name").first ?? code,
            native: facts("native").first ?? code,
            feature: facts("feature"), background: facts("background"), rule: facts("rule"),
            scenario: facts("scenario"), scenarioOutline: facts("scenarioOutline"),
            examples: facts("examples"),
            given: facts("given"), when: facts("when"), then: facts("then"),
            and: facts("and"), but: facts("but")
        )
    }
}

/// Why a dialect table could not be loaded.
public enum GherkinDialectsError: Error, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case malformed(source: String, reason: String)

    public var description: String {
        switch self {
        case let .unreadable(path, reason): return "\(path): cannot read dialect table: \(reason)"
        case let .malformed(source, reason): return "\(source): bad dialect table: \(reason)"
        }
    }
}
