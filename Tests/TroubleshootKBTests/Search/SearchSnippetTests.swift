import Testing
@testable import KBSearch

/// The snippet's window (docs/search.md §5): the first window holding the most highlights.
/// `SearchSnippetMaker` finds it in one pass; this checks it against the rule as written (every
/// window counted over every range), on texts with many, few and no matches.
@Suite struct SearchSnippetTests {
    /// The window start by the rule as written: for each merged range, count the ranges inside.
    static func windowStartByTheRule(_ merged: [Range<Int>], n: Int, length: Int) -> Int {
        let context = length / 6
        var ws = 0, bestCount = -1
        for h in merged {
            let s = max(0, min(h.lowerBound - context, n - length))
            let e = min(n, s + length)
            let c = merged.filter { $0.lowerBound >= s && $0.upperBound <= e }.count
            if c > bestCount { bestCount = c; ws = s }
        }
        return ws
    }

    /// Texts of words drawn from a small vocabulary (a seeded generator, so failures repeat),
    /// with the query word `sort` among them at random.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
    func windowIsTheRulesWindow(seed: UInt64) {
        var g = SplitMix64(seed: seed)
        func next(_ bound: Int) -> Int { g.int(bound) }
        let words = ["sort", "version", "tag", "v1.10", "排序", "sort", "release", "並べ替え", "정렬", "x"]
        for length in [20, 60, 120] {
            let count = 1 + next(400)
            let text = (0..<count).map { _ in words[next(words.count)] }.joined(separator: next(3) == 0 ? "\n" : " ")
            let snippet = SearchIndex.snippet(text, query: "sort", length: length)
            let scalars = Array(text.unicodeScalars)
            // The merged highlight ranges of the whole text are those of a snippet as long as it.
            let whole = SearchIndex.snippet(text, query: "sort", length: scalars.count + 1)
            let merged = whole.highlights
            let ws = Self.windowStartByTheRule(merged, n: scalars.count, length: length)
            #expect(snippet.truncatedStart == (ws > 0), "seed \(seed), length \(length)")
            let expected = String(String.UnicodeScalarView(scalars[ws..<min(scalars.count, ws + length)]))
                .split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
            #expect(snippet.text.split(separator: " ").joined(separator: " ") == expected, "seed \(seed), length \(length)")
        }
    }
}
