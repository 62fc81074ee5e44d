import Foundation
import KBCore

/// A BM25F index over `SearchDocument`s (docs/search.md). Built in memory, or opened from the
/// binary file of `write(to:fingerprint:)`, in which case the postings stay in the
/// (memory-mapped) file and are decoded per token when used, and the documents' texts (for
/// snippets) come from a `SearchTextSource`, checked against the checksums the file keeps.
public struct SearchIndex: Sendable {
    public let parameters: SearchParameters
    /// The glossary whose concepts were added to the texts and are added to queries
    /// (empty: no cross-language expansion).
    public internal(set) var glossary: SearchGlossary = .empty

    // Documents, sorted by id (UTF-8 byte order).
    public internal(set) var ids = SearchStrings()
    var titles = SearchStrings()
    var langs = SearchStrings()
    /// URL of document `d` is `urlValues[d]` when `hasURL[d] != 0`.
    var urlValues = SearchStrings()
    var hasURL: [UInt8] = []
    /// Tags of document `d`: `tagValues[tagStart[d] ..< tagStart[d + 1]]`.
    var tagValues = SearchStrings()
    var tagStart: [Int32] = [0]
    var statuses = SearchStrings()
    /// Text `docTextStart[d] + t` is the `t`-th text of document `d`.
    var docTextStart: [Int32] = [0]
    var textField: [UInt8] = []
    /// Anchor and label of a text: an index into `strings`, or -1.
    var textAnchor: [Int32] = []
    var textLabel: [Int32] = []
    var strings = SearchStrings()
    /// The checksum of document `d`'s texts (`SearchTextBlock`), which an index read from a file
    /// checks the texts of its `textSource` against.
    var textBlockChecksum: [UInt64] = []
    /// An index built in memory keeps its texts: those of document `d`, each as a varint byte
    /// length and UTF-8, are `textBlocks[textBlockStart[d] ..< textBlockStart[d + 1]]`. Empty
    /// (`storesTexts` false) in an index read from a file or built for one.
    var textBlocks = ByteRegion()
    var textBlockStart: [Int64] = [0]
    var storesTexts = true
    /// Where an index without texts of its own reads them (nil: its results have no snippets).
    public internal(set) var textSource: SearchTextSource? = nil
    /// The fingerprint an index read from a file was written with (empty for one built in memory).
    public internal(set) var storedFingerprint = ""
    /// Field lengths in tokens as scored (quantized, `SearchFieldLength.scored`),
    /// `fieldLengths[d * fieldCount + f]`; the averages are of the exact lengths.
    var fieldLengths: [Int32] = []
    public internal(set) var averageFieldLengths: [Double] = []

    // Vocabulary and postings.
    var tokens = TokenTable()
    var documentFrequency: [Int32] = []
    var idf: [Double] = []
    /// IDF of a token that is in no document.
    public internal(set) var idfUnknown: Double = 0
    /// Records of token `t`, encoded (docs/search.md §7), are
    /// `postingBytes[postingOffset[t] ..< postingOffset[t + 1]]`: `recordCount[t]` records with
    /// checksum `postingChecksum[t]`.
    var postingBytes = ByteRegion()
    var postingOffset: [Int64] = [0]
    var recordCount: [Int32] = []
    var postingChecksum: [UInt64] = []
    /// Decoded posting lists, shared by copies of this index.
    var cache = SearchIndexCache()

    static let fieldCount = SearchField.allCases.count

    /// Number of documents.
    public var documentCount: Int { ids.count }
    /// Number of distinct tokens.
    public var tokenCount: Int { tokens.count }
    /// Number of (token, field text) postings.
    public var postingCount: Int { recordCount.reduce(0) { $0 + Int($1) } }
    /// True once a posting list of an index read from a file failed its checksum or structure,
    /// or the texts of a document did not match it (`entriesChanged`); the index should then be
    /// rebuilt (results may be incomplete).
    public var isDamaged: Bool { cache.damaged }
    /// True once the text source gave a document's texts that are not those the index was
    /// built from (or none): its entry changed since.
    public var entriesChanged: Bool { cache.textsChanged }

    init(parameters: SearchParameters) {
        self.parameters = parameters
    }

    /// The URL of document `d`, if it has one.
    public func url(ofDocument d: Int) -> String? { hasURL[d] != 0 ? urlValues[d] : nil }
    /// The tags of document `d`.
    public func tags(ofDocument d: Int) -> [String] { (Int(tagStart[d])..<Int(tagStart[d + 1])).map { tagValues[$0] } }
    public func title(ofDocument d: Int) -> String { titles[d] }
    public func lang(ofDocument d: Int) -> String { langs[d] }
    func string(_ i: Int32) -> String? { i >= 0 ? strings[Int(i)] : nil }

