import KBCore
/// The postings of all accumulators joined (docs/search.md §7): the vocabulary in
/// first-appearance order (as if built serially), per token its document frequency, record
/// count and parts in document order, and the statistics. What an encoder writes of a token is
/// its parts in order, each after its head (`PostingsEncoding.writeHead`): the document gap from
/// the token's previous part.
struct MergedPostings {
    /// A run of a token's records in one accumulator's stream.
    struct Part {
        /// The accumulator, and the token in its vocabulary.
        var source: Int32
        var token: Int32
        /// The document gap from the token's previous part (from document 0 for the first).
        var gap: Int32
        var bytes: Range<Int>
    }

    private(set) var vocabulary = TokenTable()
    private(set) var documentFrequency: [Int32] = []
    private(set) var recordCount: [Int32] = []
    /// The parts of token `t` are `parts[partStart[t] ..< partStart[t + 1]]`.
    private(set) var parts: [Part] = []
    private(set) var partStart: [Int] = [0]
    let statistics: PostingsStatistics
    private let streams: [ChunkTokens]

    /// Joins `accumulators` over `documentCount` documents; `batches` are the batches in
    /// document order, each as its accumulator and the range of that accumulator's parts it began.
    init<Encoding>(_ accumulators: [PostingsAccumulator<Encoding>], batches: [(source: Int, parts: Range<Int>)],
                   documentCount: Int) {
        streams = accumulators.map(\.streams)
        // Vocabulary: batches in order, each batch's parts in the order they began.
        var maps = accumulators.map { [Int32](repeating: -1, count: $0.vocabulary.count) }
        for batch in batches {
            let source = accumulators[batch.source]
            for p in batch.parts {
                let i = Int(source.parts[p].token)
                guard maps[batch.source][i] < 0 else { continue }
                let (id, isNew) = vocabulary.intern(tokenAt: i, of: source.vocabulary)
                if isNew { documentFrequency.append(0); recordCount.append(0) }
                maps[batch.source][i] = id
            }
        }
        var totalLength = [Int](repeating: 0, count: SearchIndex.fieldCount)
        for (c, source) in accumulators.enumerated() {
            for i in 0..<source.vocabulary.count {
                let g = Int(maps[c][i])
                documentFrequency[g] += source.streams[i].documentFrequency
                recordCount[g] += source.streams[i].recordCount
            }
            for f in totalLength.indices { totalLength[f] += source.totalLength[f] }
        }
        statistics = PostingsStatistics(documentCount: documentCount, documentFrequency: documentFrequency,
                                        totalFieldLength: totalLength)

        // Parts: counted per token, then placed in batch order with the gaps between them.
        let v = vocabulary.count
        partStart = [Int](repeating: 0, count: v + 1)
        for batch in batches {
            for p in batch.parts {
                partStart[Int(maps[batch.source][Int(accumulators[batch.source].parts[p].token)]) + 1] += 1
            }
        }
        for t in 0..<v { partStart[t + 1] += partStart[t] }
        parts = [Part](repeating: Part(source: 0, token: 0, gap: 0, bytes: 0..<0), count: partStart[v])
        var fill = partStart
        var previousLast = [Int32](repeating: 0, count: v)
        for batch in batches {
            for p in batch.parts {
                let part = accumulators[batch.source].parts[p]
                let g = Int(maps[batch.source][Int(part.token)])
                parts[fill[g]] = Part(source: Int32(batch.source), token: part.token,
                                      gap: part.firstDoc - previousLast[g], bytes: part.from..<part.to)
                fill[g] += 1
                previousLast[g] = part.lastDoc
            }
        }
    }

    /// Number of tokens.
    var tokenCount: Int { vocabulary.count }

    /// The parts of token `t`.
    func parts(ofToken t: Int) -> ArraySlice<Part> { parts[partStart[t]..<partStart[t + 1]] }

    /// The records of a part, in its accumulator's stream (valid while this value lives).
    func records(_ part: Part) -> UnsafeRawBufferPointer {
        streams[Int(part.source)].bytes(Int(part.token), part.bytes)
    }

