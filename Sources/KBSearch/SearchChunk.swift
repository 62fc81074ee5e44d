import Foundation
import KBCore

/// What a chunk keeps per token while it encodes records: the token's record stream (a heap
/// buffer of its own, so records go straight to their token and need no regrouping) and the
/// document, text and field of its last record. One cache line per token.
struct ChunkToken {
    var buffer: UnsafeMutableRawPointer? = nil
    var count = 0
    var capacity = 0
    var firstDoc: Int32 = -1
    var lastDoc: Int32 = -1
    var lastText: Int32 = 0
    var lastField: Int32 = 0
    var documentFrequency: Int32 = 0
    var recordCount: Int32 = 0
    /// The web export's part of the current batch (`ChunkParts`), or -1.
    var openPart: Int32 = -1
    private var padding: (Int32, Int32, Int32) = (0, 0, 0)
}

/// A run of one token's records in a worker's stream that belong to one batch of documents
/// (the web export's workers take batches in turn): where they are in the stream, and the
/// first and last document they are for.
struct ChunkPart {
    var token: Int32
    var firstDoc: Int32
    var lastDoc: Int32 = -1
    var from: Int
    var to: Int = 0
}

/// The parts of a worker, in the order they began. Written by one thread; read by several once
/// written. Kept in a buffer of its own (parts begin and end once per batch and token: no
/// array's copy-on-write or exclusivity checks on the way).
final class ChunkParts: @unchecked Sendable {
    private var base: UnsafeMutablePointer<ChunkPart>
    private var capacity = 1024
    private(set) var count = 0

    init() { base = .allocate(capacity: capacity) }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    subscript(p: Int) -> ChunkPart {
        precondition(p >= 0 && p < count)
        return base[p]
    }

    func begin(token: Int32, firstDoc: Int32, from: Int) -> Int32 {
        if count == capacity {
            let grown = UnsafeMutablePointer<ChunkPart>.allocate(capacity: capacity * 2)
            grown.moveInitialize(from: base, count: count)
            base.deallocate()
            base = grown
            capacity *= 2
        }
        (base + count).initialize(to: ChunkPart(token: token, firstDoc: firstDoc, from: from))
        count += 1
        return Int32(truncatingIfNeeded: count - 1)
    }

    func end(_ p: Int32, lastDoc: Int32, to: Int) {
        base[Int(p)].lastDoc = lastDoc
        base[Int(p)].to = to
    }
}

/// A part of a token's web postings, in the order they are joined: the worker and token whose
/// stream holds it, its record range there, and the head that goes before it.
struct WebPostingsPart {
    var chunk: Int32 = 0
    var token: Int32 = 0
    var head: UInt32 = 0
    var from = 0
    var to = 0
}

/// The `ChunkToken`s of a chunk's vocabulary. Written by one thread; read by several once written.
final class ChunkTokens: @unchecked Sendable {
    private(set) var base: UnsafeMutablePointer<ChunkToken>
    /// Number of tokens.
    private(set) var count = 0
    private var slots = 0

    init() {
        slots = 1024
        base = Self.allocate(slots)
    }

    deinit {
        for t in 0..<count { base[t].buffer?.deallocate() }
        base.deinitialize(count: count)
        base.deallocate()
    }

    private static func allocate(_ n: Int) -> UnsafeMutablePointer<ChunkToken> {
        UnsafeMutableRawPointer.allocate(byteCount: n * MemoryLayout<ChunkToken>.stride, alignment: 64).bindMemory(to: ChunkToken.self, capacity: n)
    }

    /// Adds tokens up to `n`.
    func grow(to n: Int) {
        guard n > count else { return }
        if n > slots {
            var s = slots
            while s < n { s *= 2 }
            let b = Self.allocate(s)
            b.moveInitialize(from: base, count: count)
            base.deallocate()
            base = b
            slots = s
        }
        (base + count).initialize(repeating: ChunkToken(), count: n - count)
        count = n
    }

    subscript(t: Int) -> ChunkToken { base[t] }

