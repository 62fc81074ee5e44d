import Foundation
import Dispatch

/// Checks entries against the format's rules. Each rule has an id shown in brackets.
public struct Linter: Sendable {
    /// Entry files over this size are errors (`file-too-large`).
    public static let maximumEntrySize = 1 << 20

    /// Rules the layers above add to each entry's own (the scenario layer's `ScenarioLinkRule`;
    /// `Linter.standard` there is every rule `kb lint` runs).
    public let entryRules: [any EntryLintRule]

    /// A linter with the core rules and `entryRules`.
    public init(entryRules: [any EntryLintRule] = []) {
        self.entryRules = entryRules
    }

    /// What linting one file found, and the id it claims (for the cross-entry duplicate-id rule).
    struct FileOutcome {
        var diagnostics: [Diagnostic]
        var id: String?
        var path: String
        var idLocation: SourceLocation?
    }

    /// Lints parsed files on all cores: the per-file rules of each, then the cross-entry ones
    /// (`combine`). `knownIDs` are the ids `related` may name (all entries of the entries folders
    /// involved). `progress(done, total)` is called as files are linted.
    public func lint(_ items: [KnowledgeBase.Item], locatorDiagnostics: [Diagnostic] = [], knownIDs: Set<String>,
                     progress: @Sendable (Int, Int) -> Void = { _, _ in }) -> [Diagnostic] {
        let count = items.count
        let counter = Counter()
        let outcomes = Parallel.map(count) { index in
            defer { progress(counter.increment(), count) }
            return lint(items[index], knownIDs: knownIDs)
        }
        return Self.combine(outcomes, locatorDiagnostics: locatorDiagnostics)
    }

    /// The per-file rules: what parsing found, the size limit, and the entry's own rules.
    func lint(_ item: KnowledgeBase.Item, knownIDs: Set<String>) -> FileOutcome {
        var diagnostics = item.diagnostics
        if item.size > Self.maximumEntrySize && item.entry != nil {
            diagnostics.append(Diagnostic(path: item.location.displayPath, location: nil, severity: .error,
                                          message: "the file is \(item.size) bytes; entries must be at most 1 MiB", rule: .fileTooLarge))
        }
        if let entry = item.entry { diagnostics += lint(entry, location: item.location, knownIDs: knownIDs) }
        return FileOutcome(diagnostics: diagnostics, id: item.entry?.id, path: item.location.displayPath,
                           idLocation: item.entry?.metadata.locations["id"])
    }

    /// All diagnostics in order, plus the cross-entry rule: an id used by two files (the one
    /// place that rule is written; every load and the incremental build come here).
    static func combine(_ outcomes: [FileOutcome], locatorDiagnostics: [Diagnostic]) -> [Diagnostic] {
        var diagnostics = locatorDiagnostics
        var firstPathForID: [String: String] = [:]
        for outcome in outcomes {
            diagnostics += outcome.diagnostics
            guard let id = outcome.id else { continue }
            if let other = firstPathForID[id] {
                diagnostics.append(Diagnostic(path: outcome.path, location: outcome.idLocation, severity: .error,
                                              message: "id '\(id)' is also used by \(other)", rule: .duplicateID))
            } else {
                firstPathForID[id] = outcome.path
            }
        }
        return sorted(diagnostics)
    }

    package static func sorted(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        // Diagnostics gathered entry by entry mostly come in order already (the sort is stable:
        // in-order diagnostics stay as they are).
        if diagnostics.indices.dropFirst().allSatisfy({ !precedes(diagnostics[$0], diagnostics[$0 - 1]) }) { return diagnostics }
        return diagnostics.sorted(by: precedes)
    }

    /// The order of `sorted`: by path, then by line and column (none first).
    package static func precedes(_ a: Diagnostic, _ b: Diagnostic) -> Bool {
        if a.path != b.path { return a.path < b.path }
        return (a.location ?? .init(line: 0, column: 0)) < (b.location ?? .init(line: 0, column: 0))
    }

