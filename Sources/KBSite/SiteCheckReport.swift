import KBCore
import KBSearch
import KBScenarios
/// The site's view of the `kb check` report (`CheckReport`), read from `.kb/check-report.json`
/// under the working directory when it exists. Only the fields the pages show are read, so a
/// report from a newer `kb check` still renders (documented in docs/site.md):
///
/// ```json
/// {"entries": [{"id": "nav-bar-shadow-ios17", "verdict": "stale", "checkedAt": "2026-11-29T10:00:00Z",
///               "attempts": [{"anchor": "attempt-2", "verdict": "stale", "message": "…"}]}]}
/// ```
///
/// Verdicts are read through `CheckVerdict`, the type `kb check` writes them with (older
/// spellings included); any other verdict fails the build. Unknown keys are ignored, so the
/// check command may add more.
public struct SiteCheckReport: Codable, Sendable, Equatable {
    public struct EntryResult: Codable, Sendable, Equatable {
        public var id: String
        public var verdict: CheckVerdict
        /// When the check ran (ISO 8601); the latest result for an id wins.
        public var checkedAt: String
        public var attempts: [AttemptResult]

        public init(id: String, verdict: CheckVerdict, checkedAt: String, attempts: [AttemptResult] = []) {
            self.id = id
            self.verdict = verdict
            self.checkedAt = checkedAt
            self.attempts = attempts
        }

        enum CodingKeys: String, CodingKey { case id, verdict, checkedAt, attempts }

        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            verdict = try container.decode(CheckVerdict.self, forKey: .verdict)
            checkedAt = try container.decodeIfPresent(String.self, forKey: .checkedAt) ?? ""
            attempts = try container.decodeIfPresent([AttemptResult].self, forKey: .attempts) ?? []
        }
    }

    public struct AttemptResult: Codable, Sendable, Equatable {
        /// `attempt-2`, `attempt-4-1` or `fix`; empty for a scenario linked to no record.
        public var anchor: String
        public var verdict: CheckVerdict
        public var message: String?
        /// Ids of the model rules the scenario exercised (empty for real reproductions).
        public var rules: [String]

        public init(anchor: String, verdict: CheckVerdict, message: String? = nil, rules: [String] = []) {
            self.anchor = anchor
            self.verdict = verdict
            self.message = message
            self.rules = rules
        }

        enum CodingKeys: String, CodingKey { case anchor, verdict, message, rules }

        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            anchor = try container.decodeIfPresent(String.self, forKey: .anchor) ?? ""
            verdict = try container.decode(CheckVerdict.self, forKey: .verdict)
            message = try container.decodeIfPresent(String.self, forKey: .message)
            rules = try container.decodeIfPresent([String].self, forKey: .rules) ?? []
        }
    }

    public var entries: [EntryResult]

    public init(entries: [EntryResult]) { self.entries = entries }

    /// The latest result for each entry id (greatest `checkedAt`; on a tie, the later record),
    /// with the last result per attempt anchor.
    func latestByEntry() -> [String: EntryResult] {
        var latest: [String: EntryResult] = [:]
        for result in entries {
            if let existing = latest[result.id], existing.checkedAt > result.checkedAt { continue }
            var merged = result
            var byAnchor: [String: AttemptResult] = [:]
            var order: [String] = []
            for attempt in result.attempts {
                var attempt = attempt
                if let earlier = byAnchor[attempt.anchor] {
                    // Several scenarios for one record: the worst verdict, the rules of all.
                    if earlier.verdict.severity > attempt.verdict.severity {
                        attempt.verdict = earlier.verdict
                        attempt.message = earlier.message
                    }
                    attempt.rules = NavigationBarRules.sortIDs(earlier.rules + attempt.rules)
                } else {
                    order.append(attempt.anchor)
                }
                byAnchor[attempt.anchor] = attempt
            }
            merged.attempts = order.map { byAnchor[$0]! }
            latest[result.id] = merged
        }
        return latest
    }
}
