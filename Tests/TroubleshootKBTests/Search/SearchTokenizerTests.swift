import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

/// Golden token vectors shared with the node test (Tests/js/search.test.mjs).
/// Re-record with `KB_RECORD_SEARCH=1 swift test --filter Search`, then review the diff.
enum SearchVectors {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let url = directory.appendingPathComponent("token-vectors.json")
    static var recording: Bool { ProcessInfo.processInfo.environment["KB_RECORD_SEARCH"] == "1" }

    struct File: Codable {
        var version: Int
        /// The glossary of the cases marked `glossary` (raw terms; both implementations compile it).
        var glossary: [Concept]
        var cases: [Case]
        var snippets: [Snippet]
    }

    struct Concept: Codable {
        var id: String
        var name: String
        var terms: [String]
    }

    struct Case: Codable {
        var name: String
        var mode: String
        var text: String
        var glossary: Bool?
        var tokens: [Token]
    }

    /// `[text, position, kind, start, end]`.
    struct Token: Codable, Equatable, CustomStringConvertible {
        var text: String
        var position: Int
        var kind: String
        var start: Int
        var end: Int

        init(_ t: AnalyzedToken) {
            text = t.text; position = t.position; kind = t.kind.rawValue; start = t.start; end = t.end
        }

        init(from decoder: Decoder) throws {
            var c = try decoder.unkeyedContainer()
            text = try c.decode(String.self); position = try c.decode(Int.self); kind = try c.decode(String.self)
            start = try c.decode(Int.self); end = try c.decode(Int.self)
        }

        func encode(to encoder: Encoder) throws {
            var c = encoder.unkeyedContainer()
            try c.encode(text); try c.encode(position); try c.encode(kind); try c.encode(start); try c.encode(end)
        }

        var description: String { "[\(text) \(position) \(kind) \(start)..<\(end)]" }
    }

    struct Snippet: Codable {
        var name: String
        var text: String
        var query: String
        var length: Int
        var glossary: Bool?
        var expected: Expected?
    }

    struct Expected: Codable, Equatable {
        var text: String
        var highlights: [[Int]]
        var truncatedStart: Bool
        var truncatedEnd: Bool
    }

    static func load() -> File {
        let data = try! Data(contentsOf: url)
        return try! JSONDecoder().decode(File.self, from: data)
    }

    static func glossary(_ file: File) -> SearchGlossary {
        SearchGlossary(concepts: file.glossary.map { SearchGlossary.Concept(id: $0.id, name: $0.name, terms: $0.terms) })
    }

    static func analyze(_ c: Case, _ glossary: SearchGlossary) -> [Token] {
        SearchAnalyzer.analyze(c.text, mode: c.mode == "query" ? .query : .document,
                               glossary: c.glossary == true ? glossary : .empty).map(Token.init)
    }

    static func snippet(_ s: Snippet, _ glossary: SearchGlossary) -> Expected {
        let r = SearchIndex.snippet(s.text, query: s.query, length: s.length, glossary: s.glossary == true ? glossary : .empty)
        return Expected(text: r.text, highlights: r.highlights.map { [$0.lowerBound, $0.upperBound] },
                        truncatedStart: r.truncatedStart, truncatedEnd: r.truncatedEnd)
    }

