import Foundation
import KBCore

/// What produced a search token (see docs/search.md, "Tokens").
public enum SearchTokenKind: String, Sendable, Codable, CaseIterable {
    /// Two adjacent characters of a Han/Kana or Hangul run.
    case bigram
    /// One character of a Han/Kana or Hangul run.
    case unigram
    /// A Latin/digit run that is not split into parts.
    case word
    /// A whole identifier: a camelCase/snake_case name or a dotted name.
    case identifier
    /// A part of an identifier.
    case part
    /// A glossary concept (`~c:large-title`) added where one of its terms occurs.
    case concept
}

/// Whether text is analysed for the index or as a query.
public enum SearchAnalysisMode: Sendable {
    /// Han/Kana and Hangul runs give unigrams and bigrams.
    case document
    /// Han/Kana and Hangul runs of two or more characters give bigrams only.
    case query
}

/// A token with its position and the range of original text it came from.
public struct AnalyzedToken: Hashable, Sendable, Codable {
    public var text: String
    public var position: Int
    public var kind: SearchTokenKind
    /// Offsets in Unicode scalars of the original (not normalised) text: `start..<end`.
    public var start: Int
    public var end: Int

    public init(text: String, position: Int, kind: SearchTokenKind, start: Int, end: Int) {
        self.text = text
        self.position = position
        self.kind = kind
        self.start = start
        self.end = end
    }
}

/// The search analyser: normalisation and tokenisation shared by indexing and querying.
public enum SearchAnalyzer {
    /// Tokens of `text` with positions, kinds and source ranges; with a glossary, the concept
    /// tokens of the terms it contains follow the literal tokens.
    public static func analyze(_ text: String, mode: SearchAnalysisMode = .document,
                               glossary: SearchGlossary = .empty) -> [AnalyzedToken] {
        var tokenizer = SearchTokenizer()
        tokenizer.tokenize(text, mode: mode, glossary: glossary)
        return (0..<tokenizer.count).map { i in
            AnalyzedToken(
                text: tokenizer.string(at: i),
                position: Int(tokenizer.positions[i]),
                kind: SearchTokenizer.kinds[Int(tokenizer.kinds[i])],
                start: Int(tokenizer.sourceStarts[i]),
                end: Int(tokenizer.sourceEnds[i]))
        }
    }

    /// The token strings of `text`, in order.
    public static func tokenize(_ text: String, mode: SearchAnalysisMode = .document,
                                glossary: SearchGlossary = .empty) -> [String] {
        analyze(text, mode: mode, glossary: glossary).map(\.text)
    }

    /// NFKC (piecewise, as the tokenizer does it) followed by nothing else; for tests and tools.
    public static func normalize(_ text: String) -> String {
        var tokenizer = SearchTokenizer()
        tokenizer.normalize(text)
        var view = String.UnicodeScalarView()
        for v in tokenizer.normalized { view.append(Unicode.Scalar(v)!) }
        return String(view)
    }

    /// FNV-1a 32-bit hash of the UTF-8 bytes of `token`; shards are `hash % shardCount`.
    public static func tokenHash(_ token: String) -> UInt32 {
        SearchScalars.fnv1a32(token.utf8)
    }

    /// English stop words dropped from words and identifier parts.
    public static let stopWords: [String] = [
        "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it",
        "no", "not", "of", "on", "or", "such", "that", "the", "their", "then", "there", "these",
        "they", "this", "to", "was", "will", "with",
    ]
}

/// Reusable tokenizer with scratch buffers (a value type, so accesses are checked statically).
struct SearchTokenizer {
    static let kinds: [SearchTokenKind] = [.bigram, .unigram, .word, .identifier, .part, .concept]
    static let kindBigram: UInt8 = 0, kindUnigram: UInt8 = 1, kindWord: UInt8 = 2, kindIdentifier: UInt8 = 3, kindPart: UInt8 = 4
    static let kindConcept: UInt8 = 5

    // Normalised text.
    private(set) var original: [UInt32] = []
    private(set) var normalized: [UInt32] = []
    /// Class of each normalised scalar (`SearchScalarClass` raw values).
    private(set) var classes: [UInt8] = []
    /// Whether token kinds and source ranges are recorded (the index does not need them).
    var tracksSources = true
    private var normStart: [Int32] = []
    private var normEnd: [Int32] = []

    // Output.
    private(set) var bytes: [UInt8] = []
    private(set) var ends: [Int32] = []
    private(set) var hashes: [UInt32] = []
    private(set) var positions: [Int32] = []
    private(set) var kinds: [UInt8] = []
    private(set) var sourceStarts: [Int32] = []
    private(set) var sourceEnds: [Int32] = []
    /// Range of each token in normalised scalars: `normalizedStarts[i]..<normalizedEnds[i]`.
    private(set) var normalizedStarts: [Int32] = []
    private(set) var normalizedEnds: [Int32] = []
    var count: Int { interning ? ids.count : ends.count }

