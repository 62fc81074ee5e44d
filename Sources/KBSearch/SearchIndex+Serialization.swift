import Foundation
import KBCore
#if canImport(Glibc)
import Glibc
#endif

/// Why a stored index could not be read; callers rebuild the index.
public enum SearchIndexError: Error, Equatable, Sendable {
    case notAnIndex
    case unsupportedVersion(UInt32)
    case corrupt(String)
    case fingerprintMismatch
}

// MARK: - Binary file (the CLI's .kb/index cache)

extension SearchIndex {
    /// Magic bytes of the binary format.
    static let magic: [UInt8] = Array("KBSI".utf8)
    /// Version of the binary format; bump whenever the layout or the analyser changes
    /// (4: the memory-mapped layout of version 3 with the glossary and the concept weight;
    /// 6: concepts weighted by their own idf, with a concept weight of 1; 7: field lengths
    /// stored and scored quantized, `SearchFieldLength`; 8: no texts, only their checksums,
    /// `SearchTextSource`; 9: records with one head for document and text, and tf folded into
    /// the first position, `BinaryPostings`; 10: large posting lists in compressed columns,
    /// `BinaryPostingsColumns`, and the eager part compressed; 11: symptoms, the problem, side
    /// effects, lessons and notes carry their section's anchor, `SectionAnchor`; 12: texts
    /// without a writer's label are named in the entry's language, `Vocabulary.names`).
    public static let binaryFormatVersion: UInt32 = 12
    /// Magic, version, the stored and plain lengths and the checksum of the eager part, and the
    /// postings length.
    static let headerSize = 40

    /// The header and the eager part: everything but the postings.
    func serializedHead(fingerprint: String) -> [UInt8] {
        var w = BinaryWriter()
        w.string(fingerprint)
        w.double(parameters.k1); w.double(parameters.b); w.double(parameters.beta)
        w.doubles(parameters.fieldWeights)
        w.int(parameters.maxPositions)
        w.double(parameters.conceptWeight)
        w.int(glossary.concepts.count)
        for c in glossary.concepts {
            w.string(c.id); w.string(c.name)
            w.int(c.terms.count)
            for t in c.terms { w.string(t) }
        }
        w.int(ids.count)
        for column in [ids, titles, langs, urlValues, tagValues, statuses, strings] {
            w.bytes(column.bytes); w.array(column.ends)
        }
        w.bytes(hasURL); w.array(tagStart)
        w.array(docTextStart); w.bytes(textField); w.array(textAnchor); w.array(textLabel)
        w.array(textBlockChecksum)
        w.array(fieldLengths)
        w.doubles(averageFieldLengths)
        w.bytes(tokens.bytes); w.array(tokens.ends); w.array(tokens.hashes); w.array(tokens.slots)
        w.array(documentFrequency)
        w.doubles(idf)
        w.double(idfUnknown)
        w.array(postingOffset); w.array(recordCount); w.array(postingChecksum)

        let eager = Zstd.compress(w.bytes)
        var header = BinaryWriter()
        header.bytes.append(contentsOf: SearchIndex.magic)
        header.uint32(SearchIndex.binaryFormatVersion)
        header.uint64(UInt64(eager.count))
        header.uint64(UInt64(w.bytes.count))
        header.uint64(ContentChecksum.of(eager[...]))
        header.uint64(UInt64(postingBytes.count))
        return header.bytes + eager
    }



    /// The index as a versioned, checksummed binary blob (docs/search.md §7). `fingerprint` is
    /// stored as is and checked by `init(serialized:expectedFingerprint:)` (e.g. a hash of the
    /// sources). The documents' texts are not in it, only their checksums: an index read back
    /// gets them from a `SearchTextSource`.
    public func serialized(fingerprint: String = "") -> Data {
        var out = Data(serializedHead(fingerprint: fingerprint))
        out.append(postingBytes.base.assumingMemoryBound(to: UInt8.self), count: postingBytes.count)
        return out
    }

    /// Reads `serialized(fingerprint:)` output and checks all of it: magic, version, length, the
    /// checksums of the eager part and of every posting list, the fingerprint and the structure.
    /// `texts`: where the documents' texts are (for snippets; checked against their checksums
    /// when a result shows them).
    public init(serialized data: Data, expectedFingerprint: String? = nil, texts: SearchTextSource? = nil) throws {
        let region = ByteRegion([UInt8](data))
        try self.init(region: region, expectedFingerprint: expectedFingerprint, verifyAll: true)
        textSource = texts
    }

