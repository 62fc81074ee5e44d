import Foundation
import KBCore

/// The verdict on an entry, or on one of its records (an attempt or the fix): what `kb check`
/// writes into its report and what the site reads back from it (one type for both).
public enum CheckVerdict: String, Sendable, Codable, CaseIterable {
    /// Every linked scenario passed: the records still describe what happens.
    case reproduces
    /// A linked scenario failed: what the record says no longer happens.
    case stale
    /// The check itself is wrong: undefined or ambiguous steps, a parse error, a pending step.
    case broken
    /// A requirement (a program) is missing here; the reason says which.
    case skipped

    /// The spellings of the site's first check-report format (`pass`, `fail`, `error`, `skip`;
    /// docs/site.md), still read as the verdicts they meant. Never written.
    public static let olderSpellings: [String: CheckVerdict] = ["pass": .reproduces, "fail": .stale, "error": .broken, "skip": .skipped]

    /// Reads a verdict as `kb check` writes it (`reproduces`, `stale`, `broken`, `skipped`) or in
    /// an older spelling; anything else is an error.
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let verdict = CheckVerdict(rawValue: text) ?? Self.olderSpellings[text] else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "unknown verdict '\(text)' (kb check writes \(Self.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        self = verdict
    }

    /// How bad the verdict is, for the worst of several: reproduces, skipped, stale, broken.
    public var severity: Int {
        switch self {
        case .reproduces: 0
        case .skipped: 1
        case .stale: 2
        case .broken: 3
        }
    }

    /// Whether `kb check` may exit 0 with this verdict.
    public var isAcceptable: Bool { self == .reproduces || self == .skipped }

    /// The mark in the summary table.
    public var mark: String {
        switch self {
        case .reproduces: return "✓"
        case .stale: return "✗"
        case .broken: return "!"
        case .skipped: return "-"
        }
    }
}

/// One step as it ran.
public struct StepReport: Sendable, Codable, Equatable {
    /// The keyword as written (`前提`, `Given`), without trailing space.
    public var keyword: String?
    public var text: String
    public var status: StepStatus
    public var message: String?
    /// The step's line in the scenario file.
    public var line: Int?

    public init(keyword: String?, text: String, status: StepStatus, message: String?, line: Int?) {
        self.keyword = keyword
        self.text = text
        self.status = status
        self.message = message
        self.line = line
    }
}

/// One scenario linked to a record of the entry (`@attempt-2`, `@fix`).
public struct AttemptCheck: Sendable, Codable, Equatable {
    /// `attempt-2`, `attempt-4-1`, `fix`; nil for a scenario without a record tag.
    public var anchor: String?
    /// The scenario's name.
    public var scenario: String
    public var verdict: CheckVerdict
    public var message: String?
    /// The scenario's line in the scenario file.
    public var line: Int?
    public var steps: [StepReport]
    /// Ids of model rules the scenario exercised; empty for the shell world.
    public var rules: [String]
    /// The model's decisions in order, one line per rule consultation (`NB-4: …`); absent for the
    /// shell world.
    public var trace: [String]?

    public init(anchor: String?, scenario: String, verdict: CheckVerdict, message: String?, line: Int?, steps: [StepReport], rules: [String],
                trace: [String]? = nil) {
        self.anchor = anchor
        self.scenario = scenario
        self.verdict = verdict
        self.message = message
        self.line = line
        self.steps = steps
        self.rules = rules
        self.trace = trace
    }
}

/// The verdict on one entry, with each linked scenario.
public struct EntryCheck: Sendable, Codable, Equatable {
    public var id: String
    public var verdict: CheckVerdict
    public var reason: String?
    public var checkedAt: String
    /// The scenario file, relative to the working directory when inside it.
    public var scenarioFile: String?
    public var attempts: [AttemptCheck]

    public init(id: String, verdict: CheckVerdict, reason: String?, checkedAt: String, scenarioFile: String?, attempts: [AttemptCheck]) {
        self.id = id
        self.verdict = verdict
        self.reason = reason
        self.checkedAt = checkedAt
        self.scenarioFile = scenarioFile
        self.attempts = attempts
    }
}

/// `.kb/check-report.json`: what `kb check` found, read by the site for entry pages.
/// Documented in docs/scenario-language.md; bump `schemaVersion` on incompatible changes.
public struct CheckReport: Sendable, Codable, Equatable {
    public static let currentSchemaVersion = 1

    public var schemaVersion: Int
    public var checkedAt: String
    public var entries: [EntryCheck]

    public init(checkedAt: String, entries: [EntryCheck]) {
        self.schemaVersion = Self.currentSchemaVersion
        self.checkedAt = checkedAt
        self.entries = entries
    }

    /// Whether `kb check` exits 0: every entry reproduces or is skipped.
    public var isSuccess: Bool { entries.allSatisfy { $0.verdict.isAcceptable } }