    /// Index mode: every token is interned into `table` as it is made and only its id is kept
    /// (`ids`, with `positions`; `bytes`, `ends` and `hashes` stay empty). Han/Kana/Hangul unigrams
    /// and bigrams are looked up by their scalars first, so most tokens never become bytes.
    var interning = false
    private(set) var table = TokenTable()
    private(set) var ids: [Int32] = []
    private var scalarTokens = ScalarTokenMap()
    /// Ids of the unigrams below U+10000 by scalar (-1: none yet; allocated on first use).
    private var unigramIDs: [Int32] = []
    /// Where the tokens of a CJK run are gathered before they join `ids` and `positions`.
    private let scratch = TokenScratch()
    private var latinRuns = LatinRunCache()

    /// Hands over the interned vocabulary (and forgets it).
    mutating func takeTable() -> TokenTable {
        defer { table = TokenTable(); scalarTokens = ScalarTokenMap(); unigramIDs = []; latinRuns = LatinRunCache() }
        return table
    }

    /// Tokens `0..<literalCount` are literal; the rest are concept tokens.
    private(set) var literalCount = 0

    /// Token position of each normalised scalar (only filled when a glossary is used; -1 until the sweep).
    private var scalarPositions: [Int32] = []
    private var trackPositions = false
    private var matchText: [UInt32] = []

    // Scratch for Latin runs.
    private var runBytes: [UInt8] = []
    private var partBytes: [UInt8] = []

    /// `SearchAnalyzer.stopWords` packed (`pack`), sorted: made from the word list, so the list
    /// is the one place to change.
    static let packedStopWords: [UInt64] = SearchAnalyzer.stopWords.map { pack(ArraySlice($0.utf8)) }.sorted()

    /// Whether packed ASCII bytes (big-endian in a UInt64) are a stop word (a binary search of
    /// `packedStopWords`).
    @inline(__always)
    static func isStopWord(_ packed: UInt64) -> Bool {
        let words = packedStopWords
        var low = 0, high = words.count
        while low < high {
            let middle = (low + high) / 2
            if words[middle] < packed { low = middle + 1 } else { high = middle }
        }
        return low < words.count && words[low] == packed
    }

    @inline(__always)
    static func pack(_ b: ArraySlice<UInt8>) -> UInt64 {
        var v: UInt64 = 0
        for x in b { v = (v << 8) | UInt64(x) }
        return v
    }


    func tokenStart(_ i: Int) -> Int { i == 0 ? 0 : Int(ends[i - 1]) }

    func string(at i: Int) -> String {
        String(decoding: bytes[tokenStart(i)..<Int(ends[i])], as: UTF8.self)
    }

    // MARK: Normalisation

    mutating func normalize(_ text: String) {
        normalized.removeAll(keepingCapacity: true)
        classes.removeAll(keepingCapacity: true)
        normStart.removeAll(keepingCapacity: true)
        normEnd.removeAll(keepingCapacity: true)
        // Most scalars stand alone (the next one starts a segment) and are inert or map to one
        // ASCII scalar: those are decoded and written through pointers, up to the first that is
        // not; the rest of the text then goes segment by segment.
        var text = text
        var i = 0
        var finished = false
        text.withUTF8 { buf in
            let bytes = buf.count
            normalized.append(contentsOf: repeatElement(0, count: bytes))
            classes.append(contentsOf: repeatElement(0, count: bytes))
            if tracksSources {
                normStart.append(contentsOf: repeatElement(0, count: bytes))
                normEnd.append(contentsOf: repeatElement(0, count: bytes))
            }
            var at = 0
            SearchScalars.properties.withUnsafeBufferPointer { tableBuffer in
                normalized.withUnsafeMutableBufferPointer { out in
                classes.withUnsafeMutableBufferPointer { cls in
                    (i, at) = Self.normalizeStandalone(buf, into: out, classes: cls, table: tableBuffer.baseAddress!)
                }}
            }
            if tracksSources {
                for k in 0..<i { normStart[k] = Int32(k); normEnd[k] = Int32(k + 1) }
            }
            normalized.removeLast(bytes - i)
            classes.removeLast(bytes - i)
            if tracksSources { normStart.removeLast(bytes - i); normEnd.removeLast(bytes - i) }
            finished = at >= bytes
            if !finished { decodeUTF8(buf) }
        }
        guard !finished else { return }
        let n = original.count
        // The rest, segment by segment (NFKC where needed).
        let source = original
        source.withUnsafeBufferPointer { orig in
            while i < n {
                let c = orig[i]
                var j = i + 1
                while j < n, !SearchScalars.startsSegment(orig[j]) { j += 1 }
                if j == i + 1 {
                    if SearchScalars.isInert(c) {
                        append(c, i, j)
                    } else if let m = SearchScalars.simpleMapping(c) {
                        append(m, i, j)
                    } else {
                        for v in SearchScalars.nfkc(orig[i..<j]) { append(v, i, j) }
                    }
                } else {
                    for v in SearchScalars.nfkc(orig[i..<j]) { append(v, i, j) }
                }
                i = j
            }
        }
    }

