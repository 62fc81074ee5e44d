/// The site's view of the `kb check` report (`CheckReport`), read from `.kb/check-report.json`
/// under the working directory when it exists. Only the fields the pages show are read, so a
/// report from a newer `kb check` still renders (documented in docs/site.md):
///
/// ```json
/// {"entries": [{"id": "nav-bar-shadow-ios17", "verdict": "pass", "checkedAt": "2026-11-29T10:00:00Z",
///               "attempts": [{"anchor": "attempt-2", "verdict": "fail", "message": "…"}]}]}
/// ```
///
/// `verdict` is free text; `pass`, `fail`, `error` and `skip` get their own badge colours.
/// Unknown keys are ignored, so the check command may add more.
public struct SiteCheckReport: Codable, Sendable, Equatable {
    public struct EntryResult: Codable, Sendable, Equatable {
        public var id: String
        public var verdict: String
        /// When the check ran (ISO 8601); the latest result for an id wins.
        public var checkedAt: String
        public var attempts: [AttemptResult]

        public init(id: String, verdict: String, checkedAt: String, attempts: [AttemptResult] = []) {
            self.id = id
            self.verdict = verdict
            self.checkedAt = checkedAt
            self.attempts = attempts
        }

        enum CodingKeys: String, CodingKey { case id, verdict, checkedAt, attempts }

        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            verdict = try container.decode(String.self, forKey: .verdict)
            checkedAt = try container.decodeIfPresent(String.self, forKey: .checkedAt) ?? ""
            attempts = try container.decodeIfPresent([AttemptResult].self, forKey: .attempts) ?? []
        }
    }

    public struct AttemptResult: Codable, Sendable, Equatable {
        /// `attempt-2`, `attempt-4-1` or `fix`; empty for a scenario linked to no record.
        public var anchor: String
        public var verdict: String
        public var message: String?
        /// Ids of the model rules the scenario exercised (empty for real reproductions).
        public var rules: [String]

        public init(anchor: String, verdict: String, message: String? = nil, rules: [String] = []) {
            self.anchor = anchor
            self.verdict = verdict
            self.message = message
            self.rules = rules
        }

        enum CodingKeys: String, CodingKey { case anchor, verdict, message, rules }

        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            anchor = try container.decodeIfPresent(String.self, forKey: .anchor) ?? ""
            verdict = try container.decode(String.self, forKey: .verdict)
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
                    func rank(_ verdict: String) -> Int { ["error": 3, "fail": 2, "skip": 1][Self.verdictClass(verdict)] ?? 0 }
                    if rank(earlier.verdict) > rank(attempt.verdict) {
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

    /// The badge class of a verdict: `pass`, `fail`, `error`, `skip` or `other`.
    static func verdictClass(_ verdict: String) -> String {
        switch verdict.lowercased() {
        case "pass", "passed", "ok", "reproduces": return "pass"
        case "fail", "failed", "stale": return "fail"
        case "error", "broken": return "error"
        case "skip", "skipped": return "skip"
        default: return "other"
        }
    }

    /// The badge mark, so the verdict is not told by colour alone.
    static func verdictMark(_ verdict: String) -> String {
        switch verdictClass(verdict) {
        case "pass": return "✓"
        case "fail": return "✗"
        case "error": return "!"
        case "skip": return "–"
        default: return "•"
        }
    }
}
