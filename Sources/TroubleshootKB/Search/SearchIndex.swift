import Foundation

/// An in-memory BM25F index over `SearchDocument`s (docs/search.md).
public struct SearchIndex: Sendable {
    public let parameters: SearchParameters
    /// The glossary whose concepts were added to the texts and are added to queries
    /// (empty: no cross-language expansion).
    public internal(set) var glossary: SearchGlossary = .empty

    // Documents, sorted by id (UTF-8 byte order).
    public internal(set) var ids: [String] = []
    var titles: [String] = []
    var langs: [String] = []
    var urls: [String?] = []
    var tags: [[String]] = []
    var statuses: [String] = []
    /// Text `docTextStart[d] + t` is the `t`-th text of document `d`.
    var docTextStart: [Int32] = [0]
    var textField: [UInt8] = []
    var textAnchor: [String?] = []
    var textLabel: [String?] = []
    var textContent: [String] = []
    /// Field lengths in tokens, `fieldLengths[d * fieldCount + f]`.
    var fieldLengths: [Int32] = []
    public internal(set) var averageFieldLengths: [Double] = []

    // Vocabulary and postings.
    var tokens = TokenTable()
    var documentFrequency: [Int32] = []
    var idf: [Double] = []
    /// IDF of a token that is in no document.
    public internal(set) var idfUnknown: Double = 0
    /// Records of token `t` are `postingStart[t]..<postingStart[t + 1]`, sorted by (doc, text).
    var postingStart: [Int32] = [0]
    var recordDoc: [Int32] = []
    var recordText: [Int32] = []
    var recordTf: [Int32] = []
    /// Positions of a record: `positions[recordPositionStart[r]...]`, `min(tf, maxPositions)` of them.
    var recordPositionStart: [Int32] = []
    var positions: [Int32] = []

    static let fieldCount = SearchField.allCases.count

    /// Number of documents.
    public var documentCount: Int { ids.count }
    /// Number of distinct tokens.
    public var tokenCount: Int { tokens.count }
    /// Number of (token, field text) postings.
    public var postingCount: Int { recordDoc.count }

    init(parameters: SearchParameters) {
        self.parameters = parameters
    }

    // MARK: Building

    /// Builds an index. Documents are sorted by id (UTF-8 byte order); equal ids keep their order.
    /// Texts are tokenized in parallel chunks; the result does not depend on the chunking.
    /// With a glossary, every text also gets the concept tokens of the terms it contains.
    public static func build(documents: [SearchDocument], parameters: SearchParameters = .default,
                             glossary: SearchGlossary = .empty) -> SearchIndex {
        build(documents: documents, parameters: parameters, glossary: glossary, chunkCount: nil)
    }

    static func build(documents: [SearchDocument], parameters: SearchParameters, glossary: SearchGlossary = .empty,
                      chunkCount requested: Int?) -> SearchIndex {
        let order = documents.indices.sorted { a, b in
            let x = documents[a].id, y = documents[b].id
            if x == y { return a < b }
            return x.utf8.lexicographicallyPrecedes(y.utf8)
        }
        let sorted = order.map { documents[$0] }
        var index = SearchIndex(parameters: parameters)
        index.glossary = glossary
        index.ids.reserveCapacity(sorted.count)
        for doc in sorted {
            index.ids.append(doc.id)
            index.titles.append(doc.title)
            index.langs.append(doc.lang)
            index.urls.append(doc.url)
            index.tags.append(doc.tags)
            index.statuses.append(doc.status)
            var count: Int32 = 0
            for field in SearchField.allCases {
                for ft in doc.fields[field] ?? [] {
                    index.textField.append(UInt8(field.rawValue))
                    index.textAnchor.append(ft.anchor)
                    index.textLabel.append(ft.label)
                    index.textContent.append(ft.text)
                    count += 1
                }
            }
            index.docTextStart.append(index.docTextStart.last! + count)
        }

        let n = sorted.count
        let chunkCount = max(1, min(requested ?? ProcessInfo.processInfo.activeProcessorCount * 2, requested == nil ? n / 200 : n))
        let box = ChunkBox(count: chunkCount)
        let cap = max(0, parameters.maxPositions)
        DispatchQueue.concurrentPerform(iterations: chunkCount) { c in
            let lo = n * c / chunkCount, hi = n * (c + 1) / chunkCount
            var chunk = ChunkBuilder(cap: cap, glossary: glossary)
            var bytes = 0
            for d in lo..<hi { for texts in sorted[d].fields.values { for t in texts { bytes += t.text.utf8.count } } }
            chunk.reserve(textBytes: bytes)
            for d in lo..<hi { chunk.add(sorted[d], doc: Int32(d)) }
            box.set(c, chunk)
        }
        index.merge(box.take())
        return index
    }

