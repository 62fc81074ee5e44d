import KBCore
/// Builds snippets with highlight ranges (docs/search.md, "Snippets").
enum SearchSnippetMaker {
    static func snippet(_ text: String, queryTokens: Set<String>, length: Int, glossary: SearchGlossary = .empty) -> SearchSnippet {
        var table = TokenTable(capacity: queryTokens.count)
        for q in queryTokens {
            var b = Array(q.utf8)
            if b.isEmpty { continue }
            let h = SearchScalars.fnv1a32(b)
            b.withUnsafeMutableBufferPointer { _ = table.intern($0.baseAddress!, $0.count, hash: h) }
        }
        var tokenizer = SearchTokenizer()
        tokenizer.tokenize(text, mode: .document, glossary: glossary)
        var ranges: [Range<Int>] = []
        let bytes = tokenizer.bytes, ends = tokenizer.ends, hashes = tokenizer.hashes
        bytes.withUnsafeBufferPointer { b in
            var start = 0
            for k in 0..<tokenizer.count {
                let end = Int(ends[k])
                if table.find(b.baseAddress! + start, end - start, hash: hashes[k]) >= 0 {
                    ranges.append(Int(tokenizer.sourceStarts[k])..<Int(tokenizer.sourceEnds[k]))
                }
                start = end
            }
        }
        ranges.sort { $0.lowerBound < $1.lowerBound || ($0.lowerBound == $1.lowerBound && $0.upperBound < $1.upperBound) }
        var merged: [Range<Int>] = []
        for r in ranges {
            if let last = merged.last, r.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, r.upperBound)
            } else {
                merged.append(r)
            }
        }
        let scalars = Array(text.unicodeScalars)
        let n = scalars.count
        let context = length / 6
        var ws = 0
        if !merged.isEmpty {
            // The ranges inside a window [s, e) are those from the first that starts at s or later
            // to the last that ends by e: `merged` is sorted and its ranges are apart, so both ends
            // only move forward as the windows do (linear, not quadratic, in the matches).
            var bestCount = -1
            var first = 0, past = 0
            for h in merged {
                let s = max(0, min(h.lowerBound - context, n - length))
                let e = min(n, s + length)
                while first < merged.count && merged[first].lowerBound < s { first += 1 }
                while past < merged.count && merged[past].upperBound <= e { past += 1 }
                let c = max(0, past - first)
                if c > bestCount { bestCount = c; ws = s }
            }
        }
        let we = min(n, ws + length)
        // Copy the window, collapsing whitespace runs into one space, and remap offsets.
        var out = String.UnicodeScalarView()
        var map = [Int](repeating: 0, count: we - ws + 1)
        var o = 0
        var lastSpace = false
        for i in ws..<we {
            map[i - ws] = o
            let v = scalars[i].value
            let space = v == 0x20 || v == 0x09 || v == 0x0A || v == 0x0D
            if space {
                if !lastSpace { out.append(" "); o += 1 }
            } else {
                out.append(scalars[i]); o += 1
            }
            lastSpace = space
        }
        map[we - ws] = o
        var highlights: [Range<Int>] = []
        for h in merged {
            let s = max(h.lowerBound, ws), e = min(h.upperBound, we)
            if s < e { highlights.append(map[s - ws]..<map[e - ws]) }
        }
        return SearchSnippet(text: String(out), highlights: highlights, truncatedStart: ws > 0, truncatedEnd: we < n)
    }
}

extension SearchIndex {
    /// A snippet of `text` around the tokens of `query`, as `search` makes it; with a
    /// glossary, the terms of the query's concepts are highlighted too.
    public static func snippet(_ text: String, query: String, length: Int = 120, glossary: SearchGlossary = .empty) -> SearchSnippet {
        let tokens = Set(SearchAnalyzer.tokenize(query, mode: .query, glossary: glossary))
        return SearchSnippetMaker.snippet(text, queryTokens: tokens, length: length, glossary: glossary)
    }
}

extension SearchIndex {
    /// The snippet of a result's best text, for callers that searched with `snippetLength: 0`.
    public func snippet(for result: SearchResult, query: String, length: Int = 120) -> SearchSnippet {
        let gt = Int(docTextStart[result.docIndex]) + result.textIndex
        let text = texts(ofDocument: result.docIndex).flatMap { result.textIndex < $0.count ? $0[result.textIndex] : nil } ?? ""
        return SearchIndex.snippet(text, query: query, length: length,
                                   glossary: textField[gt] == UInt8(SearchField.code.rawValue) ? .empty : glossary)
    }
}
