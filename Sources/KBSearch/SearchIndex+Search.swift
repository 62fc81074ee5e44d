import Foundation
import KBCore

/// An analysed query: distinct tokens with their ids and IDFs, and adjacent pairs.
/// Literal tokens come first (`0..<literalCount`), then concept tokens.
struct PreparedQuery {
    var tokens: [String] = []
    var ids: [Int32] = []
    var idfs: [Double] = []
    /// Σ idf over the literal tokens.
    var sumIdf: Double = 0
    var literalCount = 0
    /// Pairs of indexes into `tokens`: (a, b) where b directly follows a in the query.
    var pairs: [(Int, Int)] = []
    /// For a literal token: the concept tokens whose matches overlap one of its occurrences (ascending).
    var coveredBy: [[Int]] = []
    /// For a concept token: the literal tokens it covers (ascending).
    var covers: [[Int]] = []
    /// Per pair: the concept tokens with a query match overlapping both tokens of the pair (ascending).
    var pairConcepts: [[Int]] = []
    /// For a literal token: its prefix and typo expansions (docs/search.md §4.1), in order.
    var expansions: [[PreparedExpansion]] = []

    func isConcept(_ qi: Int) -> Bool { qi >= literalCount }
}

/// A vocabulary token a literal query token expands to, with what it scores by.
struct PreparedExpansion {
    var expansion: SearchExpansion
    var id: Int32
    /// `weight × min(idf of the query token, idf of this token)`: multiplies its saturated tf.
    var factor: Double
}

extension SearchIndex {
    func prepare(_ query: String) -> PreparedQuery {
        var tokenizer = SearchTokenizer()
        tokenizer.tokenize(query, mode: .query, glossary: glossary)
        var q = PreparedQuery()
        let searched = leftOutBy(tokenizer).map { $0 == nil }
        var qIndex: [Int] = []
        for k in 0..<tokenizer.count {
            guard searched[k] else { qIndex.append(-1); continue }
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
            if k < tokenizer.literalCount { q.literalCount = q.tokens.count }
        }
        for qi in 0..<q.literalCount { q.sumIdf += q.idfs[qi] }
        let n = tokenizer.count
        let literal = tokenizer.literalCount
        func overlaps(_ x: Int, _ y: Int) -> Bool {
            tokenizer.normalizedStarts[x] < tokenizer.normalizedEnds[y] && tokenizer.normalizedStarts[y] < tokenizer.normalizedEnds[x]
        }
        for a in 0..<literal where searched[a] && tokenizer.kinds[a] != SearchTokenizer.kindIdentifier {
            for b in 0..<literal where searched[b] && tokenizer.kinds[b] != SearchTokenizer.kindIdentifier
                && tokenizer.positions[b] == tokenizer.positions[a] + 1 {
                let pair = (qIndex[a], qIndex[b])
                var pi = q.pairs.firstIndex { $0 == pair } ?? -1
                if pi < 0 { pi = q.pairs.count; q.pairs.append(pair); q.pairConcepts.append([]) }
                for c in literal..<n where overlaps(c, a) && overlaps(c, b) && !q.pairConcepts[pi].contains(qIndex[c]) {
                    q.pairConcepts[pi].append(qIndex[c])
                }
            }
        }
        for i in q.pairConcepts.indices { q.pairConcepts[i].sort() }
        // Coverage: a concept match covers the literal tokens whose normalised ranges overlap it.
        q.coveredBy = Array(repeating: [], count: q.tokens.count)
        q.covers = Array(repeating: [], count: q.tokens.count)
        for c in literal..<n {
            for l in 0..<literal where searched[l] && overlaps(c, l) {
                let qc = qIndex[c], ql = qIndex[l]
                if !q.covers[qc].contains(ql) { q.covers[qc].append(ql) }
                if !q.coveredBy[ql].contains(qc) { q.coveredBy[ql].append(qc) }
            }
        }
        for i in 0..<q.tokens.count { q.covers[i].sort(); q.coveredBy[i].sort() }

        // Expansions of the literal tokens: completions of the token that ends the query, and
        // corrections of tokens the index barely knows.
        let queryEnd = Int32(tokenizer.normalized.count)
        var isLast = [Bool](repeating: false, count: q.literalCount)
        for k in 0..<literal where searched[k] && tokenizer.normalizedEnds[k] == queryEnd { isLast[qIndex[k]] = true }
        let exclude = Set(q.tokens[0..<q.literalCount])
        var candidatesOfHead: [String: [SearchExpansionRules.Candidate]] = [:]
        for qi in 0..<q.literalCount {
            let scalars = q.tokens[qi].unicodeScalars.map(\.value)
            let df = q.ids[qi] >= 0 ? Int(documentFrequency[Int(q.ids[qi])]) : 0
            let canPrefix = isLast[qi] && scalars.count >= SearchExpansionRules.prefixMinLength
            let canTypo = scalars.count >= SearchExpansionRules.typoMinLength && df <= SearchExpansionRules.typoMaxDocumentFrequency
            guard (canPrefix || canTypo) && SearchExpansionRules.isWordShaped(scalars) else {
                q.expansions.append([])
                continue
            }
            let head = SearchExpansionRules.headKey(scalars)
            if candidatesOfHead[head] == nil { candidatesOfHead[head] = expansionCandidates(head: head) }
            let found = SearchExpansionRules.expansions(of: q.tokens[qi], scalars: scalars, df: df, isLast: isLast[qi],
                                                        candidates: candidatesOfHead[head]!, exclude: exclude)
            q.expansions.append(found.map { e in
                let id = tokens.find(e.token)
                let factor = SearchExpansionRules.weight(e.kind) * min(q.idfs[qi], idf[Int(id)])
                return PreparedExpansion(expansion: e, id: id, factor: factor)
            })
        }
        return q
    }

