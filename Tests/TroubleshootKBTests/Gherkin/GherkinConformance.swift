import Foundation
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

/// Runs feature files against cucumber's expected NDJSON output, read in place.
///
/// The cucumber/gherkin testdata lives outside the repository, in
/// `shared/conformance/gherkin` beside the checkout (or where
/// `GHERKIN_CONFORMANCE_DIR` points); the project's own fixtures live in
/// `Fixtures/` next to this file.
enum GherkinConformance {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static let fixturesDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures").path

    /// The conformance directory, if present on this machine.
    static let directory: String? = {
        var candidates: [String] = []
        if let env = ProcessInfo.processInfo.environment["GHERKIN_CONFORMANCE_DIR"] { candidates.append(env) }
        candidates.append(packageRoot.deletingLastPathComponent().appendingPathComponent("shared/conformance/gherkin").path)
        candidates.append(packageRoot.appendingPathComponent("shared/conformance/gherkin").path)
        candidates.append("/work/shared/conformance/gherkin")
        return candidates.first { FileManager.default.fileExists(atPath: $0 + "/good") }
    }()

    static var isAvailable: Bool { directory != nil }

    static let skipReason = "needs the Gherkin conformance data: no shared/conformance/gherkin beside the checkout "
        + "(set GHERKIN_CONFORMANCE_DIR to cucumber/gherkin's testdata to run it)"

    static func featureFiles(in directory: String?) -> [String] {
        guard let directory,
              let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        return names.filter { $0.hasSuffix(".feature") }.sorted()
    }

    static var goodFiles: [String] { featureFiles(in: directory.map { $0 + "/good" }) }
    static var badFiles: [String] { featureFiles(in: directory.map { $0 + "/bad" }) }
    static var fixtureFiles: [String] { featureFiles(in: fixturesDirectory) }

    /// The full dialect table from the official JSON, loaded once.
    static let fullDialects: Result<GherkinDialects, any Error> = Result {
        guard let directory else { return GherkinDialects.builtIn }
        var dialects = GherkinDialects.builtIn
        dialects.merge(try GherkinDialects.load(jsonAt: directory + "/gherkin-languages.json"))
        return dialects
    }

    /// A mismatch between what the parser produced and what was expected, or nil.
    static func checkGood(
        directory: String, name: String, dialects: GherkinDialects, ignoring: Set<String> = ignoredKeys
    ) -> String? {
        let path = directory + "/" + name
        guard let source = try? String(contentsOfFile: path, encoding: .utf8),
              let expectedText = try? String(contentsOfFile: path + ".pickles.ndjson", encoding: .utf8)
        else { return "\(name): cannot read the feature or its .pickles.ndjson" }
        let actual: [String]
        do {
            let document = try GherkinParser(dialects: dialects).parse(source: source, uri: path)
            actual = PickleCompiler().compile(document).map { normalized(PickleJSON.object($0), ignoring: ignoring) }
        } catch {
            return "\(name): unexpected parse failure:\n\(error)"
        }
        let expected = expectedText.split(whereSeparator: \.isNewline).compactMap { line -> String? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) else { return nil }
            return normalized(object, ignoring: ignoring)
        }
        if actual == expected { return nil }
        var report = "\(name): \(actual.count) pickles, expected \(expected.count)"
        for (index, pair) in zip(actual, expected).enumerated() where pair.0 != pair.1 {
            report += "\n  pickle \(index + 1):\n    got      \(pair.0)\n    expected \(pair.1)"
        }
        return report
    }

    /// Checks that a bad file fails with exactly the expected errors.
    static func checkBad(directory: String, name: String, dialects: GherkinDialects) -> String? {
        let path = directory + "/" + name
        guard let source = try? String(contentsOfFile: path, encoding: .utf8),
              let expectedText = try? String(contentsOfFile: path + ".errors.ndjson", encoding: .utf8)
        else { return "\(name): cannot read the feature or its .errors.ndjson" }
        let expected: [String] = expectedText.split(whereSeparator: \.isNewline).compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let error = object["parseError"] as? [String: Any],
                  let source = error["source"] as? [String: Any],
                  let location = source["location"] as? [String: Any],
                  let message = error["message"] as? String
            else { return nil }
            return "\(location["line"] as? Int ?? 0):\((location["column"] as? Int) ?? 0) \(message)"
        }
        do {
            _ = try GherkinParser(dialects: dialects).parse(source: source, uri: path)
            return "\(name): parsed without errors, expected \(expected.count)"
        } catch let failure as GherkinParseErrors {
            let actual = failure.errors.map { "\($0.line):\($0.column) \($0.message)" }
            if actual == expected { return nil }
            return "\(name):\n  got      \(actual)\n  expected \(expected)"
        } catch {
            return "\(name): unexpected error \(error)"
        }
    }

    /// JSON with ids and uris removed (they depend on the producer), keys sorted.
    static func normalized(_ object: Any, ignoring: Set<String> = ignoredKeys) -> String {
        PickleJSON.serialize(stripping(ignoring, from: object))
    }

    static let ignoredKeys: Set<String> = ["id", "uri", "astNodeIds", "astNodeId"]

    static func stripping(_ keys: Set<String>, from object: Any) -> Any {
        switch object {
        case let dictionary as [String: Any]:
            var result: [String: Any] = [:]
            for (key, value) in dictionary where !keys.contains(key) {
                result[key] = stripping(keys, from: value)
            }
            return result
        case let array as [Any]:
            return array.map { stripping(keys, from: $0) }
        default:
            return object
        }
    }
}