    // MARK: Building

    /// Builds an index. Documents are sorted by id (UTF-8 byte order); equal ids keep their order.
    /// Texts are tokenized in parallel chunks; the result does not depend on the chunking.
    /// With a glossary, every text also gets the concept tokens of the terms it contains.
    public static func build(documents: consuming [SearchDocument], parameters: SearchParameters = .default,
                             glossary: SearchGlossary = .empty) -> SearchIndex {
        build(documents: documents, parameters: parameters, glossary: glossary, chunkCount: nil)
    }

    /// Positions of `documents` in index order: by id (UTF-8 byte order), equal ids in input order.
    static func documentOrder(_ documents: [SearchDocument]) -> [Int] {
        documentOrder(count: documents.count) { documents[$0].id }
    }

    /// Positions `0..<count` in index order of the ids `id(i)`.
    package static func documentOrder(count: Int, id: (Int) -> String) -> [Int] {
        let ids = (0..<count).map(id)
        func precedes(_ a: Int, _ b: Int) -> Bool {
            let x = ids[a], y = ids[b]
            if x == y { return a < b }
            return x.utf8.lexicographicallyPrecedes(y.utf8)
        }
        // (Ids mostly come in order already: the loader's and the build manifest's.)
        if ids.indices.dropFirst().allSatisfy({ precedes($0 - 1, $0) }) { return Array(ids.indices) }
        return ids.indices.sorted(by: precedes)
    }

    /// Takes the documents (`consuming`): once tokenized they are let go, before the postings
    /// and texts are joined, so a caller that hands over its only copy does not hold them then.
    static func build(documents: consuming [SearchDocument], parameters: SearchParameters, glossary: SearchGlossary = .empty,
                      chunkCount requested: Int?) -> SearchIndex {
        let order = documentOrder(documents)
        var sorted: [SearchDocument] = []
        sorted.reserveCapacity(order.count)
        for position in order { sorted.append(documents[position]) }
        documents = []
        var builder = SearchIndexBuilder(parameters: parameters, glossary: glossary, chunkCount: requested)
        let added = builder.add(sorted)
        assert(added, "documents in index order")
        sorted = []
        return builder.finishInMemory()
    }

    /// A contiguous range of documents as the binary index holds them: their postings (one batch
    /// of the postings accumulator), the checksum of each document's texts (docs/search.md §7)
    /// and, when `keepsTexts` (an index built in memory), the texts and each document's end, and
    /// the field lengths (as scored: `SearchFieldLength`).
    struct BinaryChunk {
        var postings: PostingsAccumulator<BinaryPostings>
        let keepsTexts: Bool
        var textBytes: [UInt8] = []
        var docTextEnd: [Int] = []
        var docChecksum: [UInt64] = []
        var fieldLengths: [Int32] = []

        init(cap: Int, glossary: SearchGlossary, keepsTexts: Bool) {
            postings = PostingsAccumulator(cap: cap, glossary: glossary)
            self.keepsTexts = keepsTexts
        }

        mutating func add(_ document: SearchDocument, number d: Int32) {
            postings.add(document, number: d)
            for length in postings.records.fieldLengths { fieldLengths.append(Int32(SearchFieldLength.scored(length))) }
            if !keepsTexts { textBytes.removeAll(keepingCapacity: true) }
            let blockStart = textBytes.count
            for field in SearchField.allCases {
                for ft in document.fields[field] ?? [] { SearchTextBlock.append(ft.text, to: &textBytes) }
            }
            docTextEnd.append(keepsTexts ? textBytes.count : 0)
            docChecksum.append(ContentChecksum.of(textBytes[blockStart...]))
        }

        /// Lets go of the texts of a chunk that does not keep them (its scratch buffer).
        mutating func finish() {
            postings.finish()
            if !keepsTexts { textBytes = [] }
        }
    }

