import Foundation
import KBCore

/// Builds a `SearchWebExport` from documents handed over in batches, in id order (UTF-8 byte
/// order; equal ids keep their order), as `SearchIndexBuilder` does for the binary index: each
/// batch is tokenized on all cores into the workers' postings accumulators, its document files
/// made (and handed to the sink) as it goes, and then it is let go; `finish()` joins the
/// accumulators' parts and makes the other files. A caller that loads its entries batch by batch
/// (the site build) so never holds all of them, and the files are the same bytes however the
/// documents were batched (`SearchWebExport.build` is one batch of all of them).
public struct SearchWebExportBuilder: Sendable {
    /// A worker's postings accumulator and the document files it made (when there is no sink),
    /// kept from batch to batch. Unchecked because the compiler cannot see the ownership: during
    /// `add` each worker thread touches only its own, and otherwise only the builder's owner
    /// (which holds the only references) does; the builder moves between threads as a whole.
    private final class Worker: @unchecked Sendable {
        var postings: PostingsAccumulator<WebPostings>
        var documents: [(d: Int, file: Data)] = []
        init(cap: Int, glossary: SearchGlossary) { postings = PostingsAccumulator(cap: cap, glossary: glossary) }
    }

    private let parameters: SearchParameters
    private let glossary: SearchGlossary
    private let requestedShards: Int?
    private let ownFileRecords: Int
    private let framing: SearchWebExport.Framing
    /// Per batch (of all `add` calls, in document order): its worker and that worker's parts it began.
    private var batches: [(source: Int, parts: Range<Int>)] = []
    private var filterDocuments: [WebFiltersFile.Document] = []
    private var workers: [Worker]
    private let requestedBatches: Int?
    private let documentSink: (@Sendable (Int, Data) -> Void)?
    private let postingsWriter: (@Sendable (SearchWebExport.PostingsFile, Int, [UnsafeRawBufferPointer]) -> Void)?
    private var lastID: String? = nil

    /// The parameters are those of `SearchWebExport.build`; `batchCount` (tests) cuts each
    /// handed-over batch into that many pieces of work instead of about 32 per core.
    public init(parameters: SearchParameters = .default, glossary: SearchGlossary = .empty, shardCount: Int? = nil,
                ownFileRecords: Int = SearchWebExport.defaultOwnFileRecords, framing: SearchWebExport.Framing = .json,
                documentSink: (@Sendable (Int, Data) -> Void)? = nil,
                postingsWriter: (@Sendable (SearchWebExport.PostingsFile, Int, [UnsafeRawBufferPointer]) -> Void)? = nil) {
        self.init(parameters: parameters, glossary: glossary, shardCount: shardCount, ownFileRecords: ownFileRecords,
                  framing: framing, batchCount: nil, documentSink: documentSink, postingsWriter: postingsWriter)
    }

    init(parameters: SearchParameters = .default, glossary: SearchGlossary = .empty, shardCount: Int? = nil,
         ownFileRecords: Int = SearchWebExport.defaultOwnFileRecords, framing: SearchWebExport.Framing = .json,
         batchCount: Int?, documentSink: (@Sendable (Int, Data) -> Void)? = nil,
         postingsWriter: (@Sendable (SearchWebExport.PostingsFile, Int, [UnsafeRawBufferPointer]) -> Void)? = nil) {
        self.parameters = parameters
        self.glossary = glossary
        requestedShards = shardCount
        self.ownFileRecords = ownFileRecords
        self.framing = framing
        requestedBatches = batchCount
        self.documentSink = documentSink
        self.postingsWriter = postingsWriter
        let cap = max(0, parameters.maxPositions)
        workers = (0..<max(1, ProcessInfo.processInfo.activeProcessorCount)).map { _ in Worker(cap: cap, glossary: glossary) }
    }

    /// Number of documents added.
    public var documentCount: Int { filterDocuments.count }

    /// Whether documents with these ids, in this order, can be added: in id order, and none
    /// before those added.
    public func follows(_ ids: some Sequence<String>) -> Bool {
        var previous = lastID
        for id in ids {
            if let p = previous, id.utf8.lexicographicallyPrecedes(p.utf8) { return false }
            previous = id
        }
        return true
    }

    /// Adds documents that `follow` those added (the builder keeps none of them); returns false,
    /// adding nothing, for documents that do not.
    @discardableResult
    public mutating func add(_ documents: [SearchDocument]) -> Bool {
        guard follows(documents.lazy.map(\.id)) else { return false }
        add(count: documents.count, lastID: documents.last?.id) { documents[$0] }
        return true
    }

