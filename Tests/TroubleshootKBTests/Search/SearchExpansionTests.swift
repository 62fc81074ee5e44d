import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

/// Prefix and typo expansions (docs/search.md §4.1): the word being typed is completed, a word
/// one edit away from the vocabulary is corrected, and both rank below the word as typed.
@Suite struct SearchExpansionTests {
    static let index = SearchIndex.build(documents: SearchTestCorpus.documents, glossary: SearchTestCorpus.glossary)

    struct EditCase: CustomTestStringConvertible, Sendable {
        let name: String
        let typed: String
        let word: String
        let isOneEdit: Bool
        var testDescription: String { name }
    }

    @Test(arguments: [
        EditCase(name: "insertion", typed: "apperance", word: "appearance", isOneEdit: true),
        EditCase(name: "deletion", typed: "appearannce", word: "appearance", isOneEdit: true),
        EditCase(name: "substitution", typed: "appearence", word: "appearance", isOneEdit: true),
        EditCase(name: "transposition", typed: "appaerance", word: "appearance", isOneEdit: true),
        EditCase(name: "last two transposed", typed: "appearanec", word: "appearance", isOneEdit: true),
        EditCase(name: "one more at the end", typed: "appearances", word: "appearance", isOneEdit: true),
        EditCase(name: "non-ASCII substitution", typed: "écolé", word: "écolè", isOneEdit: true),
        EditCase(name: "the same word", typed: "appearance", word: "appearance", isOneEdit: false),
        EditCase(name: "two substitutions", typed: "apperence", word: "appearance", isOneEdit: false),
        EditCase(name: "two apart in length", typed: "appearan", word: "appearance", isOneEdit: false),
        EditCase(name: "transposition not adjacent", typed: "aeppaarnce", word: "appearance", isOneEdit: false),
    ])
    func oneEdit(_ c: EditCase) {
        let a = c.typed.unicodeScalars.map(\.value), b = c.word.unicodeScalars.map(\.value)
        #expect(SearchExpansionRules.isOneEdit(a, b) == c.isOneEdit)
        #expect(SearchExpansionRules.isOneEdit(b, a) == c.isOneEdit)
    }

    struct QueryCase: CustomTestStringConvertible, Sendable {
        let name: String
        let query: String
        let first: String?
        let expansions: [String]
        var testDescription: String { name }
    }

    @Test(arguments: [
        QueryCase(name: "an identifier being typed", query: "toolbarcolor", first: "zh-toolbar-color-scheme",
                  expansions: ["prefix toolbarcolor → toolbarcolorscheme"]),
        QueryCase(name: "a long identifier being typed", query: "scrolledgeappear", first: "ko-navigation-bar-appearance",
                  expansions: ["prefix scrolledgeappear → scrolledgeappearance"]),
        QueryCase(name: "a dotted identifier's part being typed", query: "timeoutinterval", first: "en-urlsession-timeout",
                  expansions: ["prefix timeoutinterval → timeoutintervalforrequest"]),
        QueryCase(name: "a typo in a word", query: "apperance", first: "ko-navigation-bar-appearance",
                  expansions: ["typo apperance → appearance"]),
        QueryCase(name: "a typo before another word", query: "migraton crash", first: "en-core-data-migration",
                  expansions: ["typo migraton → migration"]),
        QueryCase(name: "a typo in a camel-case identifier and its part", query: "scrollEdgeApperance 투명",
                  first: "ko-navigation-bar-appearance",
                  expansions: ["typo scrolledgeapperance → scrolledgeappearance", "typo apperance → appearance"]),
        QueryCase(name: "a space ends the word", query: "toolbarcolor ", first: nil, expansions: []),
        QueryCase(name: "a typo in the first two letters stays", query: "opperance", first: nil, expansions: []),
    ])
    func expansions(_ c: QueryCase) {
        let results = Self.index.search(query: c.query, limit: 10)
        #expect(results.first?.id == c.first)
        let via = results.first.map { $0.viaExpansions.map { "\($0.kind.rawValue) \($0.query) → \($0.token)" } } ?? []
        #expect(via == c.expansions)
    }