    private final class ChunkBox: @unchecked Sendable {
        private var items: [ChunkBuilder?]
        private let lock = NSLock()
        init(count: Int) { items = Array(repeating: nil, count: count) }
        func set(_ i: Int, _ chunk: ChunkBuilder) { lock.lock(); items[i] = chunk; lock.unlock() }
        func take() -> [ChunkBuilder] { lock.lock(); defer { lock.unlock() }; return items.map { $0! } }
    }

    /// Tokenizes and posts a contiguous range of documents with its own vocabulary.
    struct ChunkBuilder {
        var tokens = TokenTable()
        var documentFrequency: [Int32] = []
        var recordToken: [Int32] = []
        var recordDoc: [Int32] = []
        var recordText: [Int32] = []
        var recordTf: [Int32] = []
        var recordPositionStart: [Int32] = []
        var positions: [Int32] = []
        var fieldLengths: [Int32] = []
        var tokenizer = SearchTokenizer()
        let cap: Int
        let glossary: SearchGlossary
        var textStamp: [Int32] = []
        var docStamp: [Int32] = []
        var slotOf: [Int32] = []
        var tokenSlots: [Int32] = []
        var slotToken: [Int32] = []
        var slotTf: [Int32] = []
        var slotPosStart: [Int32] = []
        var slotFill: [Int32] = []
        var globalText: Int32 = 0

        init(cap: Int, glossary: SearchGlossary) {
            self.cap = cap
            self.glossary = glossary
        }

        /// Reserves room from a rough estimate (CJK-heavy text: ~1 posting per 7 bytes).
        mutating func reserve(textBytes: Int) {
            let records = textBytes / 7 + 16
            recordToken.reserveCapacity(records); recordDoc.reserveCapacity(records)
            recordText.reserveCapacity(records); recordTf.reserveCapacity(records)
            recordPositionStart.reserveCapacity(records)
            positions.reserveCapacity(textBytes / 3 + 16)
        }

        mutating func add(_ doc: SearchDocument, doc d: Int32) {
            var lengths = [Int32](repeating: 0, count: SearchIndex.fieldCount)
            var localText: Int32 = 0
            for field in SearchField.allCases {
                for ft in doc.fields[field] ?? [] {
                    lengths[field.rawValue] += Int32(addText(ft.text, doc: d, localText: localText, expand: field != .code))
                    localText += 1
                }
            }
            fieldLengths.append(contentsOf: lengths)
        }

        /// Tokenizes and posts one text; returns its literal token count (concept tokens do
        /// not count towards field lengths).
        mutating func addText(_ text: String, doc: Int32, localText: Int32, expand: Bool) -> Int {
            tokenizer.tokenize(text, mode: .document, glossary: expand ? glossary : .empty)
            let n = tokenizer.count
            globalText += 1
            let gt = globalText
            tokenSlots.removeAll(keepingCapacity: true)
            slotToken.removeAll(keepingCapacity: true)
            slotTf.removeAll(keepingCapacity: true)
            let tokenBytes = tokenizer.bytes, tokenEnds = tokenizer.ends, tokenHashes = tokenizer.hashes
            tokenBytes.withUnsafeBufferPointer { bytes in
                var start = 0
                for k in 0..<n {
                    let end = Int(tokenEnds[k])
                    let (id, isNew) = tokens.intern(bytes.baseAddress! + start, end - start, hash: tokenHashes[k])
                    start = end
                    if isNew {
                        textStamp.append(0)
                        docStamp.append(-1)
                        slotOf.append(0)
                        documentFrequency.append(0)
                    }
                    let t = Int(id)
                    if docStamp[t] != doc {
                        docStamp[t] = doc
                        documentFrequency[t] += 1
                    }
                    if textStamp[t] != gt {
                        textStamp[t] = gt
                        slotOf[t] = Int32(slotToken.count)
                        slotToken.append(id)
                        slotTf.append(0)
                    }
                    let s = Int(slotOf[t])
                    slotTf[s] += 1
                    tokenSlots.append(Int32(s))
                }
            }
            // Positions, at most `cap` per slot, in token order (positions never decrease).
            slotPosStart.removeAll(keepingCapacity: true)
            slotFill.removeAll(keepingCapacity: true)
            var next = Int32(positions.count)
            for s in 0..<slotToken.count {
                slotPosStart.append(next)
                slotFill.append(0)
                next += Int32(min(Int(slotTf[s]), cap))
            }
            positions.append(contentsOf: repeatElement(0, count: Int(next) - positions.count))
            let tokenPositions = tokenizer.positions
            for k in 0..<n {
                let s = Int(tokenSlots[k])
                if Int(slotFill[s]) < cap {
                    positions[Int(slotPosStart[s] + slotFill[s])] = tokenPositions[k]
                    slotFill[s] += 1
                }
            }
            for s in 0..<slotToken.count {
                recordToken.append(slotToken[s])
                recordDoc.append(doc)
                recordText.append(localText)
                recordTf.append(slotTf[s])
                recordPositionStart.append(slotPosStart[s])
            }
            return tokenizer.literalCount
        }
    }

