import Foundation

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
    /// Version of the binary format; bump whenever the layout or the analyser changes.
    public static let binaryFormatVersion: UInt32 = 3

    /// The index as a versioned, checksummed binary blob. `fingerprint` is stored as is and
    /// checked by `init(serialized:expectedFingerprint:)` (e.g. a hash of the sources).
    public func serialized(fingerprint: String = "") -> Data {
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
        for d in 0..<ids.count {
            w.string(ids[d]); w.string(titles[d]); w.string(langs[d]); w.optionalString(urls[d])
            w.int(tags[d].count)
            for t in tags[d] { w.string(t) }
            w.string(statuses[d])
        }
        w.int32s(docTextStart)
        w.bytes(textField)
        for i in 0..<textField.count {
            w.optionalString(textAnchor[i]); w.optionalString(textLabel[i]); w.string(textContent[i])
        }
        w.int32s(fieldLengths)
        w.doubles(averageFieldLengths)
        w.bytes(tokens.bytes)
        w.int32s(tokens.ends)
        w.int32s(documentFrequency)
        w.doubles(idf)
        w.double(idfUnknown)
        w.int32s(postingStart)
        // Postings as varints: per record doc delta (within the token), text, tf, then the
        // record's positions as deltas; position starts follow from the tfs.
        var postings = VarintWriter()
        postings.bytes.reserveCapacity(recordDoc.count * 4 + positions.count * 2)
        for t in 0..<tokens.count {
            var prevDoc: Int32 = 0
            for r in Int(postingStart[t])..<Int(postingStart[t + 1]) {
                postings.write(UInt32(recordDoc[r] - prevDoc)); prevDoc = recordDoc[r]
                postings.write(UInt32(recordText[r]))
                postings.write(UInt32(recordTf[r]))
                var prev: Int32 = 0
                let p0 = Int(recordPositionStart[r])
                for k in 0..<min(Int(recordTf[r]), parameters.maxPositions) {
                    postings.write(UInt32(positions[p0 + k] - prev)); prev = positions[p0 + k]
                }
            }
        }
        w.int(positions.count)
        w.bytes(postings.bytes)

        var out = Data()
        out.append(contentsOf: SearchIndex.magic)
        var header = BinaryWriter()
        header.uint32(SearchIndex.binaryFormatVersion)
        header.uint64(UInt64(w.bytes.count))
        header.uint64(BinaryWriter.checksum(w.bytes))
        out.append(contentsOf: header.bytes)
        out.append(contentsOf: w.bytes)
        return out
    }

    /// Reads `serialized(fingerprint:)` output. Throws if the data is not an index, has another
    /// format version, fails its checksum or structural checks, or has another fingerprint.
    public init(serialized data: Data, expectedFingerprint: String? = nil) throws {
        let all = [UInt8](data)
        guard all.count >= 24, Array(all[0..<4]) == SearchIndex.magic else { throw SearchIndexError.notAnIndex }
        var h = BinaryReader(all[4..<24])
        let version = try h.uint32()
        guard version == SearchIndex.binaryFormatVersion else { throw SearchIndexError.unsupportedVersion(version) }
        let length = try h.uint64()
        let sum = try h.uint64()
        guard UInt64(all.count - 24) == length else { throw SearchIndexError.corrupt("length") }
        let payload = all[24...]
        guard BinaryWriter.checksum(payload) == sum else { throw SearchIndexError.corrupt("checksum") }
        var r = BinaryReader(payload)
        let fingerprint = try r.string()
        if let expectedFingerprint, expectedFingerprint != fingerprint { throw SearchIndexError.fingerprintMismatch }
        var p = SearchParameters()
        p.k1 = try r.double(); p.b = try r.double(); p.beta = try r.double()
        p.fieldWeights = try r.doubles()
        p.maxPositions = try r.int()
        p.conceptWeight = try r.double()
        guard p.fieldWeights.count == SearchIndex.fieldCount else { throw SearchIndexError.corrupt("weights") }
        let conceptCount = try r.int()
        guard conceptCount <= payload.count else { throw SearchIndexError.corrupt("glossary") }
        var concepts: [SearchGlossary.Concept] = []
        for _ in 0..<conceptCount {
            let id = try r.string(), name = try r.string()
            let termCount = try r.int()
            guard termCount <= payload.count else { throw SearchIndexError.corrupt("glossary") }
            concepts.append(SearchGlossary.Concept(id: id, name: name, terms: try (0..<termCount).map { _ in try r.string() }))
        }
        self.init(parameters: p)
        glossary = concepts.isEmpty ? .empty : SearchGlossary(concepts: concepts)
        let n = try r.int()
        guard n >= 0, n <= payload.count else { throw SearchIndexError.corrupt("count") }
        for _ in 0..<n {
            ids.append(try r.string()); titles.append(try r.string()); langs.append(try r.string())
            urls.append(try r.optionalString())
            let tc = try r.int()
            guard tc >= 0, tc <= payload.count else { throw SearchIndexError.corrupt("tags") }
            tags.append(try (0..<tc).map { _ in try r.string() })
            statuses.append(try r.string())
        }
        docTextStart = try r.int32s()
        textField = try r.bytes()
        for _ in 0..<textField.count {
            textAnchor.append(try r.optionalString()); textLabel.append(try r.optionalString())
            textContent.append(try r.string())
        }
        fieldLengths = try r.int32s()
        averageFieldLengths = try r.doubles()
        let tokenBytes = try r.bytes()
        let tokenEnds = try r.int32s()
        documentFrequency = try r.int32s()
        idf = try r.doubles()
        idfUnknown = try r.double()
        postingStart = try r.int32s()
        let positionCount = try r.int()
        let postings = try r.bytes()
        try decodePostings(postings, positionCount: positionCount, tokenCount: tokenEnds.count)
        guard r.isAtEnd else { throw SearchIndexError.corrupt("trailing bytes") }
        try validate(tokenBytes: tokenBytes, tokenEnds: tokenEnds)
        tokens = TokenTable(bytes: tokenBytes, ends: tokenEnds)
    }

    private mutating func decodePostings(_ bytes: [UInt8], positionCount: Int, tokenCount: Int) throws {
        guard postingStart.count == tokenCount + 1, postingStart.first == 0,
              let last = postingStart.last, last >= 0, Int(last) <= bytes.count else { throw SearchIndexError.corrupt("postings") }
        let records = Int(last)
        guard positionCount >= 0, positionCount <= bytes.count else { throw SearchIndexError.corrupt("positions") }
        var doc = [Int32](repeating: 0, count: records), text = doc, tf = doc, start = doc
        var pos = [Int32](repeating: 0, count: positionCount)
        let cap = parameters.maxPositions
        let ok: Bool = bytes.withUnsafeBufferPointer { b in
            var reader = VarintReader(b)
            var np = 0
            for t in 0..<tokenCount {
                let lo = Int(postingStart[t]), hi = Int(postingStart[t + 1])
                guard lo <= hi, hi <= records else { return false }
                var prevDoc: UInt32 = 0
                for r in lo..<hi {
                    guard let dd = reader.read(), let tx = reader.read(), let f = reader.read() else { return false }
                    prevDoc &+= dd
                    guard prevDoc <= UInt32(Int32.max), tx <= UInt32(Int32.max), f >= 1, f <= UInt32(Int32.max) else { return false }
                    doc[r] = Int32(prevDoc); text[r] = Int32(tx); tf[r] = Int32(f); start[r] = Int32(np)
                    var p: UInt32 = 0
                    let m = min(Int(f), cap)
                    guard np + m <= positionCount else { return false }
                    for _ in 0..<m {
                        guard let d = reader.read() else { return false }
                        p &+= d
                        pos[np] = Int32(truncatingIfNeeded: p); np += 1
                    }
                }
            }
            return reader.isAtEnd && np == positionCount
        }
        guard ok else { throw SearchIndexError.corrupt("postings") }
        recordDoc = doc; recordText = text; recordTf = tf; recordPositionStart = start; positions = pos
    }

    private func validate(tokenBytes: [UInt8], tokenEnds: [Int32]) throws {
        let n = ids.count, v = tokenEnds.count, fc = SearchIndex.fieldCount
        func check(_ ok: Bool, _ what: String) throws { if !ok { throw SearchIndexError.corrupt(what) } }
        try check(docTextStart.count == n + 1 && docTextStart.first == 0 && Int(docTextStart.last!) == textField.count, "texts")
        for d in 0..<n { try check(docTextStart[d] <= docTextStart[d + 1], "texts") }
        try check(textField.allSatisfy { Int($0) < fc }, "fields")
        try check(fieldLengths.count == n * fc && averageFieldLengths.count == fc, "lengths")
        var last: Int32 = 0
        for e in tokenEnds { try check(e > last, "tokens"); last = e }
        try check(Int(last) == tokenBytes.count, "tokens")
        try check(documentFrequency.count == v && idf.count == v && postingStart.count == v + 1, "vocabulary")
        let records = recordDoc.count
        try check(recordText.count == records && recordTf.count == records && recordPositionStart.count == records, "records")
        try check(postingStart.first == 0 && Int(postingStart.last!) == records, "postings")
        for t in 0..<v { try check(postingStart[t] <= postingStart[t + 1], "postings") }
        let cap = parameters.maxPositions
        _ = cap
        for i in 0..<records {
            let d = Int(recordDoc[i])
            try check(d < n && recordText[i] < docTextStart[d + 1] - docTextStart[d], "record")
        }
    }

    /// Writes the binary form atomically.
    public func write(to url: URL, fingerprint: String = "") throws {
        try serialized(fingerprint: fingerprint).write(to: url, options: .atomic)
    }

    /// Reads a binary index file; see `init(serialized:expectedFingerprint:)`.
    public static func read(from url: URL, expectedFingerprint: String? = nil) throws -> SearchIndex {
        try SearchIndex(serialized: try Data(contentsOf: url), expectedFingerprint: expectedFingerprint)
    }
}