    @Test func theWordAsTypedRanksAboveItsCompletion() throws {
        func doc(_ id: String, _ text: String) -> SearchDocument {
            SearchDocument(id: id, lang: "en", tags: [], status: "open", title: text, url: nil, fields: [.title: [FieldText(text)]])
        }
        let index = SearchIndex.build(documents: [doc("a-completed", "configuration loader"), doc("b-typed", "config loader"),
                                                  doc("c-other", "other words here")])
        let results = index.search(query: "config")
        #expect(results.map(\.id) == ["b-typed", "a-completed"])
        #expect(results[1].score < results[0].score)
        #expect(results[0].viaExpansions.isEmpty)
        #expect(results[1].viaExpansions == [SearchExpansion(query: "config", token: "configuration", kind: .prefix)])
        // The completion is highlighted in the snippet.
        let snippet = try #require(results[1].snippet)
        #expect(snippet.highlights.map { Array(snippet.text.unicodeScalars)[$0].map(String.init).joined() } == ["configuration"])
    }

    @Test func typingALongIdentifierLetterByLetterKeepsFindingItsEntry() {
        let word = Array("scrolledgeappearance")
        for n in SearchExpansionRules.prefixMinLength...word.count {
            let typed = String(word[0..<n])
            let ids = Self.index.search(query: typed, limit: 10).map(\.id)
            #expect(ids.contains("ko-navigation-bar-appearance"), "\(typed): \(ids)")
        }
    }

    @Test func explainNamesTheExpansion() throws {
        let d = try #require(Self.index.search(query: "apperance").first?.docIndex)
        let e = Self.index.explain(query: "apperance", doc: d)
        let term = try #require(e.terms.first)
        #expect(term.token == "apperance")
        #expect(term.literal == 0)
        #expect(term.expansion == SearchExpansion(query: "apperance", token: "appearance", kind: .typo))
        #expect(term.viaExpansion > 0)
        #expect(term.covered)
    }

    @Test func theVocabularyFilesListEveryWordUnderItsHead() throws {
        let export = SearchWebExport.build(documents: SearchTestCorpus.documents, glossary: SearchTestCorpus.glossary, shardCount: 64)
        let count = SearchExpansionRules.vocabularyFileCount(shardCount: 64)
        #expect(export.vocabularies.count == count)
        var listed: [String: Int] = [:]
        for (i, data) in export.vocabularies.enumerated() {
            let file = try #require(WebVocabularyFile([UInt8](data), number: i, framing: .json))
            #expect(file.write(number: i, framing: .json) == data)
            for (word, df) in file.words {
                #expect(WebVocabularyFile.place(of: word, fileCount: count)?.file == i)
                listed[word] = df
            }
        }
        #expect(listed["scrolledgeappearance"] == 1)
        #expect(listed["appearance"] == Int(Self.index.documentFrequency[Int(Self.index.tokens.find("appearance"))]))
        #expect(listed["的的"] == nil && listed["ios"] == nil && listed["~c:color"] == nil)
        let meta = try #require(try JSONSerialization.jsonObject(with: export.meta) as? [String: Any])
        let expansion = try #require(meta["expansion"] as? [String: Any])
        #expect(expansion["vocabularyFiles"] as? Int == count)
    }

    @Test func kbSearchSaysWhenAHitCameFromAnExpansion() throws {
        let dir = SearchCommandTests.makeKnowledgeBase()
        defer { TestSupport.remove(dir) }
        TestSupport.write(TestSupport.entry(id: "appearance-en", lang: "en", body: "## Problem\n\nThe scrollEdgeAppearance is transparent.\n"),
                          to: dir + "/entries/appearance-en/entry.md")
        let prefix = TestSupport.kb(["search", "scrolledgeappear"], in: dir)
        #expect(prefix.code == 0, "\(prefix.stderr)")
        #expect(prefix.stdout.contains("via prefix: scrolledgeappear → scrolledgeappearance"))
        let typo = TestSupport.kb(["search", "apperance", "--explain"], in: dir)
        #expect(typo.stdout.contains("via typo: apperance → appearance"))
        #expect(typo.stdout.contains("via typo appearance +"))
        let json = TestSupport.kb(["search", "apperance", "--format", "json"], in: dir)
        let hits = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let via = try #require(hits.first?["viaExpansions"] as? [[String: Any]])
        #expect(via.first?["token"] as? String == "appearance" && via.first?["kind"] as? String == "typo")
    }
}
