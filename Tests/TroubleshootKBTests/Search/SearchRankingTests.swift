import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

@Suite struct SearchRankingTests {
    static let index = SearchIndex.build(documents: SearchTestCorpus.documents)

    func ids(_ query: String, filters: SearchFilters = .none, limit: Int = 10) -> [String] {
        Self.index.search(query: query, filters: filters, limit: limit).map(\.id)
    }

    @Test(arguments: [
        ("toolbarColorScheme 不生效", "zh-toolbar-color-scheme"),
        ("UINavigationBarAppearance 배경색", "ko-navigation-bar-appearance"),
        ("UINavigationBar.appearance 色が変わらない", "ja-navigation-bar-color"),
        ("URLSession timeout cellular", "en-urlsession-timeout"),
        ("scrollEdgeAppearance 투명", "ko-navigation-bar-appearance"),
        ("ＵＲＬＳｅｓｓｉｏｎ", "en-urlsession-timeout"),
        ("toolbar color scheme", "zh-toolbar-color-scheme"),
        ("Core Data migrations crashing", "en-core-data-migration"),
        ("키보드 스크롤", "ko-keyboard-dismiss"),
        ("キーボード 隠れる", "ja-keyboard-avoidance"),
    ])
    func queryFindsTheRightDocumentFirst(query: String, expected: String) {
        #expect(ids(query).first == expected)
    }

    @Test func oneCommonCharacterDoesNotHijack() {
        let results = ids("的 LocalizedStringKey")
        #expect(results.first == "zh-localized-string")
        // The document full of 的 matches only the cheap token, so it ranks below.
        if let noise = results.firstIndex(of: "zh-common-chars") {
            #expect(noise > results.firstIndex(of: "zh-localized-string")!)
        }
    }

    @Test func partialMatchesStillRank() {
        let results = ids("toolbarColorScheme 完全不存在的词")
        #expect(results.first == "zh-toolbar-color-scheme")
        #expect(ids("qwertyuiop zzz").isEmpty)
    }

    @Test func aNameTheIndexKnowsIsSearchedAsItself() {
        let index = SearchIndex.build(documents: [
            SearchDocument(id: "api", lang: "en", title: "x", fields: [.body: [FieldText("Set toolbarColorScheme on the view")]]),
            SearchDocument(id: "bar", lang: "en", title: "x", fields: [.body: [FieldText("UINavigationBar keeps its shadow")]]),
            SearchDocument(id: "words", lang: "en", title: "x", fields: [.body: [FieldText("The toolbar color scheme looks wrong")]]),
        ])
        // The index has the name: its parts would only add every text about a toolbar or a colour.
        #expect(index.prepare("toolbarColorScheme not working").tokens == ["toolbarcolorscheme", "working"])
        #expect(index.search(query: "toolbarColorScheme").map(\.id) == ["api"])
        // A name no entry has is searched by its words as well.
        #expect(index.prepare("navigationBarColorScheme").tokens == ["navigationbarcolorscheme", "navigation", "bar", "color", "scheme"])
        #expect(Set(index.search(query: "navigationBarColorScheme").map(\.id)) == ["api", "bar", "words"])
        // Segment by segment: the known segment stands for its parts, the unknown dotted name does not.
        #expect(index.prepare("UINavigationBar.appearance()").tokens == ["uinavigationbar.appearance", "uinavigationbar", "appearance"])
        // What --explain says about it.
        let said = { (query: String) in index.knownIdentifiers(in: query).map { "\($0.name): \($0.leftOut.joined(separator: " "))" } }
        #expect(said("toolbarColorScheme not working") == ["toolbarcolorscheme: toolbar color scheme"])
        #expect(said("UINavigationBar.appearance()") == ["uinavigationbar: ui navigation bar"])
        #expect(said("navigationBarColorScheme").isEmpty)
    }

    @Test func adjacentBigramsBeatScatteredCharacters() {
        let results = ids("导航栏颜色")
        #expect(results.first == "zh-toolbar-color-scheme")
        #expect(results.contains("zh-scattered-words"))
        #expect(results.firstIndex(of: "zh-scattered-words")! > 0)
    }

