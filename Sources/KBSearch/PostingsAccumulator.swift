import KBCore
/// The postings of a contiguous run of documents, or of a worker's batches of documents (the
/// one postings accumulator both index forms use, docs/search.md §7): the documents' records
/// (`DocumentRecords`) are encoded with `Encoding` straight into their token's stream, the
/// token's first record of each batch without its document gap, so that batches join in any
/// grouping (`MergedPostings`); with per token its document frequency and record count, and the
/// total length of each field.
struct PostingsAccumulator<Encoding: PostingsEncoding> {
    private(set) var records: DocumentRecords
    /// Per token (in the vocabulary's order): its stream and last record.
    let streams = ChunkTokens()
    /// The runs of the streams that belong to one batch each, in the order they began.
    let parts = ChunkParts()
    /// After `finish()`: the vocabulary, in first-appearance order.
    private(set) var vocabulary = TokenTable()
    /// Σ over the documents of each field's length.
    private(set) var totalLength = [Int](repeating: 0, count: SearchIndex.fieldCount)
    /// The first document of the current batch.
    private var batchFirstDocument: Int32 = 0

    init(cap: Int, glossary: SearchGlossary) {
        records = DocumentRecords(cap: cap, glossary: glossary)
    }

    /// Starts a batch of documents from `firstDocument` on (after the documents of the earlier
    /// batches); returns the number of parts so far (the batch's parts follow).
    mutating func beginBatch(firstDocument: Int32) -> Int {
        batchFirstDocument = firstDocument
        return parts.count
    }

    /// Tokenizes document `d` and encodes its records.
    mutating func add(_ document: SearchDocument, number d: Int32) {
        records.gather(document)
        for f in totalLength.indices { totalLength[f] += records.fieldLengths[f] }
        streams.grow(to: records.vocabularySize)
        let maxRecord = Encoding.maxRecordLength(cap: records.cap)
        let digits = WebDigits.table
        let context = records.context, all = records.records
        let states = streams.states
        for r in 0..<records.count {
            let entry = all[r]
            let t = Int(entry.token)
            let last = states[t].lastDoc
            var record = PostingRecord(index: r, record: entry, gap: nil, startsDocument: last != d,
                                       previousText: states[t].lastText, previousField: states[t].lastField)
            if last >= batchFirstDocument {
                record.gap = d - last
            } else {
                let open = states[t].openPart
                if open >= 0 { parts.end(open, lastDoc: last, to: states[t].count) }
                states[t].openPart = parts.begin(token: entry.token, firstDoc: d, from: states[t].count)
            }
            if last != d { states[t].documentFrequency += 1 }
            var out = states[t].writer(reserving: maxRecord, digits: digits)
            Encoding.write(record, of: context, into: &out)
            states[t].count += out.count
            states[t].lastDoc = d
            states[t].lastText = entry.text
            states[t].lastField = entry.field
            states[t].recordCount += 1
        }
    }

    /// Ends the open parts and takes the vocabulary.
    mutating func finish() {
        streams.grow(to: records.vocabularySize)
        for t in 0..<streams.count where streams[t].openPart >= 0 {
            parts.end(streams[t].openPart, lastDoc: streams[t].lastDoc, to: streams[t].count)
        }
        vocabulary = records.takeVocabulary()
    }
}