struct BinaryWriter {
    var bytes: [UInt8] = []

    mutating func uint32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func uint64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func int(_ v: Int) { uint64(UInt64(bitPattern: Int64(v))) }
    mutating func double(_ v: Double) { uint64(v.bitPattern) }
    mutating func bytes(_ v: [UInt8]) { int(v.count); bytes.append(contentsOf: v) }
    mutating func string(_ s: String) { bytes(Array(s.utf8)) }
    mutating func optionalString(_ s: String?) {
        if let s { bytes.append(1); string(s) } else { bytes.append(0) }
    }
    mutating func int32s(_ v: [Int32]) {
        int(v.count)
        #if _endian(little)
        v.withUnsafeBytes { bytes.append(contentsOf: $0) }
        #else
        for x in v { withUnsafeBytes(of: x.littleEndian) { bytes.append(contentsOf: $0) } }
        #endif
    }
    mutating func doubles(_ v: [Double]) {
        int(v.count)
        for x in v { uint64(x.bitPattern) }
    }

    /// FNV-1a-style 64-bit checksum over little-endian 64-bit words (the tail zero-padded), then the length.
    static func checksum<C: RandomAccessCollection & ContiguousBytes>(_ bytes: C) -> UInt64 where C.Element == UInt8 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        let prime: UInt64 = 0x100_0000_01b3
        bytes.withUnsafeBytes { raw in
            let words = raw.count / 8
            for i in 0..<words {
                h = (h ^ UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self))) &* prime
            }
            var tail: UInt64 = 0
            for i in (words * 8)..<raw.count { tail |= UInt64(raw[i]) << (8 * UInt64(i - words * 8)) }
            h = (h ^ tail) &* prime
        }
        return (h ^ UInt64(bytes.count)) &* prime
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

