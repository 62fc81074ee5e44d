import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

/// Cross-language search through the glossary (docs/search.md, "Cross-language search").
@Suite struct GlossarySearchTests {
    static let glossary = SearchTestCorpus.glossary

    @Test func matchingFormFoldsWidthCaseAndSpaces() {
        #expect(SearchGlossary.matchingForm("  ＵＩＫｉｔ　\tBar ") == "uikit bar")
        #expect(SearchGlossary.matchingForm("can’t see") == "can't see")
        #expect(SearchGlossary.matchingForm("ｶﾞｲﾄﾞ") == "ガイド")
        let g = SearchGlossary(concepts: [.init(id: "x", name: "x", terms: ["Bar", "bar", "", "  "])])
        #expect(g.concepts[0].terms == ["bar"])
    }

    @Test func conceptTokensFollowLiteralTokensAtTheTermsFirstPosition() {
        let tokens = SearchAnalyzer.analyze("앱에서 키보드 스크롤", mode: .query, glossary: Self.glossary)
        let concepts = tokens.filter { $0.kind == .concept }
        #expect(concepts.map(\.text) == ["~c:keyboard", "~c:scroll"])
        #expect(concepts.map(\.position) == [3, 6])
        #expect(tokens.prefix(while: { $0.kind != .concept }).count == tokens.count - 2)
        // Without a glossary nothing changes.
        #expect(SearchAnalyzer.analyze("앱에서 키보드 스크롤", mode: .query).allSatisfy { $0.kind != .concept })
    }

    @Test func anEntryInTheQuerysLanguageWinsWhenItFitsAsWell() throws {
        let text: (String) -> [SearchField: [FieldText]] = { [.title: [FieldText($0)]] }
        let index = SearchIndex.build(documents: [
            SearchDocument(id: "ko", lang: "ko", title: "x", fields: text("내비게이션 바 색상이 이상함")),
            SearchDocument(id: "zh", lang: "zh-Hans", title: "x", fields: text("导航栏颜色不对")),
        ], glossary: Self.glossary)
        let results = index.search(query: "导航栏 颜色")
        #expect(results.map(\.id) == ["zh", "ko"])
        #expect(results[0].viaGlossary.isEmpty)
        #expect(results[1].viaGlossary == ["navigation-bar", "color"])
        #expect(results[0].score > results[1].score)
        // The Korean query finds the Korean entry first and the Chinese one through the glossary.
        #expect(index.search(query: "내비게이션 바 색상").map(\.id) == ["ko", "zh"])
        // Without the glossary the other language is not found at all.
        let plain = SearchIndex.build(documents: [
            SearchDocument(id: "ko", lang: "ko", title: "x", fields: text("내비게이션 바 색상이 이상함")),
            SearchDocument(id: "zh", lang: "zh-Hans", title: "x", fields: text("导航栏颜色不对")),
        ])
        #expect(plain.search(query: "导航栏 颜色").map(\.id) == ["zh"])
    }

    /// A concept weighs what a literal token as rare as the concept would (docs/search.md §10.3):
    /// a concept three entries share counts less than one a single entry has.
    @Test func aConceptManyEntriesShareWeighsLessThanARareOne() throws {
        let text: (String) -> [SearchField: [FieldText]] = { [.title: [FieldText($0)]] }
        let index = SearchIndex.build(documents: [
            SearchDocument(id: "a-scroll-1", lang: "ko", title: "x", fields: text("스크롤 문제")),
            SearchDocument(id: "a-scroll-2", lang: "ko", title: "x", fields: text("스크롤 문제")),
            SearchDocument(id: "a-scroll-3", lang: "ko", title: "x", fields: text("스크롤 문제")),
            SearchDocument(id: "z-keyboard", lang: "ko", title: "x", fields: text("키보드 문제")),
        ], glossary: Self.glossary)
        // Both query words are unknown to the index (same idf); only the concepts tell them apart.
        let results = index.search(query: "键盘 滚动")
        #expect(results.map(\.id) == ["z-keyboard", "a-scroll-1", "a-scroll-2", "a-scroll-3"])
        let rare = index.explain(query: "键盘 滚动", doc: 3).terms[0]
        let shared = index.explain(query: "键盘 滚动", doc: 0).terms[1]
        #expect(rare.concept == "keyboard" && shared.concept == "scroll")
        #expect(rare.idf == shared.idf)
        #expect(shared.conceptIdf < rare.conceptIdf)
        #expect(shared.viaConcept < rare.viaConcept)
    }