    /// The fast path of `normalize`: decodes `buf` from its start while each scalar stands alone
    /// (the next one starts a segment) and is inert or maps to one scalar, writing the scalars
    /// and their classes; stops before the first that is not, and before the scalar ahead of
    /// one that does not start a segment. Returns how many scalars it wrote and how many bytes
    /// they took. The indexes are locals of their own, so that the loop keeps them in registers.
    @inline(__always)
    private static func normalizeStandalone(_ buf: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt32>,
                                            classes cls: UnsafeMutableBufferPointer<UInt8>,
                                            table: UnsafePointer<UInt8>) -> (scalars: Int, bytes: Int) {
        var i = 0, at = 0, previous = 0
        while at < buf.count {
            let (c, width) = decode(buf, at)
            let p = SearchScalars.properties(c, table)
            if p & SearchScalars.segmentBit == 0 {
                // c belongs to the segment of the scalar before: that one goes the slow way too.
                if i > 0 { i -= 1; at = previous }
                break
            }
            if p & SearchScalars.inertBit != 0 {
                out[i] = c
                cls[i] = p & SearchScalars.classMask
            } else if p & SearchScalars.simpleBit != 0 {
                let m = SearchScalars.simpleMapping(c)!
                out[i] = m
                cls[i] = table[Int(m)] & SearchScalars.classMask
            } else {
                break
            }
            i += 1
            previous = at
            at += width
        }
        return (i, at)
    }

    @inline(__always)
    private mutating func append(_ v: UInt32, _ start: Int, _ end: Int) {
        normalized.append(v)
        classes.append(SearchScalars.classify(v).rawValue)
        if tracksSources {
            normStart.append(Int32(start))
            normEnd.append(Int32(end))
        }
    }

    /// The scalar at byte `i` of valid UTF-8 (a Swift string's) and its length in bytes.
    @inline(__always)
    private static func decode(_ buf: UnsafeBufferPointer<UInt8>, _ i: Int) -> (UInt32, Int) {
        // Valid UTF-8: a sequence's bytes are all there (offsets wrap without checks).
        let b0 = UInt32(buf[i])
        if b0 < 0x80 { return (b0, 1) }
        if b0 < 0xE0 { return (((b0 & 0x1F) << 6) | (UInt32(buf[i + 1]) & 0x3F), 2) }
        if b0 < 0xF0 { return (((b0 & 0x0F) << 12) | ((UInt32(buf[i + 1]) & 0x3F) << 6) | (UInt32(buf[i + 2]) & 0x3F), 3) }
        return (((b0 & 0x07) << 18) | ((UInt32(buf[i + 1]) & 0x3F) << 12) | ((UInt32(buf[i + 2]) & 0x3F) << 6) | (UInt32(buf[i + 3]) & 0x3F), 4)
    }

    /// Decodes valid UTF-8 (a Swift string's) into `original`.
    private mutating func decodeUTF8(_ buf: UnsafeBufferPointer<UInt8>) {
        let n = buf.count
        original.removeAll(keepingCapacity: true)
        original.append(contentsOf: repeatElement(0, count: n))
        let count: Int = original.withUnsafeMutableBufferPointer { out in
            var i = 0, o = 0
            while i < n {
                let b0 = UInt32(buf[i])
                if b0 < 0x80 {
                    out[o] = b0; i += 1
                } else if b0 < 0xE0 {
                    out[o] = ((b0 & 0x1F) << 6) | (UInt32(buf[i + 1]) & 0x3F); i += 2
                } else if b0 < 0xF0 {
                    out[o] = ((b0 & 0x0F) << 12) | ((UInt32(buf[i + 1]) & 0x3F) << 6) | (UInt32(buf[i + 2]) & 0x3F); i += 3
                } else {
                    out[o] = ((b0 & 0x07) << 18) | ((UInt32(buf[i + 1]) & 0x3F) << 12)
                        | ((UInt32(buf[i + 2]) & 0x3F) << 6) | (UInt32(buf[i + 3]) & 0x3F); i += 4
                }
                o += 1
            }
            return o
        }
        original.removeLast(n - count)
    }

    // MARK: Tokenisation