    @Test func bestFieldTextCarriesAnchorAndLabel() throws {
        let hit = try #require(Self.index.search(query: "barTintColor 실패").first)
        #expect(hit.id == "ko-navigation-bar-appearance")
        #expect(hit.field == .attempts)
        #expect(hit.anchor == "attempt-1")
        #expect(hit.label == "시도 1 — 결과")
        let snippet = try #require(hit.snippet)
        let highlighted = snippet.highlightRanges.map { String(snippet.text[$0]) }
        #expect(highlighted.contains("barTintColor"))
        #expect(highlighted.contains("실패"))
    }

    @Test func filters() {
        let ko = Self.index.search(query: "키보드", filters: SearchFilters(langs: ["ko"]))
        #expect(!ko.isEmpty && ko.allSatisfy { $0.id.hasPrefix("ko-") })
        #expect(ids("颜色", filters: SearchFilters(langs: ["zh"])).allSatisfy { $0.hasPrefix("zh-") })
        #expect(ids("navigation", filters: SearchFilters(tags: ["uikit"])).allSatisfy { $0 != "zh-toolbar-color-scheme" })
        #expect(ids("导航", filters: SearchFilters(statuses: ["open"])) == ["zh-scattered-words"])
    }

    @Test func tiesBreakByID() {
        let text = [SearchField.title: [FieldText("same words here")]]
        let index = SearchIndex.build(documents: [
            SearchDocument(id: "b", lang: "en", title: "x", fields: text),
            SearchDocument(id: "a", lang: "en", title: "x", fields: text),
            SearchDocument(id: "c", lang: "en", title: "x", fields: text),
        ])
        let results = index.search(query: "words")
        #expect(results.map(\.id) == ["a", "b", "c"])
        #expect(results[0].score == results[1].score)
    }

    @Test func chunkingDoesNotChangeTheIndex() {
        var docs: [SearchDocument] = []
        for i in 0..<60 {
            for var d in SearchTestCorpus.documents {
                d.id = "\(d.id)-\(i)"
                docs.append(d)
            }
        }
        let one = SearchIndex.build(documents: docs, parameters: .default, chunkCount: 1)
        let many = SearchIndex.build(documents: docs, parameters: .default, chunkCount: 7)
        #expect(one.serialized() == many.serialized())
    }

    @Test func binaryRoundTripAndCorruption() throws {
        let data = Self.index.serialized(fingerprint: "abc")
        let loaded = try SearchIndex(serialized: data, expectedFingerprint: "abc", texts: .documents(SearchTestCorpus.documents))
        for q in SearchTestCorpus.fixtureQueries {
            #expect(loaded.search(query: q.query, filters: q.filters) == Self.index.search(query: q.query, filters: q.filters))
        }
        #expect(throws: SearchIndexError.fingerprintMismatch) { try SearchIndex(serialized: data, expectedFingerprint: "other") }
        var corrupt = data
        corrupt[corrupt.count / 2] ^= 0x40
        #expect(throws: SearchIndexError.corrupt("checksum")) { try SearchIndex(serialized: corrupt) }
        #expect(throws: SearchIndexError.corrupt("length")) { try SearchIndex(serialized: data.dropLast(3)) }
        var old = data
        old[4] = 0  // format version 0
        #expect(throws: SearchIndexError.unsupportedVersion(0)) { try SearchIndex(serialized: old) }
        #expect(throws: SearchIndexError.notAnIndex) { try SearchIndex(serialized: Data("hello".utf8)) }
        #expect(throws: SearchIndexError.notAnIndex) { try SearchIndex(serialized: Data()) }
    }