    /// Writes the file with one token per line, so diffs are reviewable.
    static func write(_ file: File) throws {
        var w = JSONWriter()
        w.raw("{\n\"version\": \(file.version),\n\"glossary\": [")
        for (i, c) in file.glossary.enumerated() {
            w.raw(i == 0 ? "\n  " : ",\n  ")
            w.raw("{\"id\": "); w.string(c.id); w.raw(", \"name\": "); w.string(c.name); w.raw(", \"terms\": [")
            for (j, t) in c.terms.enumerated() { if j > 0 { w.raw(", ") }; w.string(t) }
            w.raw("]}")
        }
        w.raw("\n],\n\"cases\": [\n")
        for (i, c) in file.cases.enumerated() {
            w.raw("{\"name\": "); w.string(c.name); w.raw(", \"mode\": "); w.string(c.mode)
            w.raw(", \"text\": "); w.string(c.text)
            if c.glossary == true { w.raw(", \"glossary\": true") }
            w.raw(",\n \"tokens\": [")
            for (j, t) in c.tokens.enumerated() {
                w.raw(j == 0 ? "\n  [" : ",\n  [")
                w.string(t.text); w.raw(", \(t.position), "); w.string(t.kind); w.raw(", \(t.start), \(t.end)]")
            }
            w.raw(c.tokens.isEmpty ? "]}" : "\n ]}")
            w.raw(i + 1 < file.cases.count ? ",\n" : "\n")
        }
        w.raw("],\n\"snippets\": [\n")
        for (i, s) in file.snippets.enumerated() {
            w.raw("{\"name\": "); w.string(s.name); w.raw(", \"query\": "); w.string(s.query)
            w.raw(", \"length\": \(s.length)")
            if s.glossary == true { w.raw(", \"glossary\": true") }
            w.raw(",\n \"text\": "); w.string(s.text)
            w.raw(",\n \"expected\": ")
            if let e = s.expected {
                w.raw("{\"text\": "); w.string(e.text); w.raw(", \"highlights\": [")
                w.raw(e.highlights.map { "[\($0[0]), \($0[1])]" }.joined(separator: ", "))
                w.raw("], \"truncatedStart\": \(e.truncatedStart), \"truncatedEnd\": \(e.truncatedEnd)}")
            } else {
                w.raw("null")
            }
            w.raw(i + 1 < file.snippets.count ? "},\n" : "}\n")
        }
        w.raw("]\n}\n")
        try Data(w.bytes).write(to: url)
    }
}

@Suite(.serialized) struct SearchTokenizerTests {
    static let caseNames = SearchVectors.load().cases.map(\.name)
    static let snippetNames = SearchVectors.load().snippets.map(\.name)

    @Test func recordVectorsIfRequested() throws {
        guard SearchVectors.recording else { return }
        var file = SearchVectors.load()
        let glossary = SearchVectors.glossary(file)
        for i in file.cases.indices { file.cases[i].tokens = SearchVectors.analyze(file.cases[i], glossary) }
        for i in file.snippets.indices { file.snippets[i].expected = SearchVectors.snippet(file.snippets[i], glossary) }
        try SearchVectors.write(file)
    }

    @Test(arguments: caseNames)
    func goldenTokens(name: String) {
        guard !SearchVectors.recording else { return }
        let file = SearchVectors.load()
        let c = file.cases.first { $0.name == name }!
        #expect(SearchVectors.analyze(c, SearchVectors.glossary(file)) == c.tokens, "\(name): \(c.text)")
    }

    @Test(arguments: snippetNames)
    func goldenSnippets(name: String) {
        guard !SearchVectors.recording else { return }
        let file = SearchVectors.load()
        let s = file.snippets.first { $0.name == name }!
        #expect(SearchVectors.snippet(s, SearchVectors.glossary(file)) == s.expected)
    }

    @Test func identifierParts() {
        #expect(SearchAnalyzer.tokenize("UINavigationBarAppearance") == ["uinavigationbarappearance", "ui", "navigation", "bar", "appearance"])
        #expect(SearchAnalyzer.tokenize("toolbarColorScheme") == ["toolbarcolorscheme", "toolbar", "color", "scheme"])
        #expect(SearchAnalyzer.tokenize("UINavigationBar.appearance") == ["uinavigationbar.appearance", "uinavigationbar", "ui", "navigation", "bar", "appearance"])
    }

    @Test func normalisationFoldsWidthAndComposes() {
        #expect(SearchAnalyzer.normalize("ＵＩＫｉｔ　ｶﾞ") == "UIKit ガ")
        #expect(SearchAnalyzer.normalize("cafe\u{301}") == "café")
        // Piecewise NFKC agrees with whole-string NFKC.
        let samples = ["ﾃﾞｰﾀ①㍿ ﬁ", "한\u{11AB}글 ㅋ", "e\u{301}\u{323}x", "ＡＢＣ\u{301}", "\u{301}abc"]
        for s in samples {
            // As UTF-8: String's == would take canonically equivalent strings as equal.
            #expect(Array(SearchAnalyzer.normalize(s).utf8) == Array(s.decomposedStringWithCompatibilityMapping.precomposedStringWithCanonicalMapping.utf8))
        }
    }

