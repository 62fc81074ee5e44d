import Foundation
import Dispatch
import KBCore

/// An entry's scenario file, parsed, with the records its scenarios are linked to.
public struct EntryScenarioFile: Sendable {
    /// Absolute path.
    public let path: String
    /// Path for messages.
    public let displayPath: String
    public let document: GherkinDocument?
    public let errors: [GherkinError]
    /// Problem reading the file (missing, outside the entry folder, unreadable).
    public let readError: String?

    /// Where the scenario file of an entry is: the `scenario` front-matter key, else
    /// `scenario.feature` when it exists. Nil when the entry has none.
    public static func locate(entry: Entry?, location: EntryLocation) -> (path: String, displayPath: String, outside: Bool)? {
        let folder = PathText.folder(of: location.file)
        let name: String
        if let declared = entry?.metadata.scenario, !declared.isEmpty {
            name = declared
        } else {
            // Most entries have none: one `stat` (what `fileExists` does, without Foundation's path handling).
            var info = stat()
            guard stat(folder + "/scenario.feature", &info) == 0 else { return nil }
            name = "scenario.feature"
        }
        let target = ((folder as NSString).appendingPathComponent(name) as NSString).standardizingPath
        // Outside by its path, or through a symbolic link (the file or a folder on the way).
        let outside = name.hasPrefix("/") || !target.hasPrefix(folder + "/")
            || (FileManager.default.fileExists(atPath: target) && EntryLocator.escapes(file: target, root: folder) != nil)
        let displayFolder = PathText.folder(of: location.displayPath)
        let display = displayFolder.isEmpty ? name : (displayFolder as NSString).appendingPathComponent(name)
        return (target, display, outside)
    }

    public static func load(entry: Entry?, location: EntryLocation, dialects: GherkinDialects = .builtIn) -> EntryScenarioFile? {
        guard let (path, display, outside) = locate(entry: entry, location: location) else { return nil }
        if outside {
            return EntryScenarioFile(path: path, displayPath: display, document: nil, errors: [], readError: "scenario path leaves the entry folder")
        }
        let data: Data
        switch LimitedFileRead.read(path, limit: Linter.maximumEntrySize) {
        case .success(let read): data = read
        case .failure(let failure):
            return EntryScenarioFile(path: path, displayPath: display, document: nil, errors: [],
                                     readError: "scenario file \(display): \(FileManager.default.fileExists(atPath: path) ? failure.message : "does not exist")")
        }
        let source = String(decoding: data, as: UTF8.self)
        do {
            let document = try GherkinParser(dialects: dialects).parse(source: source, uri: display)
            return EntryScenarioFile(path: path, displayPath: display, document: document, errors: [], readError: nil)
        } catch let failure as GherkinParseErrors {
            return EntryScenarioFile(path: path, displayPath: display, document: nil, errors: failure.errors, readError: nil)
        } catch {
            return EntryScenarioFile(path: path, displayPath: display, document: nil, errors: [], readError: "\(display): \(error)")
        }
    }

    /// Every tag written in the file, with where it is.
    public var tags: [Gherkin.Tag] {
        guard let feature = document?.feature else { return [] }
        var tags = feature.tags
        func scenario(_ s: Gherkin.Scenario) {
            tags += s.tags
            for examples in s.examples { tags += examples.tags }
        }
        for child in feature.children {
            switch child {
            case .background: break
            case .scenario(let s): scenario(s)
            case .rule(let rule):
                tags += rule.tags
                for child in rule.children { if case .scenario(let s) = child { scenario(s) } }
            }
        }
        return tags
    }
}

/// Runs the scenarios of entries and decides a verdict per record and per entry.
public struct EntryChecker: Sendable {
    public var settings: WorldSettings
    public var dialects: GherkinDialects
    public var parser: EntryParser

    public init(settings: WorldSettings, dialects: GherkinDialects = .builtIn, parser: EntryParser = EntryParser()) {
        self.settings = settings
        self.dialects = dialects
        self.parser = parser
    }

    /// Whether an entry has a scenario file (without parsing it).
    public static func hasScenario(_ location: EntryLocation, entry: Entry?) -> Bool {
        EntryScenarioFile.locate(entry: entry, location: location) != nil
    }

    /// Checks entries, `jobs` at a time; results are in the order of `items`. `progress` is
    /// called (from any thread, serialised) as each entry finishes.
    public func check(_ items: [KnowledgeBase.Item], jobs: Int = 1,
                      progress: (@Sendable (Int, EntryCheck) -> Void)? = nil) -> [EntryCheck] {
        let count = items.count
        guard count > 0 else { return [] }
        return Parallel.map(count, workers: jobs, { check(items[$0]) }, finished: { finished, result in progress?(finished, result) })
    }