    @Test func mappedFileReadsPostingsLazilyAndNoticesDamage() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("kb-index-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: url) }
        try Self.index.write(to: url, fingerprint: "f")
        let mapped = try SearchIndex.read(from: url, expectedFingerprint: "f", texts: .documents(SearchTestCorpus.documents))
        for q in SearchTestCorpus.fixtureQueries {
            #expect(mapped.search(query: q.query, filters: q.filters) == Self.index.search(query: q.query, filters: q.filters))
        }
        #expect(!mapped.isDamaged)
        #expect(throws: SearchIndexError.fingerprintMismatch) { try SearchIndex.read(from: url, expectedFingerprint: "g") }
        // Flip a byte inside the posting list of a query token: opening still works (the eager part
        // is intact), the search notices the damage.
        var data = try Data(contentsOf: url)
        let head = Self.index.serializedHead(fingerprint: "f").count
        let id = Int(Self.index.tokens.find("toolbar"))
        let offset = head + Int(Self.index.postingOffset[id])
        data[offset] ^= 0x01
        try data.write(to: url)
        let damaged = try SearchIndex.read(from: url, expectedFingerprint: "f")
        _ = damaged.search(query: "toolbar")
        #expect(damaged.isDamaged)
        #expect(throws: SearchIndexError.corrupt("checksum")) { try SearchIndex(serialized: data) }
    }

    /// The file keeps only a checksum of each document's texts: snippets come from a text
    /// source, and texts that are not the indexed ones are noticed, not shown.
    @Test func textsComeFromTheirSourceAndAreChecked() throws {
        let data = Self.index.serialized(fingerprint: "t")
        // The body texts are nowhere in the file (titles, anchors and labels are columns of it).
        let sample = try #require(SearchTestCorpus.documents.flatMap { $0.fields[.problem] ?? [] }.first?.text)
        #expect(data.range(of: Data(sample.utf8)) == nil, "the file holds no body text")
        let expected = Self.index.search(query: "toolbar")
        #expect(!expected.isEmpty && expected.allSatisfy { $0.snippet != nil })
        // No source: the same results without snippets, and nothing damaged.
        let bare = try SearchIndex(serialized: data, expectedFingerprint: "t")
        let withoutTexts = bare.search(query: "toolbar")
        #expect(withoutTexts.map(\.id) == expected.map(\.id) && withoutTexts.allSatisfy { $0.snippet == nil })
        #expect(!bare.isDamaged && !bare.entriesChanged)
        // A source whose document changed since the index was built: no snippet for it, and the
        // index says its entries changed (`kb search` then rebuilds).
        let changedID = expected[0].id
        let changed = SearchTextSource { id in
            let texts = SearchTestCorpus.documents.first { $0.id == id }?.textsInIndexOrder
            return id == changedID ? texts.map { $0.map { $0 + " (edited)" } } : texts
        }
        let stale = try SearchIndex(serialized: data, expectedFingerprint: "t", texts: changed)
        let results = stale.search(query: "toolbar")
        #expect(results[0].snippet == nil && results.dropFirst().allSatisfy { $0.snippet != nil })
        #expect(stale.entriesChanged && stale.isDamaged)
        // A source without the document: the same.
        let missing = try SearchIndex(serialized: data, expectedFingerprint: "t", texts: SearchTextSource { _ in nil })
        _ = missing.search(query: "toolbar")
        #expect(missing.entriesChanged)
    }

    /// Records that a writer never makes are refused (the list is damaged), never trusted and
    /// never a trap: positions that would overflow, a second "new document" head at the same
    /// document, more records than the bytes can hold.
    @Test(arguments: [
        ("a first position at Int32.max", [1, 0, 2 * UInt32(Int32.max)], 1, true),
        ("position gaps past Int32.max", [1, 0, 1, 0, 2 * 1_000, UInt32(Int32.max)], 1, true),
        ("a new-document head with gap 0 after the first record", [1, 0, 0, 1, 1, 0], 2, true),
        ("a well-formed pair of records", [1, 0, 0, 0, 2], 2, false),
    ] as [(String, [UInt32], Int32, Bool)])
    func malformedRecordsAreRefused(_ name: String, _ numbers: [UInt32], _ records: Int32, _ refused: Bool) throws {
        var index = SearchIndex.build(documents: [
            SearchDocument(id: "a", lang: "en", title: "x", fields: [.body: [FieldText("one"), FieldText("two three")]]),
        ])
        var bytes: [UInt8] = []
        for number in numbers { Varint.append(number, to: &bytes) }
        index.postingBytes = ByteRegion(bytes)
        index.postingOffset = [0] + Array(repeating: Int64(bytes.count), count: index.tokenCount)
        index.recordCount = [records] + Array(repeating: 0, count: index.tokenCount - 1)
        index.postingChecksum = (0..<index.tokenCount).map { $0 == 0 ? ContentChecksum.of(bytes[...]) : ContentChecksum.of([UInt8]()[...]) }
        #expect((index.decodePostings(0) == nil) == refused, "\(name)")
        if refused {
            #expect(throws: SearchIndexError.self) { try SearchIndex(serialized: index.serialized()) }
        }
        // A record count the bytes cannot hold is refused when the file is opened.
        index.recordCount[0] = Int32(bytes.count / 2 + 1)
        #expect(throws: SearchIndexError.corrupt("postings")) { try SearchIndex(serialized: index.serialized()) }
    }