    mutating func tokenize(_ text: String, mode: SearchAnalysisMode, glossary: SearchGlossary = .empty) {
        normalize(text)
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        hashes.removeAll(keepingCapacity: true)
        positions.removeAll(keepingCapacity: true)
        kinds.removeAll(keepingCapacity: true)
        sourceStarts.removeAll(keepingCapacity: true)
        sourceEnds.removeAll(keepingCapacity: true)
        normalizedStarts.removeAll(keepingCapacity: true)
        normalizedEnds.removeAll(keepingCapacity: true)
        ids.removeAll(keepingCapacity: true)

        let n = normalized.count
        trackPositions = !glossary.isEmpty
        if trackPositions {
            scalarPositions.removeAll(keepingCapacity: true)
            scalarPositions.append(contentsOf: repeatElement(-1, count: n))
        }
        var i = 0
        var pos: Int32 = 0
        let han = SearchScalarClass.han.rawValue, kana = SearchScalarClass.kana.rawValue, hangul = SearchScalarClass.hangul.rawValue
        let classOf = classes
        classOf.withUnsafeBufferPointer { cls in
            while i < n {
                let c = cls[i]
                if c == han || c == kana || c == hangul {
                    var j = i + 1
                    if c == hangul {
                        while j < n && cls[j] == hangul { j += 1 }
                    } else {
                        while j < n && (cls[j] == han || cls[j] == kana) { j += 1 }
                    }
                    emitCJKRun(i, j, pos, mode)
                    pos += Int32(j - i)
                    i = j
                } else if Self.isWordClass(c) {
                    var j = i + 1
                    while j < n {
                        let d = cls[j]
                        if Self.isWordClass(d) {
                            j += 1
                        } else if d == SearchScalarClass.dot.rawValue, j + 1 < n, Self.isWordClass(cls[j + 1]) {
                            j += 1
                        } else {
                            break
                        }
                    }
                    if interning && !tracksSources {
                        pos = emitLatinRunCached(i, j, pos)
                    } else {
                        flushScratch()
                        pos = emitLatinRun(i, j, pos)
                    }
                    i = j
                } else {
                    i += 1
                }
            }
        }
        flushScratch()
        literalCount = count
        if trackPositions { emitConcepts(glossary, endPosition: pos) }
    }

    /// Concept tokens (docs/search.md, "Cross-language search"): each scalar without a token
    /// position takes the position of the next scalar that has one (or the position after the
    /// last token); a match's concept token takes the position of its first scalar.
    private mutating func emitConcepts(_ glossary: SearchGlossary, endPosition: Int32) {
        let n = normalized.count
        var next = endPosition
        var k = n - 1
        while k >= 0 {
            if scalarPositions[k] < 0 { scalarPositions[k] = next } else { next = scalarPositions[k] }
            k -= 1
        }
        matchText.removeAll(keepingCapacity: true)
        for v in normalized { matchText.append(SearchGlossary.matchingScalar(v)) }
        for m in glossary.matches(in: matchText) {
            if interning {
                let id = glossary.tokenBytes[m.concept].withUnsafeBufferPointer { b in
                    table.intern(b.baseAddress ?? UnsafePointer(bitPattern: 1)!, b.count, hash: glossary.tokenHashes[m.concept]).0
                }
                ids.append(id)
            } else {
                bytes.append(contentsOf: glossary.tokenBytes[m.concept])
                hashes.append(glossary.tokenHashes[m.concept])
                ends.append(Int32(bytes.count))
            }
            positions.append(scalarPositions[m.start])
            if tracksSources {
                kinds.append(Self.kindConcept)
                sourceStarts.append(normStart[m.start])
                sourceEnds.append(normEnd[m.end - 1])
                normalizedStarts.append(Int32(m.start))
                normalizedEnds.append(Int32(m.end))
            }
        }
    }

    @inline(__always)
    private static func isWordClass(_ c: UInt8) -> Bool {
        // upper, lower, digit, underscore, letter
        c >= SearchScalarClass.upper.rawValue && c <= SearchScalarClass.letter.rawValue
    }

    /// The class of normalised scalar `k`.
    @inline(__always)
    private func scalarClass(_ k: Int) -> SearchScalarClass {
        SearchScalarClass(rawValue: classes[k]).unsafelyUnwrapped
    }

    @inline(__always)
    private mutating func finishToken(start: Int, position: Int32, kind: UInt8, from a: Int, to b: Int) {
        var h: UInt32 = 2166136261
        for k in start..<bytes.count { h = (h ^ UInt32(bytes[k])) &* 16777619 }
        if interning {
            let id = bytes.withUnsafeBufferPointer { table.intern($0.baseAddress! + start, $0.count - start, hash: h).0 }
            bytes.removeLast(bytes.count - start)
            ids.append(id)
        } else {
            hashes.append(h)
            ends.append(Int32(bytes.count))
        }
        positions.append(position)
        if tracksSources {
            kinds.append(kind)
            sourceStarts.append(normStart[a])
            sourceEnds.append(normEnd[b - 1])
            normalizedStarts.append(Int32(a))
            normalizedEnds.append(Int32(b))
        }
    }

    private mutating func emitCJKRun(_ a: Int, _ b: Int, _ pos: Int32, _ mode: SearchAnalysisMode) {
        let len = b - a
        let unigrams = mode == .document || len == 1
        if trackPositions { for k in 0..<len { scalarPositions[a + k] = pos + Int32(k) } }
        if interning && !tracksSources {
            emitCJKRunInterned(a, len, pos, unigrams: unigrams)
            return
        }
        for k in 0..<len {
            let c = normalized[a + k]
            if unigrams {
                let s = bytes.count
                SearchScalars.appendUTF8(c, to: &bytes)
                finishToken(start: s, position: pos + Int32(k), kind: Self.kindUnigram, from: a + k, to: a + k + 1)
            }
            if k + 1 < len {
                let s = bytes.count
                SearchScalars.appendUTF8(c, to: &bytes)
                SearchScalars.appendUTF8(normalized[a + k + 1], to: &bytes)
                finishToken(start: s, position: pos + Int32(k), kind: Self.kindBigram, from: a + k, to: a + k + 2)
            }
        }
    }

