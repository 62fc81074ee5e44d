import Foundation

/// An analysed query: distinct tokens with their ids and IDFs, and adjacent pairs.
struct PreparedQuery {
    var tokens: [String] = []
    var ids: [Int32] = []
    var idfs: [Double] = []
    var sumIdf: Double = 0
    /// Pairs of indexes into `tokens`: (a, b) where b directly follows a in the query.
    var pairs: [(Int, Int)] = []
}

extension SearchIndex {
    func prepare(_ query: String) -> PreparedQuery {
        var tokenizer = SearchTokenizer()
        tokenizer.tokenize(query, mode: .query)
        var q = PreparedQuery()
        var qIndex: [Int] = []
        for k in 0..<tokenizer.count {
            let s = tokenizer.string(at: k)
            if let i = q.tokens.firstIndex(of: s) {
                qIndex.append(i)
            } else {
                qIndex.append(q.tokens.count)
                q.tokens.append(s)
                let id = tokens.find(s)
                q.ids.append(id)
                q.idfs.append(id >= 0 ? idf[Int(id)] : idfUnknown)
            }
        }
        for v in q.idfs { q.sumIdf += v }
        let n = tokenizer.count
        for a in 0..<n where tokenizer.kinds[a] != SearchTokenizer.kindIdentifier {
            for b in 0..<n where tokenizer.kinds[b] != SearchTokenizer.kindIdentifier
                && tokenizer.positions[b] == tokenizer.positions[a] + 1 {
                let pair = (qIndex[a], qIndex[b])
                if !q.pairs.contains(where: { $0 == pair }) { q.pairs.append(pair) }
            }
        }
        return q
    }

    /// Searches the index. Results are sorted by score (descending), then by document order (id).
    public func search(query: String, filters: SearchFilters = .none, limit: Int = 20,
                       snippetLength: Int = 120) -> [SearchResult] {
        let q = prepare(query)
        guard q.sumIdf > 0, limit > 0, !ids.isEmpty else { return [] }
        let n = ids.count
        let fc = SearchIndex.fieldCount
        let k1 = parameters.k1, b = parameters.b, beta = parameters.beta
        let weights = parameters.fieldWeights
        let avg = averageFieldLengths

        var allowed: [Bool]? = nil
        if filters != .none {
            allowed = (0..<n).map { filters.accepts(lang: langs[$0], tags: tags(ofDocument: $0), status: statuses[$0]) }
        }
        // Posting lists of the query tokens (decoded on first use).
        let lists: [PostingList?] = q.ids.map { $0 >= 0 ? postingList($0) : nil }
        var bm25 = [Double](repeating: 0, count: n)
        var matched = [Double](repeating: 0, count: n)
        var seen = [Bool](repeating: false, count: n)
        var touched: [Int32] = []
        var tfs = [Int](repeating: 0, count: fc)

        textField.withUnsafeBufferPointer { tfield in
        docTextStart.withUnsafeBufferPointer { dts in
        fieldLengths.withUnsafeBufferPointer { flen in
            for (qi, list) in lists.enumerated() {
                guard let list else { continue }
                let idfq = q.idfs[qi]
                list.doc.withUnsafeBufferPointer { rd in
                list.text.withUnsafeBufferPointer { rt in
                list.tf.withUnsafeBufferPointer { rf in
                let hi = rd.count
                var r = 0
                while r < hi {
                    let d = Int(rd[r])
                    for f in 0..<fc { tfs[f] = 0 }
                    let base = Int(dts[d])
                    while r < hi && Int(rd[r]) == d {
                        tfs[Int(tfield[base + Int(rt[r])])] += Int(rf[r])
                        r += 1
                    }
                    if let allowed, !allowed[d] { continue }
                    var tfTilde = 0.0
                    for f in 0..<fc where tfs[f] > 0 {
                        let len = Double(flen[d * fc + f])
                        let norm = avg[f] > 0 ? (1 - b) + b * (len / avg[f]) : 1.0
                        tfTilde += weights[f] * Double(tfs[f]) / norm
                    }
                    let s = idfq * tfTilde * (k1 + 1) / (tfTilde + k1)
                    if !seen[d] { seen[d] = true; touched.append(Int32(d)) }
                    bm25[d] += s
                    matched[d] += idfq
                }
                }}}
            }
        }}}
        if touched.isEmpty { return [] }

        // Adjacency: for each query pair, texts where b follows a.
        var maxPairs = [Int32](repeating: 0, count: n)
        var pairCount: [Int32] = []
        if !q.pairs.isEmpty {
            pairCount = [Int32](repeating: 0, count: textField.count)
            for (a, bq) in q.pairs {
                guard let la = lists[a], let lb = lists[bq] else { continue }
                forEachAdjacent(la, lb) { d, gt in
                    if let allowed, !allowed[d] { return }
                    pairCount[gt] += 1
                    if pairCount[gt] > maxPairs[d] { maxPairs[d] = pairCount[gt] }
                }
            }
        }
        let totalPairs = Double(q.pairs.count)

        // Final scores and top-k.
        var top: [(Double, Int)] = []
        top.reserveCapacity(limit + 1)
        for d32 in touched {
            let d = Int(d32)
            let cov = matched[d] / q.sumIdf
            let adj = q.pairs.isEmpty ? 1.0 : 1 + beta * (Double(maxPairs[d]) / totalPairs)
            let score = bm25[d] * cov * adj
            if top.count == limit {
                let last = top[limit - 1]
                if score < last.0 || (score == last.0 && d > last.1) { continue }
            }
            var i = top.count
            while i > 0 && (top[i - 1].0 < score || (top[i - 1].0 == score && top[i - 1].1 > d)) { i -= 1 }
            top.insert((score, d), at: i)
            if top.count > limit { top.removeLast() }
        }

        let queryTokens = Set(q.tokens)
        return top.map { score, d in
            let best = bestText(doc: d, query: q, lists: lists, pairCount: pairCount)
            let gt = Int(docTextStart[d]) + best
            var snippet: SearchSnippet? = nil
            if snippetLength > 0, let texts = texts(ofDocument: d), best < texts.count {
                snippet = SearchSnippetMaker.snippet(texts[best], queryTokens: queryTokens, length: snippetLength)
            }
            return SearchResult(id: ids[d], score: score, docIndex: d, field: SearchField(rawValue: Int(textField[gt]))!,
                                textIndex: best, anchor: string(textAnchor[gt]), label: string(textLabel[gt]), snippet: snippet)
        }
    }

