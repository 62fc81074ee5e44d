import Foundation
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

/// Where each query's expected entry ranks in an index, and MRR / recall@1 per segment: the
/// figures the search-quality work is measured by, with every miss and the entry that won.
struct RankingEvaluation {
    /// One query and its outcome: the expected entry's rank (1-based; nil when not in the first
    /// `limit` results) and the entry ranked first.
    struct Outcome {
        let query: SearchEvaluationTests.Query
        let rank: Int?
        let winner: String?

        var reciprocalRank: Double { rank.map { 1 / Double($0) } ?? 0 }
        var isFirst: Bool { rank == 1 }

        /// `query → #3 (won: other-id)`, or `→ not in the first 10`.
        var missDescription: String {
            let place = rank.map { "#\($0)" } ?? "not in the first \(RankingEvaluation.limit)"
            return "\(query.text) [\(query.expected)] → \(place) (won: \(winner ?? "nothing"))"
        }
    }

    /// Scores of a group of queries (a segment, or all of them).
    struct Score {
        let count: Int
        let mrr: Double
        let recallAt1: Double
        let recallAt3: Double
        let misses: [Outcome]

        init(_ outcomes: [Outcome]) {
            count = outcomes.count
            let n = Double(max(outcomes.count, 1))
            mrr = outcomes.map(\.reciprocalRank).reduce(0, +) / n
            recallAt1 = Double(outcomes.filter(\.isFirst).count) / n
            recallAt3 = Double(outcomes.filter { ($0.rank ?? .max) <= 3 }.count) / n
            misses = outcomes.filter { !$0.isFirst }
        }
    }

    static let limit = 10

    let outcomes: [Outcome]

    init(index: SearchIndex, queries: [SearchEvaluationTests.Query]) {
        outcomes = queries.map { query in
            let ids = index.search(query: query.text, limit: Self.limit).map(\.id)
            return Outcome(query: query, rank: ids.firstIndex(of: query.expected).map { $0 + 1 }, winner: ids.first)
        }
    }

    var overall: Score { Score(outcomes) }
    var segments: [String] { Set(outcomes.map(\.query.segment)).sorted() }
    func score(segment: String) -> Score { Score(outcomes.filter { $0.query.segment == segment }) }

    /// One line per segment and one overall, then the misses, one per line.
    func report(_ label: String) -> String {
        func line(_ name: String, _ s: Score) -> String {
            String(format: "%@ %-7@ n=%3d MRR %.3f R@1 %.2f", label as NSString, name as NSString, s.count, s.mrr, s.recallAt1)
        }
        var lines = segments.map { line($0, score(segment: $0)) }
        lines.append(line("overall", overall))
        lines += overall.misses.map { "\(label) miss (\($0.query.segment)) \($0.missDescription)" }
        return lines.joined(separator: "\n")
    }
}