    /// The listed vocabulary words (docs/search.md §6, vocabulary files) whose head key is `head`.
    func expansionCandidates(head: String) -> [SearchExpansionRules.Candidate] {
        let key = Array(head.utf8)
        var out: [SearchExpansionRules.Candidate] = []
        let bytes = tokens.bytes
        for t in 0..<tokens.count {
            let lo = tokens.start(t), hi = Int(tokens.ends[t])
            guard hi - lo >= SearchExpansionRules.vocabularyMinLength, bytes[lo..<hi].starts(with: key) else { continue }
            let token = tokens.string(t)
            let scalars = token.unicodeScalars.map(\.value)
            guard SearchExpansionRules.isListed(scalars) else { continue }
            out.append(.init(token: token, scalars: scalars, df: Int(documentFrequency[t])))
        }
        return out
    }

    /// Whether token `id` has a record in document `d`.
    func hasRecord(_ id: Int32, doc d: Int) -> Bool {
        guard id >= 0, let list = postingList(id) else { return false }
        return Self.firstRecord(of: d, in: list) < list.count
    }

    /// Index of the first record of document `d` in `list`, or `list.count` when it has none.
    static func firstRecord(of d: Int, in list: PostingList) -> Int {
        var lo = 0, hi = list.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if Int(list.doc[mid]) < d { lo = mid + 1 } else { hi = mid }
        }
        return lo < list.count && Int(list.doc[lo]) == d ? lo : list.count
    }

    /// Concepts through which `d` matched literal query tokens it does not contain.
    func viaGlossary(doc d: Int, query q: PreparedQuery) -> [String] {
        var out: [String] = []
        for qc in q.literalCount..<q.tokens.count where hasRecord(q.ids[qc], doc: d) {
            if q.covers[qc].contains(where: { !hasRecord(q.ids[$0], doc: d) }),
               let id = SearchGlossary.conceptID(ofToken: q.tokens[qc]) {
                out.append(id)
            }
        }
        return out
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
        // Posting lists of the query tokens, literal and concept (decoded on first use), and of
        // the literal tokens' expansions.
        let lists: [PostingList?] = q.ids.map { $0 >= 0 ? postingList($0) : nil }
        let expansionLists: [[(factor: Double, list: PostingList?)]] = q.expansions.map { list in
            list.map { ($0.factor, postingList($0.id)) }
        }
        var bm25 = [Double](repeating: 0, count: n)
        var matched = [Double](repeating: 0, count: n)
        var seen = [Bool](repeating: false, count: n)
        var touched: [Int32] = []
        var tfs = [Int](repeating: 0, count: fc)
        let conceptWeight = parameters.conceptWeight
        let hasConcepts = q.literalCount < q.tokens.count
        let hasExpansions = q.expansions.contains { !$0.isEmpty }
        let stamped = hasConcepts || hasExpansions
        /// Per concept token: (doc, saturated tf) for the allowed documents that have it.
        var conceptSat = [[(Int32, Double)]](repeating: [], count: q.tokens.count)
        var literalStamp = [Int32](repeating: -1, count: stamped ? n : 0)
        var bestStamp = [Int32](repeating: -1, count: stamped ? n : 0)
        /// Per document: the best `min(idf(q), idf(c)) × sat_c` over the concepts covering `q`.
        var bestConcept = [Double](repeating: 0, count: stamped ? n : 0)
        var expansionStamp = [Int32](repeating: -1, count: hasExpansions ? n : 0)
        var expansionBest = [Double](repeating: 0, count: hasExpansions ? n : 0)
        var credited: [Int32] = []
        var expansionCredited: [Int32] = []

        do {
            let tfield = textField, dts = docTextStart, flen = fieldLengths
            /// Calls `body(doc, tfTilde)` for each allowed document with records in `list`.
            func scan(_ list: PostingList?, _ body: (Int, Double) -> Void) {
                guard let list else { return }
                let rd = list.doc, rt = list.text, rf = list.tf
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
                    body(d, tfTilde)
                }
            }
            for qc in q.literalCount..<q.tokens.count where !q.covers[qc].isEmpty {
                scan(lists[qc]) { d, tfTilde in conceptSat[qc].append((Int32(d), tfTilde * (k1 + 1) / (tfTilde + k1))) }
            }
            for qi in 0..<q.literalCount {
                let idfq = q.idfs[qi]
                let stamp = Int32(qi)
                // Through the glossary: a covering concept scores like a literal token as rare as
                // the concept (and never weighs more than the token typed); the best concept counts.
                credited.removeAll(keepingCapacity: true)
                for qc in q.coveredBy[qi] {
                    let conceptIdf = min(idfq, q.idfs[qc])
                    for (d32, sat) in conceptSat[qc] {
                        let d = Int(d32)
                        let v = conceptIdf * sat
                        if bestStamp[d] != stamp {
                            bestStamp[d] = stamp
                            bestConcept[d] = v
                            credited.append(d32)
                        } else if v > bestConcept[d] {
                            bestConcept[d] = v
                        }
                    }
                }
                // Through an expansion: the best of factor × saturated tf.
                expansionCredited.removeAll(keepingCapacity: true)
                for (factor, list) in expansionLists[qi] {
                    scan(list) { d, tfTilde in
                        let v = factor * (tfTilde * (k1 + 1) / (tfTilde + k1))
                        if expansionStamp[d] != stamp {
                            expansionStamp[d] = stamp
                            expansionBest[d] = v
                            expansionCredited.append(Int32(d))
                        } else if v > expansionBest[d] {
                            expansionBest[d] = v
                        }
                    }
                }
                let expands = !expansionLists[qi].isEmpty
                // A token counts once per document: literally, through a concept or through an
                // expansion, whichever gives more.
                scan(lists[qi]) { d, tfTilde in
                    var s = idfq * tfTilde * (k1 + 1) / (tfTilde + k1)
                    if stamped {
                        literalStamp[d] = stamp
                        if bestStamp[d] == stamp { s = max(s, conceptWeight * bestConcept[d]) }
                        if expands && expansionStamp[d] == stamp { s = max(s, expansionBest[d]) }
                    }
                    if !seen[d] { seen[d] = true; touched.append(Int32(d)) }
                    bm25[d] += s
                    matched[d] += idfq
                }
                for d32 in credited where literalStamp[Int(d32)] != stamp {
                    let d = Int(d32)
                    var s = conceptWeight * bestConcept[d]
                    if expands && expansionStamp[d] == stamp { s = max(s, expansionBest[d]) }
                    if !seen[d] { seen[d] = true; touched.append(d32) }
                    bm25[d] += s
                    matched[d] += idfq
                }
                for d32 in expansionCredited where literalStamp[Int(d32)] != stamp && bestStamp[Int(d32)] != stamp {
                    let d = Int(d32)
                    if !seen[d] { seen[d] = true; touched.append(d32) }
                    bm25[d] += expansionBest[d]
                    matched[d] += idfq
                }
            }
        }
        if touched.isEmpty { return [] }

        // Adjacency: for each query pair, texts where b follows a, or that contain a concept
        // whose query match spans both tokens.
        var maxPairs = [Int32](repeating: 0, count: n)
        var pairCount = [Int32](repeating: 0, count: q.pairs.isEmpty ? 0 : textField.count)
        if !q.pairs.isEmpty {
            // A text counts a pair once: only a pair with concepts can meet a text twice.
            let hasPairConcepts = q.pairConcepts.contains { !$0.isEmpty }
            var pairStamp = [Int32](repeating: -1, count: hasPairConcepts ? textField.count : 0)
            do {
                for (pi, (a, bq)) in q.pairs.enumerated() {
                    let stamp = Int32(pi)
                    func count(_ d: Int, _ gt: Int) {
                        if let allowed, !allowed[d] { return }
                        if hasPairConcepts {
                            if pairStamp[gt] == stamp { return }
                            pairStamp[gt] = stamp
                        }
                        pairCount[gt] += 1
                        if pairCount[gt] > maxPairs[d] { maxPairs[d] = pairCount[gt] }
                    }
                    if let la = lists[a], let lb = lists[bq] { forEachAdjacent(la, lb, count) }
                    for qc in q.pairConcepts[pi] {
                        guard let lc = lists[qc] else { continue }
                        for r in 0..<lc.count {
                            let d = Int(lc.doc[r])
                            count(d, Int(docTextStart[d]) + Int(lc.text[r]))
                        }
                    }
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
            let best = bestText(doc: d, query: q, lists: lists, expansionLists: expansionLists, pairCount: pairCount)
            let gt = Int(docTextStart[d]) + best
            let via = hasExpansions ? viaExpansions(doc: d, query: q) : []
            var snippet: SearchSnippet? = nil
            if snippetLength > 0, let texts = texts(ofDocument: d), best < texts.count {
                snippet = SearchSnippetMaker.snippet(texts[best], queryTokens: queryTokens.union(via.map(\.token)), length: snippetLength,
                                                     glossary: textField[gt] == UInt8(SearchField.code.rawValue) ? .empty : glossary)
            }
            return SearchResult(id: ids[d], score: score, docIndex: d, field: SearchField(rawValue: Int(textField[gt]))!,
                                textIndex: best, anchor: string(textAnchor[gt]), label: string(textLabel[gt]), snippet: snippet,
                                viaGlossary: hasConcepts ? viaGlossary(doc: d, query: q) : [], viaExpansions: via)
        }
    }

    /// The expansions through which `d` matched literal query tokens it does not contain (in
    /// query order, then expansion order).
    func viaExpansions(doc d: Int, query q: PreparedQuery) -> [SearchExpansion] {
        var out: [SearchExpansion] = []
        for qi in 0..<q.literalCount where !q.expansions[qi].isEmpty && !hasRecord(q.ids[qi], doc: d) {
            for e in q.expansions[qi] where hasRecord(e.id, doc: d) { out.append(e.expansion) }
        }
        return out
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
    private func bestText(doc d: Int, query q: PreparedQuery, lists: [PostingList?],
                          expansionLists: [[(factor: Double, list: PostingList?)]], pairCount: [Int32]) -> Int {
        let count = Int(docTextStart[d + 1] - docTextStart[d])
        var sums = [Double](repeating: 0, count: count)
        /// Texts of `d` with records in `list`.
        func texts(_ list: PostingList?, _ body: (Int) -> Void) {
            guard let list else { return }
            var r = SearchIndex.firstRecord(of: d, in: list)
            while r < list.count && Int(list.doc[r]) == d {
                body(Int(list.text[r]))
                r += 1
            }
        }
        // A text counts a query token's idf when it contains the token, else the largest of
        // conceptWeight × min(idf, the concept's idf) for a concept covering it that it contains
        // and an expansion's factor for an expansion it contains.
        var stamp = [Int](repeating: -1, count: count)
        var alternative = [Double](repeating: 0, count: count)
        var touchedTexts: [Int] = []
        for qi in 0..<q.literalCount {
            texts(lists[qi]) { t in stamp[t] = qi; sums[t] += q.idfs[qi] }
            touchedTexts.removeAll(keepingCapacity: true)
            func offer(_ t: Int, _ v: Double) {
                if stamp[t] == qi { return }
                if stamp[t] != -2 - qi { stamp[t] = -2 - qi; alternative[t] = v; touchedTexts.append(t) }
                else if v > alternative[t] { alternative[t] = v }
            }
            for qc in q.coveredBy[qi] {
                let weight = parameters.conceptWeight * min(q.idfs[qi], q.idfs[qc])
                texts(lists[qc]) { t in offer(t, weight) }
            }
            for (factor, list) in expansionLists[qi] { texts(list) { t in offer(t, factor) } }
            for t in touchedTexts { sums[t] += alternative[t] }
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

/// How a document scores for a query, per query token (`kb search --explain`).
public struct SearchExplanation: Sendable {
    public struct Term: Sendable {
        public var token: String
        public var idf: Double
        /// BM25F contribution of the token itself.
        public var literal: Double
        /// Contribution through the glossary: conceptWeight × the best `min(idf, the concept's idf) ×
        /// saturated tf of the concept` over the covering concepts.
        public var viaConcept: Double
        /// The covering concept with that best contribution, if any.
        public var concept: String?
        /// That concept's own idf (`viaConcept` uses the smaller of it and `idf`).
        public var conceptIdf: Double = 0
        /// Contribution through a prefix or typo expansion: weight × min(idf, the expansion's
        /// idf) × the expansion's saturated tf, the best over the token's expansions.
        public var viaExpansion: Double = 0
        /// The expansion with that best contribution, if any.
        public var expansion: SearchExpansion?
        /// Whether the token counts for coverage (found literally or through a concept).
        public var covered: Bool
        /// Term frequency of the token per field name.
        public var fields: [String: Int]
    }
    public var terms: [Term]
    public var bm25: Double
    public var coverage: Double
    public var adjacency: Double
}

extension SearchIndex {
    /// How document `d` scores for `query`: the terms of the ranking formula per literal query
    /// token, for people tuning entries and the glossary (not used for ranking).
    public func explain(query: String, doc d: Int) -> SearchExplanation {
        let q = prepare(query)
        let fc = SearchIndex.fieldCount
        let k1 = parameters.k1
        func tfTilde(_ id: Int32) -> (Double, [String: Int]) {
            var tfs = [Int](repeating: 0, count: fc)
            if id >= 0, let list = postingList(id) {
                var r = SearchIndex.firstRecord(of: d, in: list)
                while r < list.count && Int(list.doc[r]) == d {
                    tfs[Int(textField[Int(docTextStart[d]) + Int(list.text[r])])] += Int(list.tf[r])
                    r += 1
                }
            }
            var t = 0.0
            var fields: [String: Int] = [:]
            for f in 0..<fc where tfs[f] > 0 {
                let len = Double(fieldLengths[d * fc + f])
                let avg = averageFieldLengths[f]
                let norm = avg > 0 ? (1 - parameters.b) + parameters.b * (len / avg) : 1.0
                t += parameters.fieldWeights[f] * Double(tfs[f]) / norm
                fields[SearchField(rawValue: f)!.name] = tfs[f]
            }
            return (t, fields)
        }
        var terms: [SearchExplanation.Term] = []
        var bm25 = 0.0, matched = 0.0
        for qi in 0..<q.literalCount {
            let idfq = q.idfs[qi]
            let has = hasRecord(q.ids[qi], doc: d)
            let (t, fields) = tfTilde(q.ids[qi])
            let literal = has ? idfq * t * (k1 + 1) / (t + k1) : 0
            var best = -1.0, concept: String? = nil, conceptIdf = 0.0
            for qc in q.coveredBy[qi] where hasRecord(q.ids[qc], doc: d) {
                let (tc, _) = tfTilde(q.ids[qc])
                let v = min(idfq, q.idfs[qc]) * (tc * (k1 + 1) / (tc + k1))
                if v > best { best = v; concept = SearchGlossary.conceptID(ofToken: q.tokens[qc]); conceptIdf = q.idfs[qc] }
            }
            let via = best >= 0 ? parameters.conceptWeight * best : 0
            var viaExpansion = -1.0, expansion: SearchExpansion? = nil
            for e in q.expansions[qi] where hasRecord(e.id, doc: d) {
                let (te, _) = tfTilde(e.id)
                let v = e.factor * (te * (k1 + 1) / (te + k1))
                if v > viaExpansion { viaExpansion = v; expansion = e.expansion }
            }
            bm25 += max(literal, via, viaExpansion)
            let covered = has || best >= 0 || expansion != nil
            if covered { matched += idfq }
            terms.append(.init(token: q.tokens[qi], idf: idfq, literal: literal, viaConcept: via, concept: concept,
                               conceptIdf: conceptIdf, viaExpansion: max(0, viaExpansion), expansion: expansion, covered: covered, fields: fields))
        }
        let results = search(query: query, limit: ids.count, snippetLength: 0)
        let coverage = q.sumIdf > 0 ? matched / q.sumIdf : 0
        let score = results.first { $0.docIndex == d }?.score ?? 0
        let adjacency = bm25 * coverage > 0 ? score / (bm25 * coverage) : 1
        return SearchExplanation(terms: terms, bm25: bm25, coverage: coverage, adjacency: adjacency)
    }
}