    public static func timestamp(_ date: Date = Date()) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    public func jsonData(pretty: Bool = true) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    public static func read(_ path: String) throws -> CheckReport {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw KBError("cannot read report \(path): \(error.localizedDescription)")
        }
        let report: CheckReport
        do { report = try JSONDecoder().decode(CheckReport.self, from: data) } catch {
            throw KBError("\(path) is not a check report: \(error)")
        }
        guard report.schemaVersion == currentSchemaVersion else {
            throw KBError("\(path) has schemaVersion \(report.schemaVersion); this kb reads \(currentSchemaVersion)")
        }
        return report
    }

    /// Combines shard reports: entries from all, by id (a later report wins for the same id),
    /// sorted by id; `checkedAt` is the latest of the reports.
    public static func merge(_ reports: [CheckReport]) -> CheckReport {
        var byID: [String: EntryCheck] = [:]
        for report in reports {
            for entry in report.entries { byID[entry.id] = entry }
        }
        let latest = reports.map(\.checkedAt).max() ?? timestamp()
        return CheckReport(checkedAt: latest, entries: byID.values.sorted { $0.id < $1.id })
    }

    // MARK: JUnit

    /// JUnit XML for CI: one `<testsuite>` per entry, one `<testcase>` per linked scenario
    /// (`classname` = `<entry>.<anchor>`); skipped scenarios carry `<skipped message=…/>`, stale and
    /// broken ones `<failure message=… type=stale|broken>` with the failing steps as text.
    public func junitXML() -> String {
        var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>"]
        let allCases = entries.reduce(0) { $0 + max(1, $1.attempts.count) }
        let allFailures = entries.reduce(0) { $0 + Self.cases($1).filter { !$0.verdict.isAcceptable }.count }
        let allSkipped = entries.reduce(0) { $0 + Self.cases($1).filter { $0.verdict == .skipped }.count }
        lines.append("<testsuites name=\"kb check\" tests=\"\(allCases)\" failures=\"\(allFailures)\" skipped=\"\(allSkipped)\" timestamp=\"\(Self.escape(checkedAt))\">")
        for entry in entries {
            let cases = Self.cases(entry)
            let failures = cases.filter { !$0.verdict.isAcceptable }.count
            let skipped = cases.filter { $0.verdict == .skipped }.count
            lines.append("  <testsuite name=\"\(Self.escape(entry.id))\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped)\" timestamp=\"\(Self.escape(entry.checkedAt))\">")
            for attempt in cases {
                let classname = entry.id + "." + (attempt.anchor ?? "scenario")
                let open = "    <testcase name=\"\(Self.escape(attempt.scenario))\" classname=\"\(Self.escape(classname))\""
                switch attempt.verdict {
                case .reproduces:
                    lines.append(open + "/>")
                case .skipped:
                    lines.append(open + ">")
                    lines.append("      <skipped message=\"\(Self.escape(attempt.message ?? "skipped"))\"/>")
                    lines.append("    </testcase>")
                case .stale, .broken:
                    lines.append(open + ">")
                    let details = attempt.steps.filter { $0.status != .passed && $0.status != .skipped }
                        .map { "\($0.line.map { "line \($0): " } ?? "")\($0.keyword.map { $0 + " " } ?? "")\($0.text) — \($0.status.rawValue)\($0.message.map { ": " + $0 } ?? "")" }
                        .joined(separator: "\n")
                    lines.append("      <failure message=\"\(Self.escape(attempt.message ?? attempt.verdict.rawValue))\" type=\"\(attempt.verdict.rawValue)\">\(Self.escape(details))</failure>")
                    lines.append("    </testcase>")
                }
            }
            lines.append("  </testsuite>")
        }
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The test cases of an entry: its linked scenarios, or one case for the entry itself when
    /// nothing ran (a parse error, a missing scenario file).
    static func cases(_ entry: EntryCheck) -> [AttemptCheck] {
        if !entry.attempts.isEmpty { return entry.attempts }
        return [AttemptCheck(anchor: nil, scenario: entry.id, verdict: entry.verdict, message: entry.reason, line: nil, steps: [], rules: [])]
    }

    /// Escapes text for XML attributes and content; characters XML 1.0 cannot hold become U+FFFD.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            case "\t": out += "&#9;"
            default:
                let v = scalar.value
                if v < 0x20 || (0xFFFE...0xFFFF).contains(v) {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}

/// Splits entries among CI machines: entry `id` belongs to shard `K` of `N` (K in 1…N) when
/// FNV-1a 64 of the id's UTF-8 bytes, modulo N, equals K − 1. The hash depends on the id alone,
/// so a shard keeps its entries when others are added.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    public let index: Int
    public let count: Int

    /// Parses `K/N`.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, (1...n).contains(k) else { return nil }
        index = k
        count = n
    }

    public init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    public var description: String { "\(index)/\(count)" }

    public static func hash(_ id: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in id.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    public func contains(_ id: String) -> Bool {
        Int(Self.hash(id) % UInt64(count)) == index - 1
    }
}