    /// A concept rarer than the query token it covers counts at the token's idf, not more.
    @Test func aConceptNeverWeighsMoreThanTheTokenTyped() throws {
        let text: (String) -> [SearchField: [FieldText]] = { [.title: [FieldText($0)]] }
        let index = SearchIndex.build(documents: [
            SearchDocument(id: "menu-1", lang: "zh-Hans", title: "x", fields: text("导航菜单")),
            SearchDocument(id: "menu-2", lang: "zh-Hans", title: "x", fields: text("导航菜单")),
            SearchDocument(id: "menu-3", lang: "zh-Hans", title: "x", fields: text("导航菜单")),
            SearchDocument(id: "nav-bar", lang: "ko", title: "x", fields: text("내비게이션 바")),
        ], glossary: Self.glossary)
        let terms = index.explain(query: "导航栏", doc: 3).terms
        #expect(terms.map(\.token) == ["导航", "航栏"])
        #expect(terms.allSatisfy { $0.concept == "navigation-bar" })
        // 导航 is in three entries, the concept in one: the concept counts at 导航's idf there.
        #expect(terms[0].idf < terms[0].conceptIdf)
        #expect(terms[0].viaConcept < terms[1].viaConcept)
    }

    @Test func snippetsHighlightTheTermFoundThroughTheGlossary() throws {
        let index = SearchIndex.build(documents: SearchTestCorpus.documents, glossary: Self.glossary)
        let hit = try #require(index.search(query: "키보드 스크롤").first { $0.id == "ja-keyboard-avoidance" })
        // "ScrollView" is not the whole word "scroll": only the keyboard concept matched.
        #expect(hit.viaGlossary == ["keyboard"])
        let snippet = try #require(hit.snippet)
        let highlighted = snippet.highlightRanges.map { String(snippet.text[$0]) }
        #expect(highlighted.contains("キーボード"))
    }

    @Test func codeSamplesAreNotExpanded() {
        let index = SearchIndex.build(documents: [
            SearchDocument(id: "a", lang: "en", title: "x", fields: [.code: [FieldText("print(\"导航栏\")")]]),
        ], glossary: Self.glossary)
        #expect(index.search(query: "navigation bar").isEmpty)
        #expect(index.search(query: "导航栏").map(\.id) == ["a"])
    }

    @Test func binaryRoundTripKeepsTheGlossary() throws {
        let index = SearchIndex.build(documents: SearchTestCorpus.documents, glossary: Self.glossary)
        let loaded = try SearchIndex(serialized: index.serialized(fingerprint: "g"), expectedFingerprint: "g",
                                     texts: .documents(SearchTestCorpus.documents))
        #expect(loaded.glossary.concepts == index.glossary.concepts)
        for q in SearchTestCorpus.fixtureQueries {
            #expect(loaded.search(query: q.query, filters: q.filters) == index.search(query: q.query, filters: q.filters))
        }
        let one = SearchIndex.build(documents: SearchTestCorpus.documents, parameters: .default, glossary: Self.glossary, chunkCount: 1)
        let many = SearchIndex.build(documents: SearchTestCorpus.documents, parameters: .default, glossary: Self.glossary, chunkCount: 5)
        #expect(one.serialized() == many.serialized())
    }