    /// Lints one parsed entry.
    public func lint(_ entry: Entry, location: EntryLocation?, knownIDs: Set<String>) -> [Diagnostic] {
        var out: [Diagnostic] = []
        let path = entry.path
        let meta = entry.metadata
        let top = SourceLocation(line: 1, column: 1)
        func report(_ at: SourceLocation?, _ message: String, _ rule: LintRule) {
            out.append(Diagnostic(path: path, location: at, message: message, rule: rule))
        }
        let hasFrontMatter = !meta.locations.isEmpty
        if hasFrontMatter {
            for key in ["id", "title", "lang", "summary", "status", "updated"] where meta.locations[key] == nil {
                report(top, "missing required key '\(key)'", .missingKey)
            }
        }
        if meta.locations["id"] != nil {
            if !Self.isWellFormedID(meta.id) {
                report(meta.locations["id"], "id '\(meta.id)' must match [a-z0-9]+(-[a-z0-9]+)*", .invalidID)
            } else if meta.id != entry.folderName {
                report(meta.locations["id"], "id '\(meta.id)' does not match its folder name '\(entry.folderName)'", .idMismatch)
            }
        }
        if let at = meta.locations["lang"], !EntryMetadata.knownLanguages.contains(meta.lang) {
            report(at, "lang '\(meta.lang)' is not one of \(EntryMetadata.knownLanguages.joined(separator: ", "))", .invalidLang)
        }
        if hasFrontMatter && meta.symptoms.filter({ !$0.trimmingSpaces().isEmpty }).isEmpty {
            report(meta.locations["symptoms"] ?? top, "at least one symptom is required: how would someone search for this problem?", .noSymptoms)
        }
        if let at = meta.locations["updated"], !Self.isDayDate(meta.updated) {
            report(at, "updated '\(meta.updated)' must be a date written YYYY-MM-DD", .invalidDate)
        }
        if meta.status == .resolved {
            if entry.attempts.isEmpty {
                report(meta.locations["status"], "a resolved entry needs its attempts (headings like '方案 1', '시도 1', '試行 1', 'Attempt 1')", .resolvedWithoutAttempts)
            }
            if entry.fix == nil {
                report(meta.locations["status"], "a resolved entry needs a fix section (最终方案 / 해결 방법 / 解決策 / Fix)", .resolvedWithoutFix)
            }
        }
        var seenNumbers: [AttemptNumber: SourceLocation] = [:]
        for attempt in entry.attempts {
            if let first = seenNumbers[attempt.number] {
                report(attempt.headingRange.start, "attempt \(attempt.number) is numbered twice (first at line \(first.line))", .duplicateAttempt)
            } else {
                seenNumbers[attempt.number] = attempt.headingRange.start
            }
            if attempt.outcome == .unknown {
                let hasResult = attempt.parts.contains { $0.role == .result }
                report(attempt.headingRange.start,
                       hasResult ? "attempt \(attempt.number): the result does not start with an outcome word (失败/실패/失敗/failed, 部分/부분/部分的/partial, 成功/성공/worked, 放弃/기각/却下/rejected)"
                                 : "attempt \(attempt.number) has no result label (结果：/결과:/結果：/Result:) with an outcome",
                       .unknownOutcome)
            }
        }
        for (index, related) in meta.related.enumerated() where !knownIDs.contains(related) {
            let at = meta.itemLocations["related"].flatMap { index < $0.count ? $0[index] : nil } ?? meta.locations["related"]
            report(at, "related entry '\(related)' does not exist", .unknownRelated)
        }
        if let scenario = meta.scenario, let location {
            let folder = PathText.folder(of: location.file)
            let target = ((folder as NSString).appendingPathComponent(scenario) as NSString).standardizingPath
            if scenario.hasPrefix("/") || !target.hasPrefix(folder + "/") {
                report(meta.locations["scenario"], "scenario path '\(scenario)' leaves the entry folder", .pathOutside)
            } else if FileManager.default.fileExists(atPath: target), let escape = EntryLocator.escapes(file: target, root: folder) {
                report(meta.locations["scenario"], "scenario path '\(scenario)' is a symbolic link out of the entry folder (\(escape)); not read", .pathOutside)
            } else if !FileManager.default.fileExists(atPath: target) {
                report(meta.locations["scenario"], "scenario file '\(scenario)' does not exist", .missingScenario)
            }
        }
        if let location { for rule in entryRules { out += rule.check(entry, location: location) } }
        out += CJKEmphasisRule.check(entry)
        out += ImportTodoRule.check(entry)
        return out
    }

    /// Whether `id` is an entry id: lower-case ASCII letters and digits in groups joined by single
    /// hyphens (`[a-z0-9]+(-[a-z0-9]+)*`, as in `nav-bar-shadow-ios17`).
    package static func isWellFormedID(_ id: String) -> Bool {
        let hyphen = UInt8(ascii: "-")
        var previous = hyphen // (an id may not start with one)
        for byte in id.utf8 {
            if byte == hyphen {
                guard previous != hyphen else { return false }
            } else {
                guard (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return false }
            }
            previous = byte
        }
        return previous != hyphen // (nor end with one, nor be empty)
    }

    /// Whether `text` is a date written `YYYY-MM-DD` (digits and hyphens in those places).
    static func isDayDate(_ text: String) -> Bool {
        text.utf8.count == 10 && text.utf8.enumerated().allSatisfy { k, byte in
            k == 4 || k == 7 ? byte == UInt8(ascii: "-") : (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }
}

/// `TODO(kb-import): …` comments that `kb import` leaves where it was unsure, and
/// `TODO(kb-new): …` comments of a `kb new` draft on each part still to write.
enum ImportTodoRule {
    struct Marker {
        let text: String
        let bytes: [UInt8]
        let rule: LintRule
        let prefix: String
    }

    static let markers = [
        Marker(text: "TODO(kb-import)", bytes: Array("TODO(kb-import)".utf8), rule: .importTodo, prefix: "import left a question: "),
        Marker(text: DraftTemplate.marker, bytes: Array(DraftTemplate.marker.utf8), rule: .draftTodo, prefix: "still to write: "),
    ]

    static func check(_ entry: Entry) -> [Diagnostic] {
        var out: [Diagnostic] = []
        for marker in markers {
            // Most entries have no marker: one byte scan decides.
            guard let first = ByteSearch.firstIndex(of: marker.bytes, in: entry.source.bytes) else { continue }
            let firstLine = entry.source.location(ofByteOffset: first).line
            for line in firstLine...max(firstLine, entry.source.lineCount) {
                let text = entry.source.lineString(line)
                guard let range = text.range(of: marker.text) else { continue }
                let column = text[..<range.lowerBound].unicodeScalars.count + 1
                let message = text[range.upperBound...].drop { $0 == ":" || $0 == " " }.replacingOccurrences(of: "-->", with: "").trimmingSpaces()
                out.append(Diagnostic(path: entry.path, location: .init(line: line, column: column),
                                      message: marker.prefix + message, rule: marker.rule))
            }
        }
        return out.sorted { ($0.location?.line ?? 0, $0.location?.column ?? 0) < ($1.location?.line ?? 0, $1.location?.column ?? 0) }
    }
}