    /// Calls `body(doc, globalText)` for every field text where token `b` directly follows token `a`
    /// (using stored positions).
    private func forEachAdjacent(_ a: PostingList, _ b: PostingList, _ body: (Int, Int) -> Void) {
        let cap = parameters.maxPositions
        var ra = 0, rb = 0
        let ea = a.count, eb = b.count
        while ra < ea && rb < eb {
            let da = a.doc[ra], db = b.doc[rb]
            if da < db || (da == db && a.text[ra] < b.text[rb]) { ra += 1; continue }
            if db < da || (da == db && b.text[rb] < a.text[ra]) { rb += 1; continue }
            // Same doc and text: does some position p of a have p + 1 in b?
            let pa = Int(a.posStart[ra]), na = min(Int(a.tf[ra]), cap)
            let pb = Int(b.posStart[rb]), nb = min(Int(b.tf[rb]), cap)
            var i = 0, j = 0, hit = false
            while i < na && j < nb {
                let want = a.pos[pa + i] + 1
                let have = b.pos[pb + j]
                if have == want { hit = true; break }
                if have < want { j += 1 } else { i += 1 }
            }
            if hit { body(Int(da), Int(docTextStart[Int(da)]) + Int(a.text[ra])) }
            ra += 1
            rb += 1
        }
    }

    /// The text of `doc` that matches best: field weight × matched IDF × phrase factor; first wins ties.
    private func bestText(doc d: Int, query q: PreparedQuery, lists: [PostingList?], pairCount: [Int32]) -> Int {
        let count = Int(docTextStart[d + 1] - docTextStart[d])
        var sums = [Double](repeating: 0, count: count)
        for (qi, list) in lists.enumerated() {
            guard let list else { continue }
            // Binary search the first record of doc d.
            var lo = 0, hi = list.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if Int(list.doc[mid]) < d { lo = mid + 1 } else { hi = mid }
            }
            var r = lo
            while r < list.count && Int(list.doc[r]) == d {
                sums[Int(list.text[r])] += q.idfs[qi]
                r += 1
            }
        }
        var best = 0
        var bestScore = -1.0
        let base = Int(docTextStart[d])
        for t in 0..<count {
            var s = parameters.fieldWeights[Int(textField[base + t])] * sums[t]
            if !q.pairs.isEmpty && !pairCount.isEmpty {
                s = s * (1 + parameters.beta * (Double(pairCount[base + t]) / Double(q.pairs.count)))
            }
            if s > bestScore { bestScore = s; best = t }
        }
        return best
    }

    /// The document's text `t` (fields in `SearchField` order), for callers that show results.
    public func fieldText(doc: Int, text t: Int) -> (field: SearchField, text: FieldText) {
        let gt = Int(docTextStart[doc]) + t
        let text = texts(ofDocument: doc).flatMap { t < $0.count ? $0[t] : nil } ?? ""
        return (SearchField(rawValue: Int(textField[gt]))!, FieldText(text, anchor: string(textAnchor[gt]), label: string(textLabel[gt])))
    }
}