    /// Merges chunk vocabularies (first-appearance order, as if built serially) and sorts
    /// records by token.
    mutating func merge(_ chunks: [ChunkBuilder]) {
        var maps: [[Int32]] = []
        for (c, chunk) in chunks.enumerated() {
            if c == 0 {
                tokens = chunk.tokens
                documentFrequency = chunk.documentFrequency
                maps.append(Array(0..<Int32(chunk.tokens.count)))
                continue
            }
            var map = [Int32](repeating: 0, count: chunk.tokens.count)
            chunk.tokens.bytes.withUnsafeBufferPointer { bytes in
                for i in 0..<chunk.tokens.count {
                    let s = chunk.tokens.start(i)
                    let (id, isNew) = tokens.intern(bytes.baseAddress! + s, Int(chunk.tokens.ends[i]) - s, hash: chunk.tokens.hashes[i])
                    if isNew { documentFrequency.append(0) }
                    documentFrequency[Int(id)] += chunk.documentFrequency[i]
                    map[i] = id
                }
            }
            maps.append(map)
        }
        let v = tokens.count
        let r = chunks.reduce(0) { $0 + $1.recordToken.count }
        var start = [Int32](repeating: 0, count: v + 1)
        for (c, chunk) in chunks.enumerated() {
            let map = maps[c]
            for t in chunk.recordToken { start[Int(map[Int(t)]) + 1] += 1 }
        }
        for t in 0..<v { start[t + 1] += start[t] }
        var fill = start
        var doc = [Int32](repeating: 0, count: r)
        var text = [Int32](repeating: 0, count: r)
        var tf = [Int32](repeating: 0, count: r)
        var source = [Int32](repeating: 0, count: r)
        var sourceChunk = [UInt16](repeating: 0, count: r)
        fieldLengths = []
        fieldLengths.reserveCapacity(ids.count * SearchIndex.fieldCount)
        for (c, chunk) in chunks.enumerated() {
            let map = maps[c]
            for i in 0..<chunk.recordToken.count {
                let t = Int(map[Int(chunk.recordToken[i])])
                let j = Int(fill[t])
                fill[t] += 1
                doc[j] = chunk.recordDoc[i]
                text[j] = chunk.recordText[i]
                tf[j] = chunk.recordTf[i]
                source[j] = chunk.recordPositionStart[i]
                sourceChunk[j] = UInt16(c)
            }
            fieldLengths.append(contentsOf: chunk.fieldLengths)
        }
        // Positions in record order, so a record's positions start where the previous one's end.
        let cap = parameters.maxPositions
        var pos = [Int32](repeating: 0, count: r)
        let total = chunks.reduce(0) { $0 + $1.positions.count }
        let chunkPositions = chunks.map(\.positions)
        positions = [Int32](unsafeUninitializedCapacity: total) { out, initialized in
            var o = 0
            for j in 0..<r {
                pos[j] = Int32(o)
                let from = Int(source[j])
                chunkPositions[Int(sourceChunk[j])].withUnsafeBufferPointer { src in
                    for k in 0..<min(Int(tf[j]), cap) { out[o] = src[from + k]; o += 1 }
                }
            }
            initialized = o
        }
        postingStart = start
        recordDoc = doc
        recordText = text
        recordTf = tf
        recordPositionStart = pos
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
}