    /// Checks one entry.
    public func check(_ item: KnowledgeBase.Item) -> EntryCheck {
        let id = item.entry?.id ?? item.location.folderName
        func done(_ verdict: CheckVerdict, _ reason: String?, _ file: String?, _ attempts: [AttemptCheck] = []) -> EntryCheck {
            EntryCheck(id: id, verdict: verdict, reason: reason, checkedAt: CheckReport.timestamp(), scenarioFile: file, attempts: attempts)
        }
        guard let entry = item.entry else {
            let message = item.diagnostics.first?.formatted ?? "the entry cannot be read"
            return done(.broken, message, nil)
        }
        guard let file = EntryScenarioFile.load(entry: entry, location: item.location, dialects: dialects) else {
            return done(.skipped, "the entry has no scenario file", nil)
        }
        if let readError = file.readError { return done(.broken, readError, file.displayPath) }
        if let first = file.errors.first {
            let more = file.errors.count > 1 ? " (and \(file.errors.count - 1) more)" : ""
            return done(.broken, "parse error: \(first.description)\(more)", file.displayPath)
        }
        guard let document = file.document else { return done(.broken, "the scenario file is empty", file.displayPath) }
        let pickles = PickleCompiler().compile(document)
        guard !pickles.isEmpty else { return done(.broken, "\(file.displayPath) has no scenarios", file.displayPath) }
        let info = ScenarioRunner.stepInfo(document)
        let anchors = Set(RecordAnchor.records(of: entry))
        var settings = self.settings
        settings.entryDirectory = PathText.folder(of: item.location.file)

        var attempts: [AttemptCheck] = []
        for pickle in pickles {
            let tags = pickle.tags.map(\.name)
            let links = tags.compactMap(RecordAnchor.reading(tag:))
            let worldName = ScenarioWorlds.name(for: tags)
            var verdict: CheckVerdict
            var message: String?
            var steps: [StepReport] = []
            var rules: [String] = []
            var trace: [String] = []
            if pickle.steps.isEmpty {
                verdict = .broken
                message = "the scenario has no steps, so it checks nothing"
            } else if let world = ScenarioWorlds.named(worldName) {
                let result = world.run(pickle, stepInfo: info, settings: settings)
                steps = result.steps
                rules = result.rules
                trace = result.trace
                (verdict, message) = Self.verdict(for: result)
            } else {
                verdict = .broken
                message = "no world named '\(worldName)' (known: \(ScenarioWorlds.all.map(\.name).joined(separator: ", ")))"
                steps = pickle.steps.map { StepReport(keyword: nil, text: $0.text, status: .skipped, message: nil, line: nil) }
            }
            // A scenario of no record is reported once, without an anchor.
            let targets: [RecordAnchor.TagReading?] = links.isEmpty ? [nil] : links
            for target in targets {
                var recordVerdict = verdict
                var recordMessage = message
                // The report names the record by its fragment, or an unreadable tag as written.
                let anchor: String?
                let namesRecord: Bool
                switch target {
                case nil: (anchor, namesRecord) = (nil, true)
                case .record(let record)?: (anchor, namesRecord) = (record.fragment, anchors.contains(record))
                case .unreadable(let text)?: (anchor, namesRecord) = (text, false)
                }
                if !namesRecord, let anchor {
                    recordVerdict = .broken
                    recordMessage = "tag @\(anchor) names no record of the entry (it has \(anchors.map(\.fragment).sorted().joined(separator: ", ")))"
                }
                attempts.append(AttemptCheck(anchor: anchor, scenario: pickle.name, verdict: recordVerdict, message: recordMessage,
                                             line: pickle.location.line, steps: steps, rules: rules,
                                             trace: trace.isEmpty ? nil : trace))
            }
        }
        let (verdict, reason) = Self.entryVerdict(attempts)
        return done(verdict, reason, file.displayPath, attempts)
    }

    /// A scenario's verdict: passed → reproduces, failed → stale, undefined/ambiguous/pending →
    /// broken, skipped for a missing requirement → skipped.
    static func verdict(for result: ScenarioResult) -> (CheckVerdict, String?) {
        if result.hasDefinitionProblem {
            let problems = result.steps.filter { $0.status == .undefined || $0.status == .ambiguous }
            let first = problems[0]
            let what = first.message.map { $0.hasPrefix("no step definition") ? "undefined step '\(first.text)'" : $0 } ?? first.status.rawValue
            return (.broken, what + (problems.count > 1 ? " (and \(problems.count - 1) more undefined or ambiguous steps)" : ""))
        }
        switch result.status {
        case .passed: return (.reproduces, nil)
        case .failed: return (.stale, result.message)
        case .skipped: return (.skipped, result.message)
        case .pending: return (.broken, "pending step: \(result.message ?? "")")
        case .undefined, .ambiguous: return (.broken, result.message)
        }
    }

    /// The entry's verdict from its records': broken before stale before skipped before reproduces.
    static func entryVerdict(_ attempts: [AttemptCheck]) -> (CheckVerdict, String?) {
        func label(_ a: AttemptCheck) -> String { a.anchor ?? "scenario '\(a.scenario)'" }
        func firstLine(_ text: String?) -> String { text?.split(separator: "\n").first.map(String.init) ?? "" }
        for verdict in [CheckVerdict.broken, .stale, .skipped] {
            let matching = attempts.filter { $0.verdict == verdict }
            guard let first = matching.first else { continue }
            let names = matching.map(label)
            var unique: [String] = []
            for name in names where !unique.contains(name) { unique.append(name) }
            switch verdict {
            case .stale:
                return (.stale, "\(unique.joined(separator: ", ")) no longer \(unique.count == 1 ? "reproduces" : "reproduce"): \(firstLine(first.message))")
            case .broken:
                return (.broken, "\(unique.joined(separator: ", ")): \(firstLine(first.message))")
            default:
                return (.skipped, firstLine(first.message))
            }
        }
        return (.reproduces, nil)
    }
}