    /// Adds `count` documents made on demand: `document(i)` is called once per document, on the
    /// thread that tokenizes it, and must be the i-th of this batch in id order (the caller has
    /// checked the order).
    mutating func add(count n: Int, lastID: String?, document: (Int) -> SearchDocument) {
        guard n > 0 else { return }
        let first = documentCount
        let batchCount = max(1, min(requestedBatches ?? workers.count * 32, requestedBatches == nil ? n / 64 : n))
        let next = Counter()
        let (framing, documentSink, workers) = (self.framing, self.documentSink, self.workers)
        let made = Parallel.map(workers.count) { w -> (batches: [(batch: Int, parts: Range<Int>)], filters: [(d: Int, filter: WebFiltersFile.Document)]) in
            let worker = workers[w]
            var taken: [(batch: Int, parts: Range<Int>)] = []
            var filters: [(d: Int, filter: WebFiltersFile.Document)] = []
            while case let b = next.increment() - 1, b < batchCount {
                let lo = n * b / batchCount, hi = n * (b + 1) / batchCount
                let firstPart = worker.postings.beginBatch(firstDocument: Int32(first + lo))
                for i in lo..<hi {
                    let d = first + i
                    let doc = document(i)
                    filters.append((d, WebFiltersFile.Document(doc)))
                    worker.postings.add(doc, number: Int32(d))
                    let file = WebDocumentFile.bytes(doc, number: d, textCount: worker.postings.records.textCount,
                                                     textBytes: worker.postings.records.textBytes, framing: framing)
                    if let documentSink { documentSink(d, file) } else { worker.documents.append((d, file)) }
                }
                taken.append((b, firstPart..<worker.postings.parts.count))
            }
            return (taken, filters)
        }
        let firstBatch = batches.count
        batches += [(source: Int, parts: Range<Int>)](repeating: (0, 0..<0), count: batchCount)
        filterDocuments += [WebFiltersFile.Document](repeating: WebFiltersFile.Document(), count: n)
        for (w, out) in made.enumerated() {
            for (b, parts) in out.batches { batches[firstBatch + b] = (w, parts) }
            for (d, filter) in out.filters { filterDocuments[d] = filter }
        }
        if let lastID { self.lastID = lastID }
    }

    /// The export of the documents added.
    public consuming func finish() -> SearchWebExport {
        let n = documentCount
        for worker in workers { worker.postings.finish() }
        var documentFiles = [Data](repeating: Data(), count: documentSink == nil ? n : 0)
        if documentSink == nil {
            for worker in workers { for (d, file) in worker.documents { documentFiles[d] = file } }
        }
        let accumulators = workers.map(\.postings)
        workers = []
        let postings = MergedPostings(accumulators, batches: batches, documentCount: n)
        let layout = WebPostingsFiles(postings, ownFileRecords: ownFileRecords, shardCount: requestedShards, documentCount: n)

        // Shards and token files.
        let (framing, postingsWriter) = (self.framing, self.postingsWriter)
        let madeFiles = Parallel.map(layout.fileCount) { k -> Data? in
            layout.make(k, framing: framing) { pieces in
                if let postingsWriter {
                    if k < layout.shardCount { postingsWriter(.shard, k, pieces) } else { postingsWriter(.token, k - layout.shardCount, pieces) }
                    return nil
                }
                var joined = WebBytes(capacity: pieces.reduce(0) { $0 + $1.count })
                for piece in pieces { joined.append(piece) }
                return joined.take()
            }
        }
        let files = postingsWriter == nil ? madeFiles.map { $0! } : []
        let shardCount = layout.shardCount

        let meta = WebMetaFile(parameters: parameters, glossary: glossary, statistics: postings.statistics, documentCount: n,
                               tokenCount: postings.tokenCount, shardCount: shardCount).bytes(framing: framing)
        let filters = WebFiltersFile(documents: filterDocuments).bytes(framing: framing)

        // Vocabulary files: the listed words by head key, with their document frequencies.
        let vocabularyCount = SearchExpansionRules.vocabularyFileCount(shardCount: shardCount)
        var vocabularyFiles = [WebVocabularyFile](repeating: WebVocabularyFile(), count: vocabularyCount)
        let tokens = postings.vocabulary
        for t in 0..<postings.tokenCount where tokens.withBytes(ofToken: t, WebVocabularyFile.mayBeListed) {
            let token = tokens.string(t)
            if let place = WebVocabularyFile.place(of: token, fileCount: vocabularyCount) {
                vocabularyFiles[place.file].words[token] = Int(postings.documentFrequency[t])
            }
        }

        var export = SearchWebExport(meta: meta, shards: files.isEmpty ? [] : Array(files[0..<shardCount]),
                                     tokenFiles: files.isEmpty ? [] : Array(files[shardCount...]),
                                     docs: documentFiles, filters: filters,
                                     vocabularies: vocabularyFiles.enumerated().map { $1.write(number: $0, framing: framing) })
        export.patchState = SearchWebPatch.State(documentCount: n, tokenCount: postings.tokenCount, shardCount: shardCount,
                                                 tokenFileCount: layout.ownFileTokens.count, ownFileRecords: ownFileRecords,
                                                 inlineBytes: layout.inlineBytes,
                                                 shardCountRequested: requestedShards != nil)
        return export
    }
}