    /// Joins the chunks (`MergedPostings`) and encodes the postings, texts (when the chunks keep
    /// them), lengths and statistics. The texts are joined first, each chunk's let go once
    /// copied, so that they are not held twice while the postings are joined.
    /// `postingsSpill`: a file the postings are joined into (a token at a time), then mapped,
    /// instead of memory. Throws only when that file cannot be written or read back.
    mutating func encode(_ chunks: consuming [BinaryChunk], keepsTexts: Bool, postingsSpill: SpillFile? = nil) throws {
        var textEnd = 0
        storesTexts = keepsTexts
        textBlockStart = [0]
        textBlockStart.reserveCapacity(keepsTexts ? ids.count + 1 : 1)
        textBlockChecksum = []
        textBlockChecksum.reserveCapacity(ids.count)
        fieldLengths = []
        fieldLengths.reserveCapacity(ids.count * SearchIndex.fieldCount)
        // The chunks' texts are moved out of them and let go one by one as they are joined.
        var texts: [[UInt8]] = []
        texts.reserveCapacity(chunks.count)
        for c in chunks.indices {
            if keepsTexts {
                for end in chunks[c].docTextEnd { textBlockStart.append(Int64(textEnd + end)) }
                textEnd += chunks[c].docTextEnd.last ?? 0
            }
            textBlockChecksum.append(contentsOf: chunks[c].docChecksum)
            fieldLengths.append(contentsOf: chunks[c].fieldLengths)
            texts.append(chunks[c].textBytes)
            chunks[c].textBytes = []
        }
        textBlocks = ByteRegion(concatenating: consume texts)

        let postings = MergedPostings(chunks.map(\.postings),
                                      batches: chunks.indices.map { ($0, 0..<chunks[$0].postings.parts.count) },
                                      documentCount: ids.count)
        tokens = postings.vocabulary
        documentFrequency = postings.documentFrequency
        recordCount = postings.recordCount
        // Large lists are stored in columns (`BinaryPostingsColumns`), the others as plain records.
        let counts = postings.recordCount, cap = parameters.maxPositions
        func stored(_ t: Int, _ plain: [UInt8]) -> [UInt8]? {
            Int(counts[t]) > BinaryPostingsColumns.threshold ? BinaryPostingsColumns.store(plain: plain, recordCount: Int(counts[t]), cap: cap) : nil
        }
        if let postingsSpill {
            (postingOffset, postingChecksum) = postings.write(BinaryPostings.self, into: postingsSpill, storing: stored)
            postingBytes = try postingsSpill.region()
        } else {
            let (plain, plainOffsets) = postings.concatenated(BinaryPostings.self, releasingStreams: true)
            var bytes: [UInt8] = []
            var offsets: [Int64] = [0]
            var checksums: [UInt64] = []
            for t in 0..<tokens.count {
                let records = Array(plain.slice(Int(plainOffsets[t])..<Int(plainOffsets[t + 1])))
                let start = bytes.count
                bytes += stored(t, records) ?? records
                checksums.append(ContentChecksum.of(bytes[start...]))
                offsets.append(Int64(bytes.count))
            }
            (postingBytes, postingOffset, postingChecksum) = (ByteRegion(bytes), offsets, checksums)
        }

        averageFieldLengths = postings.statistics.averageFieldLengths
        idf = postings.statistics.idf
        idfUnknown = postings.statistics.idfUnknown
    }

    static func idf(df: Double, n: Double) -> Double {
        PostingsStatistics.idf(df: df, n: n)
    }

    // MARK: Decoding

    /// The records of token `id`, decoded on first use. Nil (and the index marked damaged) when
    /// the stored list fails its checksum or structure.
    func postingList(_ id: Int32) -> PostingList? {
        if let list = cache.list(id) { return list }
        guard let list = decodePostings(Int(id)) else {
            cache.markDamaged()
            return nil
        }
        cache.store(id, list)
        return list
    }

    func decodePostings(_ t: Int) -> PostingList? {
        let lo = Int(postingOffset[t]), hi = Int(postingOffset[t + 1])
        guard lo <= hi, hi <= postingBytes.count else { return nil }
        let raw = postingBytes.slice(lo..<hi)
        guard ContentChecksum.of(raw) == postingChecksum[t] else { return nil }
        let records = Int(recordCount[t])
        guard records > BinaryPostingsColumns.threshold else {
            var source = PlainRecords(reader: VarintReader(raw.bindMemory(to: UInt8.self)))
            return decodeRecords(records, from: &source)
        }
        guard let (bytes, ranges) = BinaryPostingsColumns.streams(raw, recordCount: records, cap: parameters.maxPositions) else { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            func reader(_ stream: BinaryPostingsColumns.Stream) -> VarintReader {
                VarintReader(UnsafeBufferPointer(rebasing: buffer[ranges[stream.rawValue]]))
            }
            var source = ColumnRecords(head: reader(.head), text: reader(.text), first: reader(.first), tf: reader(.tf), later: reader(.later))
            return decodeRecords(records, from: &source)
        }
    }

