/// How `.kb/index` stores a large posting list (docs/search.md §7): its records
/// (`BinaryPostings`) split into five varint streams — heads, text numbers, first positions,
/// `tf − 2`, later position gaps — each compressed as one zstd frame (`Zstd`). Apart, each
/// stream's numbers compress to what they carry; interleaved, they would not (at 10,000 generated
/// entries the postings take 24.7 MB this way, 45.9 MB as plain records and 28.3 MB as plain
/// records compressed per list).
///
/// Stored form: for each stream in order, its length as plain varints and its stored length
/// (both varints; a stored length of 0 means the stream is kept as it is, when compression
/// would not make it shorter), then the five streams.
enum BinaryPostingsColumns {
    /// Lists of more records than this are stored in columns; smaller ones as plain records
    /// (the frames would cost more than they save). 99.8 % of the postings' bytes at 10,000
    /// generated entries are in lists above it.
    static let threshold = 128

    /// The five streams, in their stored order.
    enum Stream: Int, CaseIterable {
        case head, text, first, tf, later
    }

    /// The stored form of `recordCount` plain records with at most `cap` positions each; nil
    /// when the records do not parse (they are the writer's own, so never).
    static func store(plain: [UInt8], recordCount: Int, cap: Int) -> [UInt8]? {
        plain.withUnsafeBufferPointer { store(VarintReader($0), recordCount: recordCount, cap: cap) }
    }

    private static func store(_ plain: VarintReader, recordCount: Int, cap: Int) -> [UInt8]? {
        var streams = [[UInt8]](repeating: [], count: Stream.allCases.count)
        var reader = plain
        func copy(_ stream: Stream) -> UInt32? {
            guard let v = reader.read() else { return nil }
            Varint.append(v, to: &streams[stream.rawValue])
            return v
        }
        for _ in 0..<recordCount {
            guard let head = copy(.head) else { return nil }
            if head & 1 == 1 { guard copy(.text) != nil else { return nil } }
            guard let first = copy(.first) else { return nil }
            var tf = 1
            if first & 1 == 1 {
                guard let more = copy(.tf) else { return nil }
                tf = Int(more) + 2
            }
            for _ in 0..<max(min(tf, cap) - 1, 0) { guard copy(.later) != nil else { return nil } }
        }
        guard reader.isAtEnd else { return nil }
        var out: [UInt8] = []
        var bodies: [[UInt8]] = []
        for stream in streams {
            let compressed = Zstd.compress(stream)
            let keep = compressed.count < stream.count
            Varint.append(UInt32(stream.count), to: &out)
            Varint.append(UInt32(keep ? compressed.count : 0), to: &out)
            bodies.append(keep ? compressed : stream)
        }
        for body in bodies { out += body }
        return out
    }

    /// The five streams of a stored list of `recordCount` records with at most `cap` positions
    /// each, decompressed one after another into one buffer, and where each is in it; nil when
    /// the stored form is damaged. A stream longer than such records can make is refused before
    /// anything is reserved or decompressed for it.
    static func streams(_ stored: UnsafeRawBufferPointer, recordCount: Int, cap: Int) -> (bytes: [UInt8], ranges: [Range<Int>])? {
        var reader = VarintReader(stored.bindMemory(to: UInt8.self))
        var lengths: [(plain: Int, stored: Int)] = []
        for stream in Stream.allCases {
            guard let plain = reader.read(), let storedLength = reader.read(),
                  Int(plain) <= recordCount * Varint.maxLength * (stream == .later ? max(cap - 1, 0) : 1) else { return nil }
            lengths.append((Int(plain), Int(storedLength)))
        }
        var offset = reader.offset
        var bytes: [UInt8] = []
        bytes.reserveCapacity(lengths.reduce(0) { $0 + $1.plain })
        var ranges: [Range<Int>] = []
        for length in lengths {
            let size = length.stored == 0 ? length.plain : length.stored
            guard size <= stored.count - offset else { return nil }
            let body = UnsafeRawBufferPointer(rebasing: stored[offset..<(offset + size)])
            let start = bytes.count
            if length.stored == 0 {
                bytes.append(contentsOf: body)
            } else {
                guard Zstd.decompress(body, rawLength: length.plain, appendingTo: &bytes) else { return nil }
            }
            ranges.append(start..<bytes.count)
            offset += size
        }
        guard offset == stored.count else { return nil }
        return (bytes, ranges)
    }
}

/// Where a decoder reads the numbers of a token's records: one stream of plain records, or the
/// five streams of a list stored in columns.
protocol PostingsRecordSource {
    mutating func next(_ stream: BinaryPostingsColumns.Stream) -> UInt32?
    /// Every number was read.
    var isAtEnd: Bool { get }
}

/// Plain records: every number from the one stream, in record order.
struct PlainRecords: PostingsRecordSource {
    var reader: VarintReader
    @inline(__always) mutating func next(_ stream: BinaryPostingsColumns.Stream) -> UInt32? { reader.read() }
    var isAtEnd: Bool { reader.isAtEnd }
}

/// Records in columns: each number from its own stream.
struct ColumnRecords: PostingsRecordSource {
    var head, text, first, tf, later: VarintReader
    @inline(__always) mutating func next(_ stream: BinaryPostingsColumns.Stream) -> UInt32? {
        switch stream {
        case .head: head.read()
        case .text: text.read()
        case .first: first.read()
        case .tf: tf.read()
        case .later: later.read()
        }
    }
    var isAtEnd: Bool { head.isAtEnd && text.isAtEnd && first.isAtEnd && tf.isAtEnd && later.isAtEnd }
}
