import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

/// Ranking among look-alike entries: one index over `entries/` plus the 52 neighbour entries of
/// `Fixtures/neighbours/` (test data), with the repository's glossary as `kb search` uses it, and
/// the queries of `Queries/neighbours.tsv`. Reports MRR and recall@1 per segment with every miss
/// and the entry that won; holds the ranking to its targets (MRR ≥ 0.95 overall, ≥ 0.8 across
/// languages) and the same-language development queries to first place.
@Suite struct SearchNeighbourEvaluationTests {
    static let neighboursDirectory = SearchVectors.directory.appendingPathComponent("Fixtures/neighbours").path
    static let queriesPath = SearchVectors.directory.appendingPathComponent("Queries/neighbours.tsv").path
    static let developmentQueriesPath = TestSupport.sharedDirectory + "/queries/dev.tsv"
    static let hasDevelopmentQueries = FileManager.default.fileExists(atPath: developmentQueriesPath)

    static let targetMRR = 0.95
    static let targetCrossLanguageMRR = 0.8

    static func queries() -> [SearchEvaluationTests.Query] {
        SearchEvaluationTests.read(queriesPath) ?? []
    }

    /// The neighbour entries as `kb` loads them.
    static func neighbours() throws -> LoadedKnowledgeBase {
        try KnowledgeBaseLoader(workingDirectory: TestSupport.repositoryRoot).load(paths: [neighboursDirectory])
    }

    /// The index the tests share (built once; loading and indexing 67 entries takes a while).
    static let combined = Result { try index() }

    /// The real entries and the neighbours in one index, with the repository's glossary.
    static func index() throws -> SearchIndex {
        let kb = try KnowledgeBaseLoader(workingDirectory: TestSupport.repositoryRoot).load(paths: [TestSupport.entriesDirectory, neighboursDirectory])
        let glossary = SearchGlossary(Glossary.load(entriesDirectory: TestSupport.entriesDirectory).0)
        return SearchIndex.build(documents: kb.entries.map { SearchDocument(entry: $0) }, glossary: glossary)
    }

    @Test func neighboursAreValidEntriesInFourLanguages() throws {
        let lint = TestSupport.kb(["lint", Self.neighboursDirectory], in: TestSupport.repositoryRoot)
        #expect(lint.code == 0, "kb lint rejects the neighbours:\n\(lint.stdout)\(lint.stderr)")
        #expect(lint.stdout.contains(" 0 errors"), "\(lint.stdout)")

        let entries = try Self.neighbours().entries
        #expect(entries.count >= 50)
        let realIDs = Set(TestSupport.entryIDs)
        #expect(entries.filter { realIDs.contains($0.id) }.isEmpty, "a neighbour reuses a real entry's id")
        for lang in ["zh-Hans", "ko", "ja", "en"] {
            #expect(entries.filter { $0.metadata.lang == lang }.count >= 11, "too few \(lang) neighbours")
        }
    }

    @Test func queriesNameKnownEntriesInEverySegment() throws {
        let queries = Self.queries()
        #expect(queries.count >= 60)
        #expect(Set(queries.map(\.segment)) == ["same", "api", "en", "xlang"])
        let known = Set(TestSupport.entryIDs + (try Self.neighbours().entries.map(\.id)))
        for query in queries {
            #expect(known.contains(query.expected), "\(query.text): unknown entry \(query.expected)")
        }
        let neighbourAnswers = queries.filter { !TestSupport.entryIDs.contains($0.expected) }
        #expect(neighbourAnswers.count >= queries.count / 2, "most queries should have a neighbour as answer")
    }

    /// Prints the figures every run (`swift test --filter SearchNeighbourEvaluationTests`).
    @Test func reportsRankingPerSegment() throws {
        let evaluation = RankingEvaluation(index: try Self.combined.get(), queries: Self.queries())
        print(evaluation.report("neighbour eval"))
        #expect(evaluation.outcomes.count == Self.queries().count)
        #expect(Set(evaluation.segments) == ["same", "api", "en", "xlang"])
    }

    /// The targets of the search-quality issue. Measured on 2026-12-02 with 99 queries over 15 + 52
    /// entries: MRR 0.983 overall (R@1 0.97), cross-language MRR 0.928 (R@1 0.87); same 1.000, en
    /// 1.000, api 1.000 (before concepts were weighted by their own idf and the glossary learnt
    /// the words that tell neighbours apart: 0.921 overall, 0.681 cross-language). The report
    /// test prints the misses and the entries that won.
    @Test func meetsRankingTargets() throws {
        let evaluation = RankingEvaluation(index: try Self.combined.get(), queries: Self.queries())
        #expect(evaluation.overall.mrr >= Self.targetMRR,
                "overall MRR \(evaluation.overall.mrr); misses: \(evaluation.overall.misses.map(\.missDescription))")
        let xlang = evaluation.score(segment: "xlang")
        #expect(xlang.mrr >= Self.targetCrossLanguageMRR,
                "cross-language MRR \(xlang.mrr); misses: \(xlang.misses.map(\.missDescription))")
    }

    /// The neighbours must not push a same-language development query out of first place.
    @Test(.enabled(if: hasDevelopmentQueries, "needs ../shared/queries/dev.tsv beside the repository"))
    func developmentQueriesStayFirstAmongNeighbours() throws {
        let queries = (SearchEvaluationTests.read(Self.developmentQueriesPath) ?? []).filter { $0.segment == "same" }
        #expect(!queries.isEmpty)
        let evaluation = RankingEvaluation(index: try Self.combined.get(), queries: queries)
        print(evaluation.report("neighbour eval dev-same"))
        for miss in evaluation.overall.misses {
            Issue.record("dropped out of first place among neighbours: \(miss.missDescription)")
        }
    }
}