    @Test func mappedFileDecodesConceptPostingsOnDemand() throws {
        let index = SearchIndex.build(documents: SearchTestCorpus.documents, glossary: Self.glossary)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("kb-glossary-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: url) }
        try index.write(to: url, fingerprint: "g")
        let mapped = try SearchIndex.read(from: url, expectedFingerprint: "g", texts: .documents(SearchTestCorpus.documents))
        #expect(mapped.glossary.concepts == index.glossary.concepts)
        #expect(mapped.parameters == index.parameters)
        // A cross-language query: its concept token's postings come from the mapped file.
        let results = mapped.search(query: "网络请求超时")
        #expect(results == index.search(query: "网络请求超时"))
        #expect(results.contains { $0.viaGlossary.contains("timeout") })
        let id = mapped.tokens.find("~c:timeout")
        #expect(id >= 0 && mapped.postingList(id)?.count == index.postingList(id)?.count)
        for q in SearchTestCorpus.fixtureQueries {
            #expect(mapped.search(query: q.query, filters: q.filters) == index.search(query: q.query, filters: q.filters))
        }
        #expect(!mapped.isDamaged)
        // A damaged concept posting list is noticed by the search that needs it.
        var data = try Data(contentsOf: url)
        data[index.serializedHead(fingerprint: "g").count + Int(index.postingOffset[Int(id)])] ^= 0x01
        try data.write(to: url)
        let damaged = try SearchIndex.read(from: url, expectedFingerprint: "g")
        _ = damaged.search(query: "网络请求超时")
        #expect(damaged.isDamaged)
    }

    // MARK: CLI

    static func kb(_ arguments: [String]) -> (code: Int32, stdout: String, stderr: String) {
        let cache = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(cache) }
        return TestSupport.kb(arguments, in: TestSupport.repositoryRoot, environment: ["KB_CACHE": cache])
    }

    @Test func searchSaysWhenAResultMatchedThroughTheGlossary() throws {
        let text = Self.kb(["search", "大きいタイトルが見えない", "--limit", "3"])
        #expect(text.code == 0)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("1. large-title-custom-background") == true)
        #expect(lines.contains { $0.contains("via glossary: large title, title, unreadable") })
        let json = Self.kb(["search", "导航栏 阴影线 去掉", "--format", "json", "--limit", "3"])
        let hits = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(hits.first?["id"] as? String == "nav-bar-shadow-ios17")
        let via = try #require(hits.first?["viaGlossary"] as? [[String: String]])
        #expect(via.map { $0["id"]! } == ["navigation-bar", "hairline", "remove"])
        #expect(via.first?["name"] == "navigation bar")
        let explained = Self.kb(["search", "导航栏 阴影线 去掉", "--explain", "--limit", "1"])
        #expect(explained.stdout.contains("via hairline idf "))
        let name = Self.kb(["search", "toolbarColorScheme 不生效", "--explain", "--limit", "1"])
        #expect(name.stdout.hasPrefix("toolbarcolorscheme is searched as itself (the index has it): toolbar, color, scheme left out\n1. "))
    }

    @Test func analyzeShowsConceptTokens() {
        let out = Self.kb(["analyze", "--query", "大きいタイトルが見えない"])
        #expect(out.code == 0)
        #expect(out.stdout.contains("0\t~c:large-title\tconcept\tlarge title ← 大きいタイトル"))
        #expect(out.stdout.contains("8\t~c:unreadable\tconcept"))
        #expect(!Self.kb(["analyze", "--no-glossary", "大きいタイトル"]).stdout.contains("concept"))
    }

    @Test func glossaryListsConceptsAndTheEntriesThatMentionThem() throws {
        let out = Self.kb(["glossary"])
        #expect(out.code == 0)
        #expect(out.stdout.contains("large-title  large title"))
        #expect(out.stdout.contains("large-title-custom-background (大标题"))
        let json = Self.kb(["glossary", "--format", "json"])
        let concepts = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let navigationBar = try #require(concepts.first { $0["id"] as? String == "navigation-bar" })
        let entries = try #require(navigationBar["entries"] as? [[String: Any]])
        #expect(Set(entries.compactMap { $0["lang"] as? String }) == ["zh-Hans", "ko", "ja"])
        #expect(Self.kb(["glossary", "bogus"]).code == ExitCode.usage)
    }

    @Test func glossaryGapsSuggestUncoveredWords() throws {
        let out = Self.kb(["glossary", "gaps", "--limit", "5"])
        #expect(out.code == 0)
        #expect(out.stdout.contains("CJK bigrams") && out.stdout.contains("Identifiers"))
        let json = Self.kb(["glossary", "gaps", "--format", "json", "--min-entries", "3"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(!rows.isEmpty)
        #expect(rows.allSatisfy { ($0["entries"] as? Int ?? 0) >= 3 })
        // A covered word is not suggested: 航栏 only occurs inside 导航栏 (navigation-bar).
        #expect(!rows.contains { $0["token"] as? String == "航栏" })
    }
}
