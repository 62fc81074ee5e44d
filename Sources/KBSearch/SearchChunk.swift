import Foundation
import KBCore

/// What the postings accumulator keeps per token while it encodes records: the token's record
/// stream (a heap buffer of its own, so records go straight to their token and need no
/// regrouping) and the document, text and field of its last record. One cache line per token.
struct ChunkToken {
    fileprivate(set) var buffer: UnsafeMutableRawPointer? = nil
    var count = 0
    fileprivate(set) var capacity = 0
    var lastDoc: Int32 = -1
    var lastText: Int32 = 0
    var lastField: Int32 = 0
    var documentFrequency: Int32 = 0
    var recordCount: Int32 = 0
    /// The web export's part of the current batch (`ChunkParts`), or -1.
    var openPart: Int32 = -1
    private var padding: (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
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

/// The `ChunkToken`s of an accumulator's vocabulary: the record streams. Written by one thread;
/// read by several once written.
///
/// Why it is unsafe: one heap block of `ChunkToken`s (one cache line each) and a heap buffer per
/// token's stream, written through pointers, so that appending a record costs no array
/// uniqueness or bounds checks and no copy when the block grows; a record is written through a
/// `RecordWriter` into room reserved for the longest record. Why that is sound: only
/// `grow(to:)` adds tokens, the block is freed once, in `deinit`, a stream once, by
/// `releaseStream` (which leaves it empty) or in `deinit`, and a token index is checked by
/// `assert` (`precondition` where a stream is freed). `SearchPrimitivesTests` compares the streams with a plain
/// encoding of the same records.
final class ChunkTokens: @unchecked Sendable {
    /// Unchecked exclusivity: read on every record; only `grow(to:)` replaces it.
    @exclusivity(unchecked) private var base: UnsafeMutablePointer<ChunkToken>
    /// Number of tokens.
    @exclusivity(unchecked) private(set) var count = 0
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

    subscript(t: Int) -> ChunkToken {
        get {
            assert(t >= 0 && t < count)
            return base[t]
        }
        _modify {
            assert(t >= 0 && t < count)
            yield &base[t]
        }
    }


    /// The tokens' states, for a loop that adds no tokens: read and written in place through
    /// the block's address, loaded once (valid until the next `grow(to:)`).
    var states: States { States(base: base, count: count) }

    struct States {
        fileprivate let base: UnsafeMutablePointer<ChunkToken>
        let count: Int

        subscript(t: Int) -> ChunkToken {
            @inline(__always) unsafeAddress {
                assert(t >= 0 && t < count)
                return UnsafePointer(base + t)
            }
            @inline(__always) nonmutating unsafeMutableAddress {
                assert(t >= 0 && t < count)
                return base + t
            }
        }
    }

    /// Frees token `t`'s stream once it has been copied out (its bytes are gone; its counts
    /// stay). A later `bytes` of the token is empty.
    func releaseStream(_ t: Int) {
        precondition(t >= 0 && t < count)
        base[t].buffer?.deallocate()
        base[t].buffer = nil
        base[t].count = 0
        base[t].capacity = 0
    }

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
    /// A writer for at most `extra` more bytes at the end of the stream (the caller then adds
    /// what it wrote to `count`).
    @inline(__always)
    mutating func writer(reserving extra: Int, digits: UnsafePointer<UInt8>) -> RecordWriter {
        RecordWriter(at: reserve(extra), digits: digits)
    }

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

/// Writes numbers into room reserved for them (a token's stream, a file buffer): varints
/// (`.kb/index`) or `WebDigits` (the web export). The room is the caller's: at least the longest
/// record (`PostingsEncoding.maxRecordLength`) or the exact length it computed.
struct RecordWriter {
    private let base: UnsafeMutableRawPointer
    private let digitTable: UnsafePointer<UInt8>
    /// Bytes written.
    private(set) var count = 0

    init(at base: UnsafeMutableRawPointer, digits: UnsafePointer<UInt8> = WebDigits.table) {
        self.base = base
        digitTable = digits
    }

    @inline(__always)
    mutating func varint(_ v: UInt32) { count += Varint.write(v, to: base + count) }

    @inline(__always)
    mutating func digits(_ v: UInt32, _ t: UInt32) { count += WebDigits.write(v, t, to: base + count, digitTable) }

    mutating func copy(_ bytes: UnsafeRawBufferPointer) {
        guard let from = bytes.baseAddress, bytes.count > 0 else { return }
        (base + count).copyMemory(from: from, byteCount: bytes.count)
        count += bytes.count
    }
}