    /// Adds the tokens the CJK runs gathered in `scratch` to `ids` and `positions`. Runs gather
    /// there across punctuation and spaces, so that a text's runs are added a few at a time;
    /// anything else that adds tokens flushes first, which keeps them in text order.
    @inline(__always)
    private mutating func flushScratch() {
        let n = scratch.pending
        guard n > 0 else { return }
        ids.append(contentsOf: UnsafeBufferPointer(start: scratch.ids, count: n))
        positions.append(contentsOf: UnsafeBufferPointer(start: scratch.positions, count: n))
        scratch.pending = 0
    }

    /// Index mode: the unigrams and bigrams of a run by their scalars. Tokens seen before are
    /// written through pointers into room made for the run (at most two per scalar), gathered in
    /// `scratch` until `flushScratch`; a new one is made, interned and remembered by `internScalars`.
    private mutating func emitCJKRunInterned(_ a: Int, _ len: Int, _ pos: Int32, unigrams: Bool) {
        if unigramIDs.isEmpty { unigramIDs = [Int32](repeating: -1, count: 0x10000) }
        var token = CJKRunToken(firstOfRunWithUnigrams: unigrams)
        while token.exists(inRunOf: len) {
            let scratch = self.scratch
            scratch.reserve(scratch.pending + 2 * (len - token.scalar))
            let runIDs = scratch.ids, runPositions = scratch.positions
            var o = scratch.pending
            do {
                // Copies of the maps, released before a new token changes them (no copy-on-write).
                let known = unigramIDs, map = scalarTokens
                normalized.withUnsafeBufferPointer { norm in
                known.withUnsafeBufferPointer { known in
                    while token.exists(inRunOf: len) {
                        let k = token.scalar
                        let c = norm[a + k]
                        let id: Int32
                        if token.isBigram {
                            id = map.find(ScalarTokenKey.bigram(c, norm[a + k + 1]))
                        } else {
                            id = c < 0x10000 ? known[Int(c)] : map.find(ScalarTokenKey.unigram(c))
                        }
                        if id < 0 { break }
                        runIDs[o] = id
                        runPositions[o] = pos + Int32(k)
                        o += 1
                        token.advance(unigrams: unigrams)
                    }
                }}
            }
            scratch.pending = o
            if token.exists(inRunOf: len) {
                // A token not seen before (after the ones gathered: it goes to `ids` itself).
                flushScratch()
                let k = token.scalar
                let c = normalized[a + k]
                if token.isBigram {
                    let d = normalized[a + k + 1]
                    internScalars(ScalarTokenKey.bigram(c, d), c, d, pos + Int32(k), a + k)
                } else {
                    internScalars(ScalarTokenKey.unigram(c), c, nil, pos + Int32(k), a + k)
                }
                token.advance(unigrams: unigrams)
            }
        }
    }

    /// A unigram (`second == nil`) or bigram token by its scalars: its id from the scalar map, or
    /// made, interned and remembered.
    @inline(__always)
    private mutating func internScalars(_ key: UInt64, _ first: UInt32, _ second: UInt32?, _ position: Int32, _ at: Int) {
        // Unigrams below U+10000 by a direct table, the others by the scalar map.
        let direct = second == nil && first < 0x10000
        if direct && unigramIDs.isEmpty { unigramIDs = [Int32](repeating: -1, count: 0x10000) }
        let known = direct ? unigramIDs[Int(first)] : scalarTokens.find(key)
        if known >= 0 {
            ids.append(known)
            positions.append(position)
            return
        }
        let s = bytes.count
        SearchScalars.appendUTF8(first, to: &bytes)
        if let second { SearchScalars.appendUTF8(second, to: &bytes) }
        finishToken(start: s, position: position, kind: second == nil ? Self.kindUnigram : Self.kindBigram,
                    from: at, to: at + (second == nil ? 1 : 2))
        if direct { unigramIDs[Int(first)] = ids[ids.count - 1] } else { scalarTokens.insert(key, ids[ids.count - 1]) }
    }

    /// `emitLatinRun` in index mode: the tokens of a run depend on its scalars only, so a run seen
    /// before repeats its token ids, positions (relative to `pos`) and scalar positions.
    private mutating func emitLatinRunCached(_ a: Int, _ b: Int, _ pos: Int32) -> Int32 {
        let found = normalized.withUnsafeBufferPointer { latinRuns.find(UnsafeBufferPointer(rebasing: $0[a..<b])) }
        if found >= 0, !trackPositions || latinRuns.hasScalarPositions[found] {
            // A run seen before: its tokens join the ones gathered in `scratch`.
            return latinRuns.replay(found, pos: pos, into: scratch, scalarPositions: &scalarPositions,
                                    setScalarPositions: trackPositions, at: a)
        }
        flushScratch()
        let first = ids.count
        let next = emitLatinRun(a, b, pos)
        normalized.withUnsafeBufferPointer { n in
            scalarPositions.withUnsafeBufferPointer { sp in
                latinRuns.record(found, key: UnsafeBufferPointer(rebasing: n[a..<b]), ids: ids[first...], positions: positions[first...],
                                 scalarPositions: trackPositions ? UnsafeBufferPointer(rebasing: sp[a..<b]) : nil, pos: pos, advance: next - pos)
            }
        }
        return next
    }