    @Test func emptyIndexAndEmptyQuery() {
        let empty = SearchIndex.build(documents: [])
        #expect(empty.search(query: "anything").isEmpty)
        #expect(Self.index.search(query: "").isEmpty)
        #expect(Self.index.search(query: "the of and").isEmpty)
    }
}

/// The web fixture: an export of the test corpus and the results Swift gives for
/// `SearchTestCorpus.fixtureQueries`. The node test (Tests/js/search.test.mjs) runs the same
/// queries with site/assets/search-core.js and must get the same results. This test fails when
/// the committed fixture is stale; re-record with `KB_RECORD_SEARCH=1 swift test --filter Search`.
@Suite struct SearchWebFixtureTests {
    static let directory = SearchVectors.directory.appendingPathComponent("Fixtures")
    static let shardCount = 4

    static func expectedResults(_ index: SearchIndex) -> Data {
        expectedResults(index, SearchTestCorpus.fixtureQueries.map { ($0.query, $0.filters, nil, nil) })
    }

    /// Results of `queries` (with the expected entry and segment, when known) as JSON.
    static func expectedResults(_ index: SearchIndex, _ queries: [(query: String, filters: SearchFilters, expected: String?, segment: String?)]) -> Data {
        var w = JSONWriter()
        w.raw("{\"queries\": [\n")
        for (i, q) in queries.enumerated() {
            w.raw("{\"query\": "); w.string(q.query)
            if let expected = q.expected { w.raw(", \"expected\": "); w.string(expected) }
            if let segment = q.segment { w.raw(", \"segment\": "); w.string(segment) }
            w.raw(", \"filters\": {\"langs\": [\(q.filters.langs.map { "\"\($0)\"" }.joined(separator: ","))]")
            w.raw(", \"tags\": [\(q.filters.tags.map { "\"\($0)\"" }.joined(separator: ","))]")
            w.raw(", \"statuses\": [\(q.filters.statuses.map { "\"\($0)\"" }.joined(separator: ","))]}")
            w.raw(", \"limit\": 10, \"results\": [")
            for (j, r) in index.search(query: q.query, filters: q.filters, limit: 10).enumerated() {
                w.raw(j == 0 ? "\n  " : ",\n  ")
                w.raw("{\"id\": "); w.string(r.id); w.raw(", \"score\": "); w.double(r.score)
                w.raw(", \"field\": "); w.string(r.field.name); w.raw(", \"textIndex\": "); w.int(r.textIndex)
                w.raw(", \"anchor\": "); if let a = r.anchor { w.string(a) } else { w.raw("null") }
                w.raw(", \"label\": "); if let l = r.label { w.string(l) } else { w.raw("null") }
                w.raw(", \"viaGlossary\": [\(r.viaGlossary.map { "\"\($0)\"" }.joined(separator: ","))]")
                w.raw(", \"viaExpansions\": [")
                for (k, e) in r.viaExpansions.enumerated() {
                    if k > 0 { w.raw(", ") }
                    w.raw("{\"query\": "); w.string(e.query); w.raw(", \"token\": "); w.string(e.token)
                    w.raw(", \"kind\": "); w.string(e.kind.rawValue); w.raw("}")
                }
                w.raw("]}")
            }
            w.raw("]}")
            w.raw(i + 1 < queries.count ? ",\n" : "\n")
        }
        w.raw("]}\n")
        return Data(w.bytes)
    }

    static func files() -> [(String, Data)] {
        let index = SearchIndex.build(documents: SearchTestCorpus.documents, glossary: SearchTestCorpus.glossary)
        let export = SearchWebExport.build(documents: SearchTestCorpus.documents, glossary: SearchTestCorpus.glossary, shardCount: shardCount)
        var files = [("web/search-meta.json", export.meta)]
        for (i, s) in export.shards.enumerated() { files.append(("web/search-shard-\(i).json", s)) }
        for (d, doc) in export.docs.enumerated() { files.append(("web/search-doc-\(d).json", doc)) }
        files.append(("web/search-filters.json", export.filters))
        for (i, v) in export.vocabularies.enumerated() { files.append(("web/search-vocab-\(i).json", v)) }
        files.append(("expected-results.json", expectedResults(index)))
        return files
    }

    @Test func fixtureIsUpToDate() throws {
        for (name, data) in Self.files() {
            let url = Self.directory.appendingPathComponent(name)
            if SearchVectors.recording {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try data.write(to: url)
            } else {
                let committed = try? Data(contentsOf: url)
                #expect(committed == data, "\(name) is stale; re-record with KB_RECORD_SEARCH=1")
            }
        }
    }

    /// The real entries with the real glossary, exported for the browser engine, and Swift's
    /// results for the development queries and `Queries/xlang.tsv` (Tests/js/entries.test.mjs
    /// checks that search-core.js ranks them the same). Needs ../shared/queries/dev.tsv.
    static func entriesFiles() throws -> [(String, Data)]? {
        guard let dev = SearchEvaluationTests.queries() else { return nil }
        let (documents, glossary) = try SearchEvaluationTests.repositoryDocuments(glossary: true)
        let index = SearchIndex.build(documents: documents, glossary: glossary)
        let export = SearchWebExport.build(documents: documents, glossary: glossary, shardCount: 8)
        var files = [("entries/web/search-meta.json", export.meta)]
        for (i, s) in export.shards.enumerated() { files.append(("entries/web/search-shard-\(i).json", s)) }
        // Tokens with many records have a postings file of their own (Tests/js/entries.test.mjs loads them).
        for (k, t) in export.tokenFiles.enumerated() { files.append(("entries/web/search-token-\(k).json", t)) }
        for (d, doc) in export.docs.enumerated() { files.append(("entries/web/search-doc-\(d).json", doc)) }
        files.append(("entries/web/search-filters.json", export.filters))
        for (i, v) in export.vocabularies.enumerated() { files.append(("entries/web/search-vocab-\(i).json", v)) }
        let queries = (dev + SearchEvaluationTests.extraQueries()).map { ($0.text, SearchFilters.none, Optional($0.expected), Optional($0.segment)) }
        files.append(("entries/expected-results.json", expectedResults(index, queries)))
        return files
    }

    @Test(.enabled(if: TestSupport.hasSharedData, TestSupport.sharedDataMissing))
    func entriesFixtureIsUpToDate() throws {
        let files = try #require(try Self.entriesFiles(), "../shared/queries/dev.tsv cannot be read")
        for (name, data) in files {
            let url = Self.directory.appendingPathComponent(name)
            if SearchVectors.recording {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try data.write(to: url)
            } else {
                let committed = try? Data(contentsOf: url)
                #expect(committed == data, "\(name) is stale (entries, glossary or queries changed); re-record with KB_RECORD_SEARCH=1")
            }
        }
    }

    @Test func shardsHoldTheirTokens() throws {
        let export = SearchWebExport.build(documents: SearchTestCorpus.documents, shardCount: 8)
        for (i, shard) in export.shards.enumerated() {
            let json = try #require(try JSONSerialization.jsonObject(with: shard) as? [String: Any])
            let tokens = try #require(json["t"] as? [String: Any])
            for token in tokens.keys { #expect(SearchWebExport.shard(ofToken: token, shardCount: 8) == i) }
        }
        let meta = try #require(try JSONSerialization.jsonObject(with: export.meta) as? [String: Any])
        #expect(meta["n"] as? Int == SearchTestCorpus.documents.count)
    }
}