    /// Opens an index over `region`. The eager part is checked and decoded; the postings stay in
    /// the region and are checked when decoded, unless `verifyAll` checks them now.
    init(region: ByteRegion, expectedFingerprint: String?, verifyAll: Bool) throws {
        let all = region.buffer
        guard all.count >= SearchIndex.headerSize, all[0..<4].elementsEqual(SearchIndex.magic) else { throw SearchIndexError.notAnIndex }
        var h = BinaryReader(UnsafeRawBufferPointer(rebasing: all[4..<SearchIndex.headerSize]))
        let version = try h.uint32()
        guard version == SearchIndex.binaryFormatVersion else { throw SearchIndexError.unsupportedVersion(version) }
        let eagerLength = try h.uint64(), eagerPlainLength = try h.uint64(), eagerSum = try h.uint64()
        let postingsLength = try h.uint64()
        let rest = UInt64(all.count - SearchIndex.headerSize)
        guard eagerLength <= rest, postingsLength <= rest, eagerLength + postingsLength == rest, eagerPlainLength < UInt64(Int.max) else {
            throw SearchIndexError.corrupt("length")
        }
        let eagerStart = SearchIndex.headerSize, postingsStart = eagerStart + Int(eagerLength)
        let storedEager = region.slice(eagerStart..<postingsStart)
        // The frame's header must say the same length (`Zstd.decompress`) before it is decompressed.
        guard ContentChecksum.of(storedEager) == eagerSum else { throw SearchIndexError.corrupt("checksum") }
        var plainEager: [UInt8] = []
        guard Zstd.decompress(storedEager, rawLength: Int(eagerPlainLength), appendingTo: &plainEager) else { throw SearchIndexError.corrupt("eager part") }
        let eagerRegion = ByteRegion(plainEager)
        defer { withExtendedLifetime(eagerRegion) {} }
        let eager = eagerRegion.buffer
        var r = BinaryReader(eager)
        let fingerprint = try r.string()
        if let expectedFingerprint, expectedFingerprint != fingerprint { throw SearchIndexError.fingerprintMismatch }
        var p = SearchParameters()
        p.k1 = try r.double(); p.b = try r.double(); p.beta = try r.double()
        p.fieldWeights = try r.doubles()
        p.maxPositions = try r.int()
        p.conceptWeight = try r.double()
        guard p.fieldWeights.count == SearchIndex.fieldCount else { throw SearchIndexError.corrupt("weights") }
        let conceptCount = try r.int()
        guard conceptCount <= eager.count else { throw SearchIndexError.corrupt("glossary") }
        var concepts: [SearchGlossary.Concept] = []
        for _ in 0..<conceptCount {
            let id = try r.string(), name = try r.string()
            let termCount = try r.int()
            guard termCount <= eager.count else { throw SearchIndexError.corrupt("glossary") }
            concepts.append(SearchGlossary.Concept(id: id, name: name, terms: try (0..<termCount).map { _ in try r.string() }))
        }
        self.init(parameters: p)
        storedFingerprint = fingerprint
        glossary = concepts.isEmpty ? .empty : SearchGlossary(concepts: concepts)
        let n = try r.int()
        var columns: [SearchStrings] = []
        for _ in 0..<7 { columns.append(SearchStrings(bytes: try r.bytes(), ends: try r.array())) }
        (ids, titles, langs, urlValues, tagValues, statuses, strings) = (columns[0], columns[1], columns[2], columns[3], columns[4], columns[5], columns[6])
        hasURL = try r.bytes(); tagStart = try r.array()
        docTextStart = try r.array(); textField = try r.bytes(); textAnchor = try r.array(); textLabel = try r.array()
        textBlockChecksum = try r.array()
        storesTexts = false
        textBlockStart = []
        fieldLengths = try r.array()
        averageFieldLengths = try r.doubles()
        let tokenBytes = try r.bytes()
        let tokenEnds: [Int32] = try r.array(), tokenHashes: [UInt32] = try r.array(), tokenSlots: [Int32] = try r.array()
        documentFrequency = try r.array()
        idf = try r.doubles()
        idfUnknown = try r.double()
        postingOffset = try r.array(); recordCount = try r.array(); postingChecksum = try r.array()
        guard r.isAtEnd else { throw SearchIndexError.corrupt("trailing bytes") }
        guard let table = TokenTable(bytes: tokenBytes, ends: tokenEnds, hashes: tokenHashes, slots: tokenSlots) else {
            throw SearchIndexError.corrupt("tokens")
        }
        tokens = table
        postingBytes = ByteRegion(region, offset: postingsStart, count: Int(postingsLength))
        try validate(documentCount: n)
        if verifyAll {
            for t in 0..<tokens.count where ContentChecksum.of(postingBytes.slice(Int(postingOffset[t])..<Int(postingOffset[t + 1]))) != postingChecksum[t] {
                throw SearchIndexError.corrupt("checksum")
            }
            for t in 0..<tokens.count where decodePostings(t) == nil { throw SearchIndexError.corrupt("postings") }
        }
    }