    /// Emits the tokens of a Latin run `normalized[a..<b]` starting at `pos`; returns the next position.
    private mutating func emitLatinRun(_ a: Int, _ b: Int, _ pos: Int32) -> Int32 {
        // Segments split at dots.
        var hasDot = false
        for k in a..<b where normalized[k] == 0x2E { hasDot = true; break }
        if hasDot {
            let s = bytes.count
            for k in a..<b { SearchScalars.appendLowercasedUTF8(normalized[k], to: &bytes) }
            finishToken(start: s, position: pos, kind: Self.kindIdentifier, from: a, to: b)
        }
        var cur = pos
        var segStart = a
        var k = a
        while k <= b {
            if k == b || normalized[k] == 0x2E {
                if k > segStart { cur = emitSegment(segStart, k, cur, dotted: hasDot) }
                segStart = k + 1
            }
            k += 1
        }
        return cur
    }

    /// Part boundaries of a segment: returns (start, end) pairs in `normalized` indexes.
    private var partRanges: [(Int, Int)] = []

    private mutating func splitParts(_ a: Int, _ b: Int) {
        partRanges.removeAll(keepingCapacity: true)
        var start = -1
        var k = a
        while k < b {
            let c = scalarClass(k)
            if c == .underscore {
                if start >= 0 { partRanges.append((start, k)); start = -1 }
                k += 1
                continue
            }
            if start < 0 { start = k; k += 1; continue }
            let p = scalarClass(k - 1)
            var boundary = false
            let pLetter = p == .lower || p == .letter || p == .upper
            let cLetter = c == .lower || c == .letter || c == .upper
            if p == .lower && c == .upper {
                boundary = true
            } else if (pLetter && c == .digit) || (p == .digit && cLetter) {
                boundary = true
            } else if p == .upper && c == .upper && k + 1 < b {
                if scalarClass(k + 1) == .lower {
                    // "URLSession" splits before "S"; "URLs" (a lone plural s) does not.
                    let loneS = normalized[k + 1] == 0x73 && (k + 2 >= b || scalarClass(k + 2) != .lower)
                    boundary = !loneS
                }
            }
            if boundary {
                partRanges.append((start, k))
                start = k
            }
            k += 1
        }
        if start >= 0 { partRanges.append((start, b)) }
    }

    private mutating func emitSegment(_ a: Int, _ b: Int, _ pos: Int32, dotted: Bool) -> Int32 {
        splitParts(a, b)
        let parts = partRanges
        if trackPositions {
            for (i, r) in parts.enumerated() { for k in r.0..<r.1 { scalarPositions[k] = pos + Int32(i) } }
        }
        if parts.count >= 2 {
            let s = bytes.count
            for k in a..<b { SearchScalars.appendLowercasedUTF8(normalized[k], to: &bytes) }
            finishToken(start: s, position: pos, kind: Self.kindIdentifier, from: a, to: b)
            for (i, r) in parts.enumerated() {
                emitWordLike(r.0, r.1, pos + Int32(i), kind: Self.kindPart)
            }
        } else if parts.count == 1 {
            emitWordLike(parts[0].0, parts[0].1, pos, kind: dotted ? Self.kindPart : Self.kindWord)
        }
        return pos + Int32(parts.count)
    }

    private mutating func emitWordLike(_ a: Int, _ b: Int, _ pos: Int32, kind: UInt8) {
        let s = bytes.count
        var asciiLetters = true
        for k in a..<b {
            let v = normalized[k]
            SearchScalars.appendLowercasedUTF8(v, to: &bytes)
            if !((v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A)) { asciiLetters = false }
        }
        let len = bytes.count - s
        if asciiLetters {
            if len <= 8, Self.isStopWord(Self.pack(bytes[s...])) {
                bytes.removeSubrange(s...)
                return
            }
            stem(from: s)
        }
        finishToken(start: s, position: pos, kind: kind, from: a, to: b)
    }

