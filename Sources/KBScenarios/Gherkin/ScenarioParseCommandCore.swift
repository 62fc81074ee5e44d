import Foundation
import KBCore

/// What `kb scenario parse` prints and exits with.
public struct ScenarioParseCommandOutput: Hashable, Sendable {
    /// NDJSON lines for standard output: one `pickle` per pickle, or one
    /// `parseError` per syntax error.
    public var lines: [String]
    /// Messages for standard error (unreadable files, bad dialect tables).
    public var diagnostics: [String]
    /// 0 on success, 1 on parse errors, 2 when an input cannot be read.
    public var exitCode: Int32

    public init(lines: [String], diagnostics: [String] = [], exitCode: Int32) {
        self.lines = lines
        self.diagnostics = diagnostics
        self.exitCode = exitCode
    }
}

/// The work behind `kb scenario parse FILE [--dialects JSON]`: parse a feature
/// file, compile its pickles and render them as NDJSON.
public enum ScenarioParseCommandCore {
    /// Parses the feature file at `path`, with the built-in dialects or, when
    /// `dialectsPath` is given, the dialect table loaded from that JSON file.
    public static func run(path: String, dialectsPath: String? = nil) -> ScenarioParseCommandOutput {
        var dialects = GherkinDialects.builtIn
        if let dialectsPath {
            do {
                dialects = try GherkinDialects.load(jsonAt: dialectsPath)
            } catch {
                return ScenarioParseCommandOutput(lines: [], diagnostics: ["\(error)"], exitCode: 1)
            }
        }
        let source: String
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            source = String(decoding: data, as: UTF8.self)
        } catch {
            return ScenarioParseCommandOutput(
                lines: [], diagnostics: ["\(path): cannot read: \(error.localizedDescription)"], exitCode: 1
            )
        }
        return run(source: source, uri: path, dialects: dialects)
    }

    /// Parses `source` as the file `uri`.
    public static func run(source: String, uri: String, dialects: GherkinDialects = .builtIn) -> ScenarioParseCommandOutput {
        do {
            let document = try GherkinParser(dialects: dialects).parse(source: source, uri: uri)
            let pickles = PickleCompiler().compile(document)
            return ScenarioParseCommandOutput(lines: pickles.map(PickleJSON.line), exitCode: 0)
        } catch let failure as GherkinParseErrors {
            return ScenarioParseCommandOutput(
                lines: failure.errors.map(PickleJSON.line), diagnostics: failure.errors.map(\.description), exitCode: 1
            )
        } catch {
            return ScenarioParseCommandOutput(lines: [], diagnostics: ["\(uri): \(error)"], exitCode: 1)
        }
    }
}