struct BinaryReader {
    let data: ArraySlice<UInt8>
    var offset: Int

    init(_ data: ArraySlice<UInt8>) {
        self.data = data
        offset = data.startIndex
    }

    var isAtEnd: Bool { offset == data.endIndex }

    private mutating func take(_ n: Int) throws -> ArraySlice<UInt8> {
        guard n >= 0, data.endIndex - offset >= n else { throw SearchIndexError.corrupt("truncated") }
        defer { offset += n }
        return data[offset..<offset + n]
    }

    mutating func uint32() throws -> UInt32 {
        let b = try take(4)
        return b.reversed().reduce(0) { ($0 << 8) | UInt32($1) }
    }

    mutating func uint64() throws -> UInt64 {
        let b = try take(8)
        return b.reversed().reduce(0) { ($0 << 8) | UInt64($1) }
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
        guard let s = String(validating: b, as: UTF8.self) else { throw SearchIndexError.corrupt("string") }
        return s
    }

    mutating func optionalString() throws -> String? {
        let flag = try take(1).first!
        switch flag {
        case 0: return nil
        case 1: return try string()
        default: throw SearchIndexError.corrupt("optional")
        }
    }

    mutating func int32s() throws -> [Int32] {
        let n = try int()
        let b = try take(n * 4)
        var out = [Int32](repeating: 0, count: n)
        out.withUnsafeMutableBytes { dst in
            b.withUnsafeBytes { src in dst.copyMemory(from: src) }
        }
        #if !_endian(little)
        for i in 0..<n { out[i] = Int32(littleEndian: out[i]) }
        #endif
        return out
    }

    mutating func doubles() throws -> [Double] {
        let n = try int()
        let b = try take(n * 8)
        var out = [Double](repeating: 0, count: n)
        b.withUnsafeBytes { src in
            for i in 0..<n { out[i] = Double(bitPattern: UInt64(littleEndian: src.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self))) }
        }
        return out
    }
}
