import Foundation
import KBCore

/// The entry's scenario file: it parses, its record tags name records of the entry, its steps
/// are defined, and (when there is one) every attempt has a scenario.
public struct ScenarioLinkRule: EntryLintRule {
    /// The worlds a scenario may name (`@world:<name>`), whose steps must match.
    public let worlds: [WorldType]

    public init(worlds: [WorldType] = ScenarioWorlds.all) {
        self.worlds = worlds
    }

    public func check(_ entry: Entry, location: EntryLocation) -> [Diagnostic] {
        guard let file = EntryScenarioFile.load(entry: entry, location: location) else { return [] }
        if let readError = file.readError {
            // A declared path that is missing or leaves the folder is reported by the `scenario`
            // key's own rules; anything else (a symbolic link out of the folder, an unreadable or
            // oversized file) is reported here.
            let declared = entry.metadata.scenario.map { !$0.isEmpty } ?? false
            let outside = EntryScenarioFile.locate(entry: entry, location: location)?.outside ?? false
            if declared && (outside || !FileManager.default.fileExists(atPath: file.path)) { return [] }
            return [Diagnostic(path: file.displayPath, location: nil, message: readError,
                               rule: outside ? .pathOutside : .scenarioUnreadable)]
        }
        var out: [Diagnostic] = []
        for error in file.errors {
            out.append(Diagnostic(path: file.displayPath, location: .init(line: error.line, column: max(1, error.column)), severity: .error,
                                  message: "the scenario file does not parse: \(error.reason)", rule: .scenarioParseError))
        }
        guard let document = file.document else { return out }
        let records = RecordAnchor.records(of: entry)
        let anchors = Set(records)
        var linked: Set<RecordAnchor> = []
        for tag in file.tags {
            guard let reading = RecordAnchor.reading(tag: tag.name) else { continue }
            if case .record(let anchor) = reading, anchors.contains(anchor) {
                linked.insert(anchor)
            } else {
                let known = records.map(\.tag)
                let what = reading == .record(.fix) ? "the entry has no fix section" : "no attempt of the entry has that number"
                out.append(Diagnostic(path: file.displayPath, location: tag.location, severity: .error,
                                      message: "tag \(tag.name) links to no record: \(what) (records: \(known.isEmpty ? "none" : known.joined(separator: ", ")))",
                                      rule: .unknownRecordTag))
            }
        }
        let pickles = PickleCompiler().compile(document)
        var seenSteps: Set<String> = []
        let stepInfo = ScenarioRunner.stepInfo(document)
        for pickle in pickles {
            let worldName = ScenarioWorlds.name(for: pickle.tags.map(\.name))
            guard let world = worlds.first(where: { $0.name == worldName }) else {
                out.append(Diagnostic(path: file.displayPath, location: pickle.location, severity: .error,
                                      message: "no world named '\(worldName)' (known: \(worlds.map(\.name).joined(separator: ", ")))",
                                      rule: .unknownWorld))
                continue
            }
            for step in pickle.steps where seenSteps.insert(step.astNodeIds.first ?? step.id).inserted {
                let where_ = stepInfo[step.astNodeIds.first ?? ""].map { SourceLocation(line: $0.line, column: $0.column) }
                switch world.match(step.text) {
                case .matched, .invalidArgument: break
                case .undefined:
                    out.append(Diagnostic(path: file.displayPath, location: where_, severity: .error,
                                          message: "no \(worldName) step matches '\(step.text)' (see docs/scenario-language.md)", rule: .undefinedStep))
                case .ambiguous(let phrases):
                    out.append(Diagnostic(path: file.displayPath, location: where_, severity: .error,
                                          message: "several steps match '\(step.text)': \(phrases.joined(separator: ", "))", rule: .ambiguousStep))
                }
            }
        }
        for attempt in entry.attempts where !linked.contains(attempt.anchor) {
            out.append(Diagnostic(path: entry.path, location: attempt.headingRange.start, severity: .warning,
                                  message: "attempt \(attempt.number) has no scenario in \(file.displayPath) (tag one with \(attempt.anchor.tag))",
                                  rule: .attemptWithoutScenario))
        }
        return out
    }
}

extension Linter {
    /// Every rule `kb lint` runs: the core rules and the scenario layer's `ScenarioLinkRule`.
    /// The commands, the site build and the search index's lint gate use it.
    public static var standard: Linter { Linter(entryRules: [ScenarioLinkRule()]) }
}