    /// Structural checks of the eager part: counts, offsets within bounds, ids in range.
    private func validate(documentCount n: Int) throws {
        let v = tokens.count, fc = SearchIndex.fieldCount, texts = textField.count
        func check(_ ok: Bool, _ what: String) throws { if !ok { throw SearchIndexError.corrupt(what) } }
        func monotonic<T: BinaryInteger>(_ a: [T], count: Int, limit: Int) -> Bool {
            guard a.count == count + 1, a.first == 0, Int(a.last!) == limit else { return false }
            for i in 0..<count where a[i] > a[i + 1] { return false }
            return true
        }
        func columnOK(_ c: SearchStrings, count: Int) -> Bool {
            guard c.ends.count == count else { return false }
            var last: Int32 = 0
            for e in c.ends { if e < last { return false }; last = e }
            return Int(last) == c.bytes.count
        }
        for c in [ids, titles, langs, urlValues, statuses] { try check(columnOK(c, count: n), "documents") }
        try check(hasURL.count == n && monotonic(tagStart, count: n, limit: tagValues.count) && columnOK(tagValues, count: tagValues.count), "tags")
        try check(columnOK(strings, count: strings.count), "strings")
        try check(monotonic(docTextStart, count: n, limit: texts), "texts")
        try check(textField.allSatisfy { Int($0) < fc }, "fields")
        try check(textAnchor.count == texts && textLabel.count == texts, "texts")
        try check(textAnchor.allSatisfy { $0 >= -1 && Int($0) < strings.count } && textLabel.allSatisfy { $0 >= -1 && Int($0) < strings.count }, "strings")
        try check(textBlockChecksum.count == n, "texts")
        try check(fieldLengths.count == n * fc && averageFieldLengths.count == fc, "lengths")
        try check(documentFrequency.count == v && idf.count == v && recordCount.count == v && postingChecksum.count == v, "vocabulary")
        try check(monotonic(postingOffset, count: v, limit: postingBytes.count), "postings")
        // A token has at most one record per text, and a plain record takes at least 2 bytes (a
        // head and the first position): a count that cannot be is refused before anything is
        // reserved for it.
        try check((0..<v).allSatisfy { t in
            let count = Int(recordCount[t])
            return count >= 0 && count <= texts
                && (count > BinaryPostingsColumns.threshold || Int64(count) * 2 <= postingOffset[t + 1] - postingOffset[t])
        }, "postings")
    }

    /// Writes the binary form atomically (a temporary file renamed over `url`).
    public func write(to url: URL, fingerprint: String = "") throws {
        let temporary = try writeTemporary(for: url, fingerprint: fingerprint)
        try SearchIndex.commitTemporary(temporary, to: url)
    }

    /// Writes the binary form to a temporary file beside `url` and returns its path; `commitTemporary`
    /// renames it over `url` (or the caller removes it).
    func writeTemporary(for url: URL, fingerprint: String) throws -> String {
        let head = serializedHead(fingerprint: fingerprint)
        let temporary = url.path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw KBError("cannot write \(temporary): \(String(cString: strerror(errno)))") }
        let ok = ByteRegion(head).copy(into: fd, at: 0) && postingBytes.copy(into: fd, at: head.count)
        close(fd)
        guard ok else {
            unlink(temporary)
            throw KBError("cannot write \(url.path): \(String(cString: strerror(errno)))")
        }
        return temporary
    }

    static func commitTemporary(_ temporary: String, to url: URL) throws {
        guard rename(temporary, url.path) == 0 else {
            let message = String(cString: strerror(errno))
            unlink(temporary)
            throw KBError("cannot write \(url.path): \(message)")
        }
    }

    /// Opens a binary index file: memory-mapped, with the eager part checked and decoded at once
    /// and the postings checked per token when first used, and the texts of `texts` per document
    /// (a failure then sets `isDamaged`). See `init(serialized:expectedFingerprint:)` for the errors.
    public static func read(from url: URL, expectedFingerprint: String? = nil, texts: SearchTextSource? = nil) throws -> SearchIndex {
        let region: ByteRegion
        if let mapped = ByteRegion.map(path: url.path) {
            region = mapped
        } else {
            region = ByteRegion([UInt8](try Data(contentsOf: url)))
        }
        var index = try SearchIndex(region: region, expectedFingerprint: expectedFingerprint, verifyAll: false)
        index.textSource = texts
        return index
    }
}

struct BinaryWriter {
    var bytes: [UInt8] = []