    /// Decodes `records` records (docs/search.md §7) from `source`, checking that each number is
    /// one the writer makes and that nothing is left over.
    func decodeRecords<Source: PostingsRecordSource>(_ records: Int, from source: inout Source) -> PostingList? {
        let cap = parameters.maxPositions
        let n = ids.count
        var list = PostingList()
        list.doc.reserveCapacity(records); list.text.reserveCapacity(records)
        list.tf.reserveCapacity(records); list.posStart.reserveCapacity(records)
        list.pos.reserveCapacity(records * 2)
        let dts = docTextStart
        var doc: UInt32 = 0
        var lastDoc = -1, lastText = -1
        for _ in 0..<records {
            // The head: a new document (odd: its gap, then the text) or the next text of this one.
            guard let head = source.next(.head) else { return nil }
            let x: Int
            if head & 1 == 1 {
                // Only a token's first record may stay at document 0: a new document is a later one.
                let (next, overflow) = doc.addingReportingOverflow(head >> 1)
                guard !overflow, head >> 1 > 0 || lastDoc < 0, let tx = source.next(.text) else { return nil }
                doc = next
                x = Int(tx)
            } else {
                guard lastDoc >= 0 else { return nil }
                x = lastText + 1 + Int(head >> 1)
            }
            guard doc < UInt32(n), let first = source.next(.first) else { return nil }
            var f: UInt32 = 1
            if first & 1 == 1 {
                guard let more = source.next(.tf), more <= UInt32(Int32.max) - 2 else { return nil }
                f = more + 2
            }
            let d = Int(doc)
            guard x < Int(dts[d + 1] - dts[d]), d > lastDoc || (d == lastDoc && x > lastText) else { return nil }
            lastDoc = d; lastText = x
            list.doc.append(Int32(d)); list.text.append(Int32(x)); list.tf.append(Int32(f))
            list.posStart.append(Int32(list.pos.count))
            let m = min(Int(f), cap)
            // Positions stay below Int32.max (adjacency adds 1 to them); without any, p₀ is 0.
            var p = first >> 1
            guard m > 0 else {
                guard p == 0 else { return nil }
                continue
            }
            guard p < UInt32(Int32.max) else { return nil }
            list.pos.append(Int32(p))
            for _ in 1..<m {
                guard let delta = source.next(.later) else { return nil }
                let (next, overflow) = p.addingReportingOverflow(delta)
                guard !overflow, next < UInt32(Int32.max) else { return nil }
                p = next
                list.pos.append(Int32(p))
            }
        }
        return source.isAtEnd ? list : nil
    }

    /// The texts of document `d` in text order: its own, or its text source's (nil without one).
    /// Nil, and the index marked damaged, if the texts are not those the index was built from
    /// (`entriesChanged`).
    public func texts(ofDocument d: Int) -> [String]? {
        guard storesTexts else { return sourceTexts(ofDocument: d) }
        let lo = Int(textBlockStart[d]), hi = Int(textBlockStart[d + 1])
        guard lo <= hi, hi <= textBlocks.count else { cache.markDamaged(); return nil }
        let raw = textBlocks.slice(lo..<hi)
        guard ContentChecksum.of(raw) == textBlockChecksum[d] else { cache.markDamaged(); return nil }
        let bytes = raw.bindMemory(to: UInt8.self)
        var reader = VarintReader(bytes)
        var out: [String] = []
        let count = Int(docTextStart[d + 1] - docTextStart[d])
        out.reserveCapacity(count)
        for _ in 0..<count {
            guard let len = reader.read(), reader.offset + Int(len) <= bytes.count,
                  let s = String(validating: UnsafeBufferPointer(rebasing: bytes[reader.offset..<reader.offset + Int(len)]), as: UTF8.self)
            else { cache.markDamaged(); return nil }
            reader.offset += Int(len)
            out.append(s)
        }
        guard reader.isAtEnd else { cache.markDamaged(); return nil }
        return out
    }

    /// The texts of document `d` from the text source, checked against the index's checksum.
    private func sourceTexts(ofDocument d: Int) -> [String]? {
        if let texts = cache.texts(d) { return texts }
        guard let textSource else { return nil }
        guard let texts = textSource.texts(ids[d]), texts.count == Int(docTextStart[d + 1] - docTextStart[d]),
              SearchTextBlock.checksum(texts) == textBlockChecksum[d] else {
            cache.markTextsChanged()
            return nil
        }
        cache.store(texts: texts, of: d)
        return texts
    }
}
