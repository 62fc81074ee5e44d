import Foundation
import KBCore

/// A BM25F index over `SearchDocument`s (docs/search.md). Built in memory, or opened from the
/// binary file of `write(to:fingerprint:)`, in which case the postings and the document texts
/// stay in the (memory-mapped) file and are decoded per token or per document when used.
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
    /// The texts of document `d`, each as a varint byte length and UTF-8, are
    /// `textBlocks[textBlockStart[d] ..< textBlockStart[d + 1]]` (checksum `textBlockChecksum[d]`).
    var textBlocks = ByteRegion()
    var textBlockStart: [Int64] = [0]
    var textBlockChecksum: [UInt64] = []
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
    /// True once a posting list or text block of an index read from a file failed its checksum
    /// or structure; the index should then be rebuilt (results may be incomplete).
    public var isDamaged: Bool { cache.damaged }

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
    public static func build(documents: [SearchDocument], parameters: SearchParameters = .default,
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

    static func build(documents: [SearchDocument], parameters: SearchParameters, glossary: SearchGlossary = .empty,
                      chunkCount requested: Int?) -> SearchIndex {
        let order = documentOrder(documents)
        var index = SearchIndex(parameters: parameters)
        index.glossary = glossary
        var stringIndex: [String: Int32] = [:]
        func intern(_ s: String?) -> Int32 {
            guard let s else { return -1 }
            if let i = stringIndex[s] { return i }
            let i = Int32(index.strings.count)
            stringIndex[s] = i
            index.strings.append(s)
            return i
        }
        for position in order {
            let doc = documents[position]
            index.ids.append(doc.id)
            index.titles.append(doc.title)
            index.langs.append(doc.lang)
            index.urlValues.append(doc.url ?? "")
            index.hasURL.append(doc.url == nil ? 0 : 1)
            for tag in doc.tags { index.tagValues.append(tag) }
            index.tagStart.append(Int32(index.tagValues.count))
            index.statuses.append(doc.status)
            var count: Int32 = 0
            for field in SearchField.allCases {
                for ft in doc.fields[field] ?? [] {
                    index.textField.append(UInt8(field.rawValue))
                    index.textAnchor.append(intern(ft.anchor))
                    index.textLabel.append(intern(ft.label))
                    count += 1
                }
            }
            index.docTextStart.append(index.docTextStart.last! + count)
        }

        let n = order.count
        let chunkCount = max(1, min(requested ?? ProcessInfo.processInfo.activeProcessorCount * 4, requested == nil ? n / 100 : n))
        let cap = max(0, parameters.maxPositions)
        let chunks = Parallel.map(chunkCount) { c in
            let lo = n * c / chunkCount, hi = n * (c + 1) / chunkCount
            var chunk = BinaryChunk(cap: cap, glossary: glossary)
            // The text buffer sized once from the chunk's text.
            var textSize = 0, textCount = 0
            for d in lo..<hi {
                for texts in documents[order[d]].fields.values { for ft in texts { textSize += ft.text.utf8.count; textCount += 1 } }
            }
            chunk.textBytes.reserveCapacity(textSize + 5 * textCount)
            _ = chunk.postings.beginBatch(firstDocument: Int32(lo))
            for d in lo..<hi { chunk.add(documents[order[d]], number: Int32(d)) }
            chunk.postings.finish()
            return chunk
        }
        index.encode(chunks)
        return index
    }

    /// A contiguous range of documents as `.kb/index` keeps them: their postings (one batch of
    /// the postings accumulator), and their texts (docs/search.md §7), each document's end and
    /// checksum, and field lengths (as scored: `SearchFieldLength`).
    struct BinaryChunk {
        var postings: PostingsAccumulator<BinaryPostings>
        var textBytes: [UInt8] = []
        var docTextEnd: [Int] = []
        var docChecksum: [UInt64] = []
        var fieldLengths: [Int32] = []

        init(cap: Int, glossary: SearchGlossary) {
            postings = PostingsAccumulator(cap: cap, glossary: glossary)
        }

        mutating func add(_ document: SearchDocument, number d: Int32) {
            postings.add(document, number: d)
            for length in postings.records.fieldLengths { fieldLengths.append(Int32(SearchFieldLength.scored(length))) }
            let blockStart = textBytes.count
            for field in SearchField.allCases {
                for ft in document.fields[field] ?? [] {
                    Varint.append(UInt32(ft.text.utf8.count), to: &textBytes)
                    textBytes.append(contentsOf: ft.text.utf8)
                }
            }
            docTextEnd.append(textBytes.count)
            docChecksum.append(ContentChecksum.of(textBytes[blockStart...]))
        }
    }

    /// Joins the chunks (`MergedPostings`) and encodes the postings, texts, lengths and statistics.
    mutating func encode(_ chunks: [BinaryChunk]) {
        let postings = MergedPostings(chunks.map(\.postings),
                                      batches: chunks.indices.map { ($0, 0..<chunks[$0].postings.parts.count) },
                                      documentCount: ids.count)
        tokens = postings.vocabulary
        documentFrequency = postings.documentFrequency
        recordCount = postings.recordCount
        (postingBytes, postingOffset) = postings.concatenated(BinaryPostings.self)
        postingChecksum = (0..<tokens.count).map {
            ContentChecksum.of(postingBytes.slice(Int(postingOffset[$0])..<Int(postingOffset[$0 + 1])))
        }

        var textEnd = 0
        textBlockStart = [0]
        textBlockStart.reserveCapacity(ids.count + 1)
        textBlockChecksum = []
        textBlockChecksum.reserveCapacity(ids.count)
        fieldLengths = []
        fieldLengths.reserveCapacity(ids.count * SearchIndex.fieldCount)
        for chunk in chunks {
            for end in chunk.docTextEnd { textBlockStart.append(Int64(textEnd + end)) }
            textEnd += chunk.textBytes.count
            textBlockChecksum.append(contentsOf: chunk.docChecksum)
            fieldLengths.append(contentsOf: chunk.fieldLengths)
        }
        textBlocks = ByteRegion(concatenating: chunks.map(\.textBytes))

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
        let cap = parameters.maxPositions
        let n = ids.count
        var list = PostingList()
        list.doc.reserveCapacity(records); list.text.reserveCapacity(records)
        list.tf.reserveCapacity(records); list.posStart.reserveCapacity(records)
        list.pos.reserveCapacity(records * 2)
        let dts = docTextStart
        let ok: Bool = {
            var reader = VarintReader(raw.bindMemory(to: UInt8.self))
            var doc: UInt32 = 0
            var lastDoc = -1, lastText = -1
            for _ in 0..<records {
                guard let dd = reader.read(), let tx = reader.read(), let f = reader.read() else { return false }
                let (next, overflow) = doc.addingReportingOverflow(dd)
                doc = next
                guard !overflow, doc < UInt32(n), f >= 1, f <= UInt32(Int32.max) else { return false }
                let d = Int(doc), x = Int(tx)
                guard x < Int(dts[d + 1] - dts[d]), d > lastDoc || (d == lastDoc && x > lastText) else { return false }
                lastDoc = d; lastText = x
                list.doc.append(Int32(d)); list.text.append(Int32(x)); list.tf.append(Int32(f))
                list.posStart.append(Int32(list.pos.count))
                var p: UInt32 = 0
                for _ in 0..<min(Int(f), cap) {
                    guard let delta = reader.read() else { return false }
                    p &+= delta // read bytes: a wrong gap wraps instead of trapping
                    list.pos.append(Int32(truncatingIfNeeded: p))
                }
            }
            return reader.isAtEnd
        }()
        return ok ? list : nil
    }

    /// The texts of document `d` in text order; nil (and the index marked damaged) if its block
    /// fails its checksum or structure.
    public func texts(ofDocument d: Int) -> [String]? {
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
}