    /// Light plural stemming of `bytes[s...]` (lower-case ASCII letters of length ≥ 4), see docs/search.md.
    private mutating func stem(from s: Int) {
        let len = bytes.count - s
        guard len >= 4, bytes[bytes.count - 1] == 0x73 else { return }
        func at(_ k: Int) -> UInt8 { bytes[bytes.count - k] }  // at(1) is the last byte
        let a: UInt8 = 0x61, c: UInt8 = 0x63, e: UInt8 = 0x65, h: UInt8 = 0x68, i: UInt8 = 0x69, o: UInt8 = 0x6F
        let sC: UInt8 = 0x73, u: UInt8 = 0x75, x: UInt8 = 0x78, y: UInt8 = 0x79
        if at(2) == e && at(3) == i {  // -ies → -y, unless -eies/-aies
            if at(4) != e && at(4) != a { bytes.removeLast(3); bytes.append(y) }
            return
        }
        if at(2) == e {
            // -sses, -shes, -ches (not -aches), -xes → drop "es"; other -es → drop "s", unless -aes/-ees/-oes.
            let dropES = (at(3) == sC && at(4) == sC) || (at(3) == h && at(4) == sC)
                || (at(3) == h && at(4) == c && (len < 5 || at(5) != a)) || at(3) == x
            if dropES { bytes.removeLast(2) } else if at(3) != a && at(3) != e && at(3) != o { bytes.removeLast() }
            return
        }
        if at(2) != u && at(2) != sC && at(2) != o && at(2) != i { bytes.removeLast() }
    }
}

/// Scratch memory of a tokenizer: token ids and positions of a run, written through pointers.
final class TokenScratch {
    private(set) var ids: UnsafeMutablePointer<Int32>
    private(set) var positions: UnsafeMutablePointer<Int32>
    private var capacity = 256
    /// Tokens gathered and not yet added to the tokenizer's `ids` and `positions` (see `SearchTokenizer.flushScratch`).
    var pending = 0

    init() {
        ids = .allocate(capacity: capacity)
        positions = .allocate(capacity: capacity)
    }

    deinit {
        ids.deallocate()
        positions.deallocate()
    }

    /// Room for `n` tokens; the `pending` ones are kept.
    func reserve(_ n: Int) {
        guard n > capacity else { return }
        while capacity < n { capacity *= 2 }
        let newIDs = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
        let newPositions = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
        newIDs.update(from: ids, count: pending)
        newPositions.update(from: positions, count: pending)
        ids.deallocate(); positions.deallocate()
        ids = newIDs
        positions = newPositions
    }
}

/// Token ids by a key made of one or two scalars (open addressing; keys are below `UInt64.max`;
/// each key beside its value, one probe touches one cache line).
struct ScalarTokenMap {
    private var entries: [(key: UInt64, value: Int32)]
    private var shift: UInt64
    private var used = 0

    init() {
        entries = Array(repeating: (.max, -1), count: 1 << 12)
        shift = 64 - 12
    }

    @inline(__always)
    private func slot(_ key: UInt64) -> Int { Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift) }

    /// The id of `key`, or -1.
    @inline(__always)
    func find(_ key: UInt64) -> Int32 {
        entries.withUnsafeBufferPointer { e in
            let mask = e.count - 1
            var s = slot(key)
            while true {
                let x = e[s].key
                if x == key { return e[s].value }
                if x == .max { return -1 }
                s = (s + 1) & mask
            }
        }
    }

    mutating func insert(_ key: UInt64, _ value: Int32) {
        let mask = entries.count - 1
        var s = slot(key)
        while entries[s].key != .max && entries[s].key != key { s = (s + 1) & mask }
        if entries[s].key == .max { used += 1 }
        entries[s] = (key, value)
        if used * 2 > entries.count { grow() }
    }

    private mutating func grow() {
        let old = entries
        entries = Array(repeating: (.max, -1), count: old.count * 2)
        shift -= 1
        used = 0
        for entry in old where entry.key != .max { insert(entry.key, entry.value) }
    }
}

/// The tokens of Latin runs seen before, by the run's scalars (for `emitLatinRunCached`).
struct LatinRunCache {
    private var slots = [Int32](repeating: -1, count: 1 << 12)
    private var shift: UInt32 = 32 - 12
    private var hashes: [UInt32] = []
    /// Run `r`: scalars `keys[keyStart(r) ..< keyEnd[r]]`, each with its position relative to the
    /// run's (`scalarPosition`, -1 for none; valid when `hasScalarPositions[r]`).
    private var keys: [UInt32] = []
    private var keyEnd: [Int] = []
    private var scalarPosition: [Int32] = []
    private(set) var hasScalarPositions: [Bool] = []
    /// Tokens of run `r`: `tokenIDs/tokenPositions[tokenEnd[r - 1] ..< tokenEnd[r]]`, positions relative.
    private var tokenIDs: [Int32] = []
    private var tokenPositions: [Int32] = []
    private var tokenEnd: [Int] = []
    private var advance: [Int32] = []
    /// Runs remembered at most (then the cache starts over).
    static let limit = 1 << 20

    @inline(__always)
    private static func hash(_ key: UnsafeBufferPointer<UInt32>) -> UInt32 {
        var h: UInt32 = 2166136261
        for v in key { h = (h ^ v) &* 16777619 }
        return h
    }

    @inline(__always)
    private func slot(_ h: UInt32) -> Int { Int((h &* 0x9E37_79B1) >> shift) }

    /// The run with these scalars, or -1.
    func find(_ key: UnsafeBufferPointer<UInt32>) -> Int {
        let h = Self.hash(key)
        let mask = slots.count - 1
        var s = slot(h)
        while true {
            let r = Int(slots[s])
            if r < 0 { return -1 }
            if hashes[r] == h {
                let start = r == 0 ? 0 : keyEnd[r - 1]
                if keyEnd[r] - start == key.count && sameScalars(start, key) {
                    return r
                }
            }
            s = (s + 1) & mask
        }
    }

