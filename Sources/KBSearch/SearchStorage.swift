import Synchronization
import Foundation
import KBCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Strings stored as one UTF-8 buffer with end offsets: cheap to build, copy and load
/// (a document column of the index: ids, titles, languages, …).
public struct SearchStrings: RandomAccessCollection, Sendable, Equatable {
    var bytes: [UInt8] = []
    /// End of string `i` in `bytes`; string `i` starts at `ends[i - 1]` (or 0).
    var ends: [Int32] = []

    public init() {}

    init(bytes: [UInt8], ends: [Int32]) {
        self.bytes = bytes
        self.ends = ends
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { ends.count }

    public subscript(i: Int) -> String {
        let a = i == 0 ? 0 : Int(ends[i - 1])
        return String(decoding: bytes[a..<Int(ends[i])], as: UTF8.self)
    }

    mutating func append(_ s: String) {
        bytes.append(contentsOf: s.utf8)
        ends.append(Int32(bytes.count))
    }

    /// Whether ends are non-decreasing, within the buffer, and every string is valid UTF-8.
    func isValid() -> Bool {
        var last: Int32 = 0
        for e in ends {
            guard e >= last, Int(e) <= bytes.count else { return false }
            guard String(validating: bytes[Int(last)..<Int(e)], as: UTF8.self) != nil else { return false }
            last = e
        }
        return Int(last) == bytes.count
    }
}

/// Immutable bytes that outlive the call that made them: a heap buffer or a read-only file mapping.
final class ByteRegion: @unchecked Sendable {
    let base: UnsafeRawPointer
    let count: Int
    private let release: (() -> Void)?
    private let parent: ByteRegion?
    /// The open file a region made by `map(descriptor:)` maps from its start, so that a writer
    /// can copy it file to file (`copy(into:at:)`) without reading it into memory.
    private let descriptor: Int32?

    nonisolated(unsafe) private static let empty = UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 8)

    /// Takes ownership of `pointer` (allocated with `UnsafeMutableRawPointer.allocate`).
    init(taking pointer: UnsafeMutableRawPointer, count: Int) {
        base = UnsafeRawPointer(pointer)
        self.count = count
        release = { pointer.deallocate() }
        parent = nil
        descriptor = nil
    }

    convenience init(_ bytes: [UInt8]) {
        self.init(concatenating: [bytes])
    }

    /// The bytes of `parts`, one after another, in one allocation. Each part is let go as soon as
    /// it is copied, so when the caller hands over the only reference to large parts (`consume`),
    /// the parts and the region are never both whole in memory.
    convenience init(concatenating parts: consuming [[UInt8]]) {
        let total = parts.reduce(0) { $0 + $1.count }
        let p = UnsafeMutableRawPointer.allocate(byteCount: max(1, total), alignment: 8)
        var at = 0
        for k in parts.indices {
            parts[k].withUnsafeBytes { if let b = $0.baseAddress { (p + at).copyMemory(from: b, byteCount: $0.count) } }
            at += parts[k].count
            parts[k] = []
        }
        self.init(taking: p, count: total)
    }

    init() {
        base = UnsafeRawPointer(ByteRegion.empty)
        count = 0
        release = nil
        parent = nil
        descriptor = nil
    }

    /// A part of another region (kept alive by this one).
    init(_ parent: ByteRegion, offset: Int, count: Int) {
        precondition(offset >= 0 && count >= 0 && offset + count <= parent.count)
        base = parent.base + offset
        self.count = count
        release = nil
        self.parent = parent
        descriptor = nil
    }