    @Test func cjkRunsGiveBigramsAndUnigrams() {
        #expect(SearchAnalyzer.tokenize("色が") == ["色", "色が", "が"])
        #expect(SearchAnalyzer.tokenize("색상", mode: .query) == ["색상"])
        #expect(SearchAnalyzer.tokenize("的", mode: .query) == ["的"])
    }

    /// Index mode (tokens interned as they are made, CJK tokens looked up by their scalars,
    /// Latin runs replayed, the fast normalisation path) gives the same tokens and positions as
    /// the analyser, on texts that exercise every path (NFKC segments, combining marks, width
    /// folding, astral scalars, dotted identifiers, repeated runs) and on random ones.
    @Test func indexModeMatchesTheAnalyser() {
        var texts = ["ﾃﾞｰﾀ①㍿ ﬁ 한\u{11AB}글 ㅋ", "e\u{301}\u{323}x cafe\u{301} \u{301}abc", "ＵＩＫｉｔ　ｶﾞ 色が 色が",
                     "𠀋𠀋字 𩸽の煮付け 😀 UINavigationBar.appearance toolbarColorScheme toolbarColorScheme",
                     "结果：失败。导航栏标题颜色不生效，导航栏标题颜色", "네비게이션 바 그림자 네비게이션", "URLs URLSession a.b.c x_y_z 2x3 iOS17"]
        let pieces = ["导航", "栏", "标题", "颜色", "네비", "게이션", "バー", "ｶﾞ", "①", "e\u{301}", "\u{301}", "Ａ", "ab", "URLSession",
                      "x.y", "_", " ", "，", "。", "\n", "𠀋", "ﬁ", "ㅋ", "\u{3099}", "1", "é"]
        var rng = SplitMix64(state: 7)
        for _ in 0..<300 {
            var text = ""
            for _ in 0..<Int.random(in: 1...24, using: &rng) { text += pieces.randomElement(using: &rng)! }
            texts.append(text)
        }
        for text in texts {
            // The piecewise normalisation agrees with NFKC of the whole text.
            // (Compared as UTF-8: String's == would take canonically equivalent strings as equal.)
            #expect(Array(SearchAnalyzer.normalize(text).utf8)
                    == Array(text.decomposedStringWithCompatibilityMapping.precomposedStringWithCanonicalMapping.utf8),
                    "\(text.debugDescription)")
        }
        for glossary in [SearchGlossary.empty, SearchTestCorpus.glossary] {
            var index = SearchTokenizer()
            index.tracksSources = false
            index.interning = true
            for text in texts {
                // Twice: the second time, runs and tokens are known.
                for _ in 0..<2 {
                    index.tokenize(text, mode: .document, glossary: glossary)
                    let expected = SearchAnalyzer.analyze(text, glossary: glossary)
                    let table = index.table
                    let got = (0..<index.count).map { table.string(Int(index.ids[$0])) }
                    #expect(got.map { Array($0.utf8) } == expected.map { Array($0.text.utf8) }, "\(text.debugDescription)")
                    #expect((0..<index.count).map { Int(index.positions[$0]) } == expected.map(\.position), "\(text.debugDescription)")
                    #expect(index.literalCount == expected.filter { $0.kind != .concept }.count)
                }
            }
        }
    }

    @Test func tokenHashIsFNV1a() {
        #expect(SearchAnalyzer.tokenHash("") == 2166136261)
        #expect(SearchAnalyzer.tokenHash("a") == 0xE40C292C)
        #expect(SearchAnalyzer.tokenHash("foobar") == 0xBF9CF968)
    }
}

/// SplitMix64: a small deterministic random number generator.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