    /// The length of token `t`'s postings in `Encoding`.
    func length<Encoding: PostingsEncoding>(ofToken t: Int, _: Encoding.Type) -> Int {
        parts(ofToken: t).reduce(0) { $0 + Encoding.headLength(gap: $1.gap) + $1.bytes.count }
    }

    /// Writes token `t`'s postings in `Encoding` (`length(ofToken:)` bytes) into `out`.
    func write<Encoding: PostingsEncoding>(token t: Int, _: Encoding.Type, into out: inout RecordWriter) {
        for part in parts(ofToken: t) {
            Encoding.writeHead(gap: part.gap, into: &out)
            out.copy(records(part))
        }
    }

    /// All tokens' postings in `Encoding`, one after another, and where each starts (with the
    /// end as a last offset). With `releasingStreams`, each token's streams in the accumulators
    /// are freed as soon as they are copied, so that the postings are not held twice while they
    /// are joined (the accumulators are spent then).
    func concatenated<Encoding: PostingsEncoding>(_: Encoding.Type, releasingStreams: Bool = false) -> (ByteRegion, [Int64]) {
        var offsets: [Int64] = [0]
        offsets.reserveCapacity(tokenCount + 1)
        for t in 0..<tokenCount { offsets.append(offsets[t] + Int64(length(ofToken: t, Encoding.self))) }
        let total = Int(offsets[tokenCount])
        let bytes = UnsafeMutableRawPointer.allocate(byteCount: max(1, total), alignment: 8)
        for t in 0..<tokenCount {
            var out = RecordWriter(at: bytes + Int(offsets[t]))
            write(token: t, Encoding.self, into: &out)
            if releasingStreams {
                for part in parts(ofToken: t) { streams[Int(part.source)].releaseStream(Int(part.token)) }
            }
        }
        return (ByteRegion(taking: bytes, count: total), offsets)
    }

    /// The same, written to `spill` a group of tokens at a time (each token's streams freed
    /// once copied, so the accumulators are spent), with each token's checksum (`ContentChecksum`)
    /// taken on the way: the joined postings are never in memory whole. `storing(t, records)` may
    /// give the bytes to store instead of token `t`'s records (it is called on all cores, a group
    /// of tokens with up to `groupBytes` of records at a time, and the results written in order).
    func write<Encoding: PostingsEncoding>(_: Encoding.Type, into spill: SpillFile, groupBytes: Int = 8 << 20,
                                           storing: (Int, [UInt8]) -> [UInt8]? = { _, _ in nil }) -> (offsets: [Int64], checksums: [UInt64]) {
        var offsets: [Int64] = [0]
        offsets.reserveCapacity(tokenCount + 1)
        var checksums: [UInt64] = []
        checksums.reserveCapacity(tokenCount)
        var first = 0
        while first < tokenCount {
            var end = first, bytes = 0
            while end < tokenCount, end == first || bytes + length(ofToken: end, Encoding.self) <= groupBytes {
                bytes += length(ofToken: end, Encoding.self)
                end += 1
            }
            let group = Parallel.map(end - first) { k -> (bytes: [UInt8], checksum: UInt64) in
                let t = first + k
                var records = [UInt8](repeating: 0, count: length(ofToken: t, Encoding.self) + 1)
                records.withUnsafeMutableBytes { raw in
                    var out = RecordWriter(at: raw.baseAddress!)
                    write(token: t, Encoding.self, into: &out)
                }
                records.removeLast()
                let stored = storing(t, records) ?? records
                return (stored, ContentChecksum.of(stored[...]))
            }
            for (k, token) in group.enumerated() {
                checksums.append(token.checksum)
                spill.append(token.bytes)
                offsets.append(offsets[first + k] + Int64(token.bytes.count))
                for part in parts(ofToken: first + k) { streams[Int(part.source)].releaseStream(Int(part.token)) }
            }
            first = end
        }
        return (offsets, checksums)
    }
}