    /// Maps a file read-only. Returns nil when it cannot be mapped (callers then read it).
    static func map(path: String) -> ByteRegion? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        let size = Int(info.st_size)
        if size == 0 { return ByteRegion() }
        guard let p = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), p != MAP_FAILED else { return nil }
        return ByteRegion(mapped: p, count: size)
    }

    private init(mapped p: UnsafeMutableRawPointer, count: Int, closing descriptor: Int32? = nil) {
        base = UnsafeRawPointer(p)
        self.count = count
        release = { munmap(p, count); if let descriptor { close(descriptor) } }
        parent = nil
        self.descriptor = descriptor
    }

    /// Maps the whole of an open file read-only and takes the descriptor (closed with the
    /// region; the file may already be unlinked). Nil, with the descriptor closed, on failure.
    static func map(descriptor fd: Int32) -> ByteRegion? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { close(fd); return nil }
        let size = Int(info.st_size)
        if size == 0 { close(fd); return ByteRegion() }
        guard let p = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), p != MAP_FAILED else { close(fd); return nil }
        return ByteRegion(mapped: p, count: size, closing: fd)
    }

    /// Writes the bytes into file `fd` at `offset`: when the region maps an open file, read from
    /// that file a mebibyte at a time (its pages are then not brought into this process), else
    /// written from memory.
    func copy(into fd: Int32, at offset: Int) -> Bool {
        guard let source = descriptor else { return Self.write(base, count, into: fd, at: offset) }
        let input = FileHandle(fileDescriptor: source, closeOnDealloc: false)
        let output = FileHandle(fileDescriptor: fd, closeOnDealloc: false)
        do {
            try input.seek(toOffset: 0)
            try output.seek(toOffset: UInt64(offset))
            var done = 0
            while done < count, let data = try input.read(upToCount: min(1 << 20, count - done)), !data.isEmpty {
                try output.write(contentsOf: data)
                done += data.count
            }
            return done == count
        } catch {
            return false
        }
    }

    private static func write(_ p: UnsafeRawPointer, _ count: Int, into fd: Int32, at offset: Int) -> Bool {
        var done = 0
        while done < count {
            let k = pwrite(fd, p + done, count - done, off_t(offset + done))
            if k < 0 { if errno == EINTR { continue }; return false }
            done += k
        }
        return true
    }

    deinit { release?() }

    var buffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    func slice(_ range: Range<Int>) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base + range.lowerBound, count: range.count)
    }
}

/// The decoded records of one token, sorted by (document, text).
struct PostingList: Sendable {
    var doc: [Int32] = []
    var text: [Int32] = []
    var tf: [Int32] = []
    /// Positions of record `r`: `pos[posStart[r] ..< posStart[r] + min(tf[r], maxPositions)]`.
    var posStart: [Int32] = []
    var pos: [Int32] = []
    var count: Int { doc.count }
}

/// Posting lists decoded so far (postings are decoded per token, on first use), the texts read
/// from the text source, and whether a corrupt list, or texts that are not the indexed ones
/// (`entriesChanged`), were met.
final class SearchIndexCache: Sendable {
    private struct State {
        var lists: [Int32: PostingList] = [:]
        var cachedRecords = 0
        var damaged = false
        var textsChanged = false
        /// Texts read from the text source (a few documents: those whose results were shown).
        var sourceTexts: [Int: [String]] = [:]
    }

    private let state = Mutex(State())
    /// Decoded records kept at most (older lists are dropped beyond this).
    static let recordBudget = 8_000_000

    func list(_ id: Int32) -> PostingList? { state.withLock { $0.lists[id] } }

    func store(_ id: Int32, _ list: PostingList) {
        state.withLock { state in
            if state.cachedRecords + list.count > Self.recordBudget { state.lists.removeAll(); state.cachedRecords = 0 }
            state.lists[id] = list
            state.cachedRecords += list.count
        }
    }

    var damaged: Bool { state.withLock { $0.damaged } }

    func markDamaged() { state.withLock { $0.damaged = true } }

    var textsChanged: Bool { state.withLock { $0.textsChanged } }

    /// The text source gave texts that are not the indexed ones: damaged, because its entries changed.
    func markTextsChanged() {
        state.withLock { state in
            state.textsChanged = true
            state.damaged = true
        }
    }

    func texts(_ d: Int) -> [String]? { state.withLock { $0.sourceTexts[d] } }

    func store(texts: [String], of d: Int) {
        state.withLock { state in
            if state.sourceTexts.count >= 256 { state.sourceTexts.removeAll() }
            state.sourceTexts[d] = texts
        }
    }
}

/// Bytes in LEB128 varints.
enum Varint {
    /// The most bytes a 32-bit value takes.
    static let maxLength = 5

    @inline(__always)
    static func length(_ v: UInt32) -> Int {
        v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x20_0000 ? 3 : v < 0x1000_0000 ? 4 : 5
    }

    @inline(__always)
    static func append(_ v: UInt32, to bytes: inout [UInt8]) {
        var v = v
        while v >= 0x80 { bytes.append(UInt8(v & 0x7F) | 0x80); v >>= 7 }
        bytes.append(UInt8(v))
    }

    /// Writes `v` at `p`; returns the number of bytes written.
    @inline(__always)
    static func write(_ v: UInt32, to p: UnsafeMutableRawPointer) -> Int {
        var v = v
        var n = 0
        while v >= 0x80 { p.storeBytes(of: UInt8(v & 0x7F) | 0x80, toByteOffset: n, as: UInt8.self); v >>= 7; n += 1 }
        p.storeBytes(of: UInt8(v), toByteOffset: n, as: UInt8.self)
        return n + 1
    }
}