    /// The record bytes of token `t`.
    func bytes(_ t: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base[t].buffer, count: base[t].count)
    }

    /// The record bytes `range` of token `t`.
    func bytes(_ t: Int, _ range: Range<Int>) -> UnsafeRawBufferPointer {
        precondition(range.lowerBound >= 0 && range.upperBound <= base[t].count)
        guard let start = base[t].buffer else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: start + range.lowerBound, count: range.count)
    }
}

extension ChunkToken {
    /// Where `extra` more bytes of the stream go (the caller then adds what it wrote to `count`).
    @inline(__always)
    mutating func reserve(_ extra: Int) -> UnsafeMutableRawPointer {
        if count + extra > capacity { enlarge(count + extra) }
        return buffer.unsafelyUnwrapped + count
    }

    private mutating func enlarge(_ needed: Int) {
        var c = max(32, capacity * 2)
        while c < needed { c *= 2 }
        let p = UnsafeMutableRawPointer.allocate(byteCount: c, alignment: 8)
        if let old = buffer {
            p.copyMemory(from: old, byteCount: count)
            old.deallocate()
        }
        buffer = p
        capacity = c
    }
}

/// Tokenizes texts into a chunk's vocabulary (the tokenizer's interning table) and gives, for the
/// last text, its distinct tokens in order of first occurrence ("slots") with their term
/// frequency and first `cap` positions.
struct TextSlots {
    var tokenizer: SearchTokenizer = { var t = SearchTokenizer(); t.tracksSources = false; t.interning = true; return t }()
    let cap: Int
    /// Per token: the number of the last text that had it, and its slot there.
    private var stamp: [Int32] = []
    private var slotOf: [Int32] = []
    private var textNumber: Int32 = 0
    /// Slots of the last text: `token[s]`, `tf[s]`, positions `positions[s * cap ..< s * cap + min(tf[s], cap)]`.
    private(set) var count = 0
    private(set) var token: [Int32] = []
    private(set) var tf: [Int32] = []
    private(set) var positions: [Int32] = []
    /// Literal tokens of the last text (concept tokens do not count towards field lengths).
    private(set) var literalCount = 0

    init(cap: Int) { self.cap = cap }

    /// Size of the vocabulary so far.
    var vocabularySize: Int { tokenizer.table.count }

    mutating func tokenize(_ text: String, glossary: SearchGlossary) {
        tokenizer.tokenize(text, mode: .document, glossary: glossary)
        literalCount = tokenizer.literalCount
        let n = tokenizer.count
        let vocabulary = tokenizer.table.count
        if stamp.count < vocabulary {
            stamp.append(contentsOf: repeatElement(0, count: vocabulary - stamp.count))
            slotOf.append(contentsOf: repeatElement(0, count: vocabulary - slotOf.count))
        }
        if token.count < n {
            token.append(contentsOf: repeatElement(0, count: n - token.count))
            tf.append(contentsOf: repeatElement(0, count: n - tf.count))
            positions.append(contentsOf: repeatElement(0, count: n * max(cap, 1) - positions.count))
        }
        textNumber += 1
        let number = textNumber
        let cap = self.cap
        var used = 0
        tokenizer.ids.withUnsafeBufferPointer { ids in
        tokenizer.positions.withUnsafeBufferPointer { tokenPositions in
        stamp.withUnsafeMutableBufferPointer { stamp in
        slotOf.withUnsafeMutableBufferPointer { slotOf in
        token.withUnsafeMutableBufferPointer { token in
        tf.withUnsafeMutableBufferPointer { tf in
        positions.withUnsafeMutableBufferPointer { positions in
            for k in 0..<n {
                let id = ids[k]
                let t = Int(id)
                var s: Int
                if stamp[t] != number {
                    stamp[t] = number
                    s = used
                    slotOf[t] = Int32(s)
                    token[s] = id
                    tf[s] = 0
                    used += 1
                } else {
                    s = Int(slotOf[t])
                }
                let f = Int(tf[s])
                if f < cap { positions[s * cap + f] = tokenPositions[k] }
                tf[s] = Int32(f + 1)
            }
        }}}}}}}
        count = used
    }

    /// Hands over the vocabulary and drops the scratch buffers.
    mutating func takeTable() -> TokenTable {
        let table = tokenizer.takeTable()
        tokenizer = SearchTokenizer()
        stamp = []; slotOf = []; token = []; tf = []; positions = []
        return table
    }
}
