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
    /// Field lengths in tokens, `fieldLengths[d * fieldCount + f]`.
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
        return ids.indices.sorted { a, b in
            let x = ids[a], y = ids[b]
            if x == y { return a < b }
            return x.utf8.lexicographicallyPrecedes(y.utf8)
        }
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
            var chunk = ChunkBuilder(cap: cap, glossary: glossary)
            // The text buffer sized once from the chunk's text.
            var textSize = 0, textCount = 0
            for d in lo..<hi {
                for texts in documents[order[d]].fields.values { for ft in texts { textSize += ft.text.utf8.count; textCount += 1 } }
            }
            chunk.reserve(textBytes: textSize + 5 * textCount)
            for d in lo..<hi { chunk.add(documents[order[d]], doc: Int32(d)) }
            chunk.finish()
            return chunk
        }
        index.merge(chunks)
        return index
    }

    /// Tokenizes a contiguous range of documents with its own vocabulary and encodes each
    /// token's records as they come, into the token's own stream (the first record's document
    /// is kept apart, so that chunks can be joined with the right document delta).
    struct ChunkBuilder {
        var tokens = TokenTable()
        /// Per chunk token: its records, encoded (docs/search.md §7), in document and text order
        /// (the first without a document delta), its document frequency and first and last document.
        let state = ChunkTokens()
        var fieldLengths: [Int32] = []
        /// The document texts (docs/search.md §7), with each document's end and checksum.
        var textBytes: [UInt8] = []
        var docTextEnd: [Int] = []
        var docChecksum: [UInt64] = []
        var slots: TextSlots
        let glossary: SearchGlossary

        init(cap: Int, glossary: SearchGlossary) {
            slots = TextSlots(cap: cap)
            self.glossary = glossary
        }

        /// Reserves room for texts of `textBytes` bytes.
        mutating func reserve(textBytes size: Int) {
            textBytes.reserveCapacity(size)
        }

        mutating func add(_ doc: SearchDocument, doc d: Int32) {
            var lengths = [Int32](repeating: 0, count: SearchIndex.fieldCount)
            var localText: Int32 = 0
            let blockStart = textBytes.count
            for field in SearchField.allCases {
                for ft in doc.fields[field] ?? [] {
                    lengths[field.rawValue] += Int32(addText(ft.text, doc: d, localText: localText, expand: field != .code))
                    Varint.append(UInt32(ft.text.utf8.count), to: &textBytes)
                    textBytes.append(contentsOf: ft.text.utf8)
                    localText += 1
                }
            }
            fieldLengths.append(contentsOf: lengths)
            docTextEnd.append(textBytes.count)
            docChecksum.append(textBytes.withUnsafeBytes { ContentChecksum.of(UnsafeRawBufferPointer(rebasing: $0[blockStart...])) })
        }

        /// Tokenizes and posts one text; returns its literal token count (concept tokens do
        /// not count towards field lengths).
        mutating func addText(_ text: String, doc: Int32, localText: Int32, expand: Bool) -> Int {
            slots.tokenize(text, glossary: expand ? glossary : .empty)
            state.grow(to: slots.vocabularySize)
            let cap = slots.cap
            let tokens = state.base
            let maxRecord = 15 + 5 * cap
            slots.token.withUnsafeBufferPointer { slotToken in
            slots.tf.withUnsafeBufferPointer { slotTf in
            slots.positions.withUnsafeBufferPointer { slotPositions in
                for s in 0..<slots.count {
                    let t = Int(slotToken[s])
                    let out = tokens[t].reserve(maxRecord)
                    var n = 0
                    let last = tokens[t].lastDoc
                    if last != doc { tokens[t].documentFrequency += 1 }
                    if last < 0 {
                        tokens[t].firstDoc = doc
                    } else {
                        n += Varint.write(UInt32(doc - last), to: out + n)
                    }
                    tokens[t].lastDoc = doc
                    tokens[t].recordCount += 1
                    n += Varint.write(UInt32(localText), to: out + n)
                    let tf = Int(slotTf[s])
                    n += Varint.write(UInt32(tf), to: out + n)
                    var prev: Int32 = 0
                    let p0 = s * cap
                    for k in 0..<min(tf, cap) {
                        let p = slotPositions[p0 + k]
                        n += Varint.write(UInt32(p - prev), to: out + n)
                        prev = p
                    }
                    tokens[t].count += n
                }
            }}}
            return slots.literalCount
        }

        /// Takes the vocabulary and drops the scratch buffers.
        mutating func finish() {
            tokens = slots.takeTable()
        }
    }

    /// Joins the chunks: vocabularies in first-appearance order (as if built serially), each
    /// token's encoded records chunk after chunk, the texts, lengths and statistics.
    mutating func merge(_ chunks: [ChunkBuilder]) {
        var maps: [[Int32]] = []
        tokens = TokenTable()
        for chunk in chunks {
            var map = [Int32](repeating: 0, count: chunk.tokens.count)
            chunk.tokens.bytes.withUnsafeBufferPointer { bytes in
                for i in 0..<chunk.tokens.count {
                    let s = chunk.tokens.start(i)
                    let (id, isNew) = tokens.intern(bytes.baseAddress! + s, Int(chunk.tokens.ends[i]) - s, hash: chunk.tokens.hashes[i])
                    if isNew { documentFrequency.append(0); recordCount.append(0) }
                    documentFrequency[Int(id)] += chunk.state[i].documentFrequency
                    recordCount[Int(id)] += chunk.state[i].recordCount
                    map[i] = id
                }
            }
            maps.append(map)
        }
        let v = tokens.count

        // Postings: sizes, then bytes.
        var size = [Int](repeating: 0, count: v)
        var prevLast = [Int32](repeating: 0, count: v)
        for (c, chunk) in chunks.enumerated() {
            let map = maps[c]
            for i in 0..<chunk.tokens.count {
                let g = Int(map[i])
                size[g] += Varint.length(UInt32(chunk.state[i].firstDoc - prevLast[g])) + chunk.state[i].count
                prevLast[g] = chunk.state[i].lastDoc
            }
        }
        postingOffset = [Int64](repeating: 0, count: v + 1)
        for t in 0..<v { postingOffset[t + 1] = postingOffset[t] + Int64(size[t]) }
        let total = Int(postingOffset[v])
        let out = UnsafeMutableRawPointer.allocate(byteCount: max(1, total), alignment: 8)
        var cursor = postingOffset.map(Int.init)
        for t in 0..<v { prevLast[t] = 0 }
        for (c, chunk) in chunks.enumerated() {
            let map = maps[c]
            for i in 0..<chunk.tokens.count {
                let g = Int(map[i])
                cursor[g] += Varint.write(UInt32(chunk.state[i].firstDoc - prevLast[g]), to: out + cursor[g])
                let b = chunk.state.bytes(i)
                if b.count > 0 { (out + cursor[g]).copyMemory(from: b.baseAddress!, byteCount: b.count) }
                cursor[g] += b.count
                prevLast[g] = chunk.state[i].lastDoc
            }
        }
        postingBytes = ByteRegion(taking: out, count: total)
        postingChecksum = (0..<v).map { ContentChecksum.of(postingBytes.slice(Int(postingOffset[$0])..<Int(postingOffset[$0 + 1]))) }

        // Texts and field lengths.
        let textTotal = chunks.reduce(0) { $0 + $1.textBytes.count }
        let texts = UnsafeMutableRawPointer.allocate(byteCount: max(1, textTotal), alignment: 8)
        var at = 0
        textBlockStart = [0]
        textBlockStart.reserveCapacity(ids.count + 1)
        textBlockChecksum = []
        textBlockChecksum.reserveCapacity(ids.count)
        fieldLengths = []
        fieldLengths.reserveCapacity(ids.count * SearchIndex.fieldCount)
        for chunk in chunks {
            chunk.textBytes.withUnsafeBytes { b in
                if let base = b.baseAddress { (texts + at).copyMemory(from: base, byteCount: b.count) }
            }
            for end in chunk.docTextEnd { textBlockStart.append(Int64(at + end)) }
            at += chunk.textBytes.count
            textBlockChecksum.append(contentsOf: chunk.docChecksum)
            fieldLengths.append(contentsOf: chunk.fieldLengths)
        }
        textBlocks = ByteRegion(taking: texts, count: textTotal)

        var totalLength = [Int](repeating: 0, count: SearchIndex.fieldCount)
        for (i, l) in fieldLengths.enumerated() { totalLength[i % SearchIndex.fieldCount] += Int(l) }
        finishStatistics(totalLength: totalLength)
    }

    mutating func finishStatistics(totalLength: [Int]) {
        let n = Double(ids.count)
        averageFieldLengths = totalLength.map { ids.isEmpty ? 0 : Double($0) / n }
        idf = documentFrequency.map { SearchIndex.idf(df: Double($0), n: n) }
        idfUnknown = SearchIndex.idf(df: 0, n: n)
    }

    static func idf(df: Double, n: Double) -> Double {
        log(1 + (n - df + 0.5) / (df + 0.5))
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
        let ok: Bool = docTextStart.withUnsafeBufferPointer { dts in
            var reader = VarintReader(raw.bindMemory(to: UInt8.self))
            var doc: UInt32 = 0
            var lastDoc = -1, lastText = -1
            for _ in 0..<records {
                guard let dd = reader.read(), let tx = reader.read(), let f = reader.read() else { return false }
                doc &+= dd
                guard doc < UInt32(n), f >= 1, f <= UInt32(Int32.max) else { return false }
                let d = Int(doc), x = Int(tx)
                guard x < Int(dts[d + 1] - dts[d]), d > lastDoc || (d == lastDoc && x > lastText) else { return false }
                lastDoc = d; lastText = x
                list.doc.append(Int32(d)); list.text.append(Int32(x)); list.tf.append(Int32(f))
                list.posStart.append(Int32(list.pos.count))
                var p: UInt32 = 0
                for _ in 0..<min(Int(f), cap) {
                    guard let delta = reader.read() else { return false }
                    p &+= delta
                    list.pos.append(Int32(truncatingIfNeeded: p))
                }
            }
            return reader.isAtEnd
        }
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