    /// Whether `keys[start ..< start + key.count]` are `key`.
    private func sameScalars(_ start: Int, _ key: UnsafeBufferPointer<UInt32>) -> Bool {
        for k in 0..<key.count where keys[start + k] != key[k] { return false }
        return true
    }

    /// Gathers run `r`'s tokens at `pos` in `scratch` (and sets its scalar positions at `at`); returns the next position.
    func replay(_ r: Int, pos: Int32, into scratch: TokenScratch,
                scalarPositions: inout [Int32], setScalarPositions: Bool, at: Int) -> Int32 {
        let start = r == 0 ? 0 : tokenEnd[r - 1], end = tokenEnd[r]
        let o = scratch.pending
        scratch.reserve(o + end - start)
        let outIDs = scratch.ids, outPositions = scratch.positions
        for k in start..<end {
            outIDs[o + k - start] = tokenIDs[k]
            outPositions[o + k - start] = pos + tokenPositions[k]
        }
        scratch.pending = o + end - start
        if setScalarPositions {
            let keyStart = r == 0 ? 0 : keyEnd[r - 1]
            for k in keyStart..<keyEnd[r] {
                let p = scalarPosition[k]
                if p >= 0 { scalarPositions[at + k - keyStart] = pos + p }
            }
        }
        return pos + advance[r]
    }

    /// Remembers a run's tokens (`existing` ≥ 0: the run is known and only gains its scalar positions).
    mutating func record(_ existing: Int, key: UnsafeBufferPointer<UInt32>, ids: ArraySlice<Int32>, positions: ArraySlice<Int32>,
                         scalarPositions: UnsafeBufferPointer<Int32>?, pos: Int32, advance next: Int32) {
        if existing >= 0 {
            guard let scalarPositions else { return }
            let keyStart = existing == 0 ? 0 : keyEnd[existing - 1]
            for k in 0..<key.count { scalarPosition[keyStart + k] = scalarPositions[k] >= 0 ? scalarPositions[k] - pos : -1 }
            hasScalarPositions[existing] = true
            return
        }
        if hashes.count >= Self.limit { self = LatinRunCache() }
        let r = hashes.count
        let h = Self.hash(key)
        hashes.append(h)
        keys.append(contentsOf: key)
        keyEnd.append(keys.count)
        if let scalarPositions {
            for p in scalarPositions { scalarPosition.append(p >= 0 ? p - pos : -1) }
        } else {
            scalarPosition.append(contentsOf: repeatElement(-1, count: key.count))
        }
        hasScalarPositions.append(scalarPositions != nil)
        tokenIDs.append(contentsOf: ids)
        for p in positions { tokenPositions.append(p - pos) }
        tokenEnd.append(tokenIDs.count)
        advance.append(next)
        let mask = slots.count - 1
        var s = slot(h)
        while slots[s] >= 0 { s = (s + 1) & mask }
        slots[s] = Int32(r)
        if hashes.count * 2 > slots.count {
            let bits = 32 - shift + 1
            slots = [Int32](repeating: -1, count: 1 << bits)
            shift = 32 - bits
            for i in 0..<hashes.count {
                var t = slot(hashes[i])
                while slots[t] >= 0 { t = (t + 1) & (slots.count - 1) }
                slots[t] = Int32(i)
            }
        }
    }
}

/// A token of a CJK run (docs/search.md §2.3): the unigram at scalar `scalar`, or the bigram of it
/// and the next scalar. A run's tokens come per scalar: its unigram (when unigrams are made),
/// then its bigram.
struct CJKRunToken {
    /// The token's place in the run's sequence of unigrams and bigrams: `2 × scalar` for the
    /// unigram, `2 × scalar + 1` for the bigram; the loops over a run step and test this one
    /// number.
    private var place: Int

    /// The run's first token: the unigram of its first scalar, or its first bigram.
    init(firstOfRunWithUnigrams unigrams: Bool) { place = unigrams ? 0 : 1 }

    var scalar: Int { place >> 1 }
    var isBigram: Bool { place & 1 == 1 }

    /// Whether a run of `length` scalars has this token (its last is the last scalar's unigram).
    func exists(inRunOf length: Int) -> Bool { place < 2 * length - 1 }

    /// The run's next token: with unigrams, each unigram and bigram in turn; without, the next
    /// bigram.
    mutating func advance(unigrams: Bool) { place += unigrams ? 1 : 2 }
}

/// The key of a CJK unigram or bigram in `ScalarTokenMap`: the scalar itself, or the first
/// scalar plus one above 21 bits and the second below (scalars take 21 bits, so no bigram key
/// equals a unigram key).
enum ScalarTokenKey {
    static func unigram(_ c: UInt32) -> UInt64 { UInt64(c) }
    static func bigram(_ c: UInt32, _ d: UInt32) -> UInt64 { (UInt64(c) + 1) << 21 | UInt64(d) }
}