    mutating func uint32(_ v: UInt32) { littleEndian(v) }
    mutating func uint64(_ v: UInt64) { littleEndian(v) }
    /// `v`'s bytes, low byte first.
    mutating func littleEndian<T: FixedWidthInteger>(_ v: T) {
        for k in 0..<(T.bitWidth / 8) { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * k))) }
    }
    mutating func int(_ v: Int) { uint64(UInt64(bitPattern: Int64(v))) }
    mutating func double(_ v: Double) { uint64(v.bitPattern) }
    mutating func bytes(_ v: [UInt8]) { int(v.count); bytes.append(contentsOf: v) }
    mutating func string(_ s: String) { bytes(Array(s.utf8)) }
    mutating func optionalString(_ s: String?) {
        if let s { bytes.append(1); string(s) } else { bytes.append(0) }
    }
    mutating func int32s(_ v: [Int32]) { array(v) }
    /// A fixed-width integer array, little-endian.
    mutating func array<T: FixedWidthInteger>(_ v: [T]) {
        int(v.count)
        #if _endian(little)
        // The array's memory is already its little-endian bytes.
        v.withUnsafeBytes { bytes.append(contentsOf: $0) }
        #else
        for x in v { littleEndian(x) }
        #endif
    }

    mutating func doubles(_ v: [Double]) {
        int(v.count)
        for x in v { uint64(x.bitPattern) }
    }
}

struct VarintWriter {
    var bytes: [UInt8] = []

    @inline(__always)
    mutating func write(_ v: UInt32) {
        var v = v
        while v >= 0x80 { bytes.append(UInt8(v & 0x7F) | 0x80); v >>= 7 }
        bytes.append(UInt8(v))
    }
}

struct VarintReader {
    let buffer: UnsafeBufferPointer<UInt8>
    var offset = 0

    init(_ buffer: UnsafeBufferPointer<UInt8>) { self.buffer = buffer }

    var isAtEnd: Bool { offset == buffer.count }

    @inline(__always)
    mutating func read() -> UInt32? {
        var v: UInt32 = 0
        var shift: UInt32 = 0
        while offset < buffer.count {
            let b = buffer[offset]
            offset += 1
            if shift == 28 && b > 0x0F { return nil }
            v |= UInt32(b & 0x7F) << shift
            if b < 0x80 { return v }
            shift += 7
        }
        return nil
    }
}

/// Reads the little-endian values of `BinaryWriter` from memory that outlives the reader (a mapped
/// file or a buffer); arrays are copied out once.
struct BinaryReader {
    let data: UnsafeRawBufferPointer
    var offset = 0

    init(_ data: UnsafeRawBufferPointer) {
        self.data = data
    }

    var isAtEnd: Bool { offset == data.count }

    private mutating func take(_ n: Int) throws -> UnsafeRawBufferPointer {
        guard n >= 0, data.count - offset >= n else { throw SearchIndexError.corrupt("truncated") }
        defer { offset += n }
        return UnsafeRawBufferPointer(rebasing: data[offset..<offset + n])
    }

    mutating func uint32() throws -> UInt32 {
        UInt32(littleEndian: try take(4).loadUnaligned(as: UInt32.self))
    }

    mutating func uint64() throws -> UInt64 {
        UInt64(littleEndian: try take(8).loadUnaligned(as: UInt64.self))
    }

    mutating func int() throws -> Int {
        let v = Int64(bitPattern: try uint64())
        guard v >= 0, v <= Int64(Int32.max) * 8 else { throw SearchIndexError.corrupt("integer") }
        return Int(v)
    }

    mutating func double() throws -> Double { Double(bitPattern: try uint64()) }

    mutating func bytes() throws -> [UInt8] { Array(try take(try int())) }

    mutating func string() throws -> String {
        let b = try take(try int())
        guard let s = String(validating: b.bindMemory(to: UInt8.self), as: UTF8.self) else { throw SearchIndexError.corrupt("string") }
        return s
    }

    mutating func optionalString() throws -> String? {
        let flag = try take(1)[0]
        switch flag {
        case 0: return nil
        case 1: return try string()
        default: throw SearchIndexError.corrupt("optional")
        }
    }

    mutating func int32s() throws -> [Int32] { try array() }

    mutating func array<T: FixedWidthInteger>() throws -> [T] {
        let n = try int()
        let size = MemoryLayout<T>.size
        guard n <= (data.count - offset) / size else { throw SearchIndexError.corrupt("truncated") }
        let b = try take(n * size)
        var out = [T](unsafeUninitializedCapacity: n) { dst, initialized in
            if let base = b.baseAddress, n > 0 { UnsafeMutableRawPointer(dst.baseAddress!).copyMemory(from: base, byteCount: n * size) }
            initialized = n
        }
        #if !_endian(little)
        for i in 0..<n { out[i] = T(littleEndian: out[i]) }
        #endif
        return out
    }

    mutating func doubles() throws -> [Double] {
        let n = try int()
        guard n <= (data.count - offset) / 8 else { throw SearchIndexError.corrupt("truncated") }
        let b = try take(n * 8)
        return (0..<n).map { Double(bitPattern: UInt64(littleEndian: b.loadUnaligned(fromByteOffset: $0 * 8, as: UInt64.self))) }
    }
}
