import Foundation
import KBCore

/// Builds a `SearchIndex` from documents handed over in batches, in index order (by id, UTF-8
/// byte order): each batch is tokenized on all cores into contiguous chunks of the postings
/// accumulator and then let go, and `finish()` joins the chunks (docs/search.md §3, §12). A
/// caller that loads its documents batch by batch (the `.kb/index` rebuild) so never holds all
/// of them; the index is the same bytes however the documents were batched. A builder that
/// does not keep the texts keeps only their checksums (the index it makes reads its texts from
/// a `SearchTextSource`). With a folder to spill into, the joined postings go to a file there as
/// each token's are joined (`SpillFile`), and the index reads them from there: memory holds the
/// postings being accumulated, not a second copy of them.
struct SearchIndexBuilder {
    private var index: SearchIndex
    private var chunks: [SearchIndex.BinaryChunk] = []
    private let keepsTexts: Bool
    private let postingsSpill: SpillFile?
    private let glossary: SearchGlossary
    /// Chunks per batch when given (tests), else about four per core and 100 documents each.
    private let requestedChunks: Int?
    private var stringIndex: [String: Int32] = [:]
    private var lastID: String? = nil

    /// `spillingInto`: a folder for the joined postings' file (when it cannot be made there, the
    /// postings are joined in memory).
    init(parameters: SearchParameters = .default, glossary: SearchGlossary = .empty, chunkCount: Int? = nil,
         keepsTexts: Bool = true, spillingInto folder: String? = nil) {
        self.keepsTexts = keepsTexts
        postingsSpill = folder.flatMap { try? SpillFile(folder: $0, content: "postings") }
        index = SearchIndex(parameters: parameters)
        index.glossary = glossary
        self.glossary = glossary
        requestedChunks = chunkCount
    }

    /// Number of documents added.
    var documentCount: Int { index.ids.count }

    /// Whether `documents` are in index order and none comes before those added (equal ids
    /// keep their order): only such a batch can be added.
    func follows(_ documents: [SearchDocument]) -> Bool {
        var previous = lastID
        for document in documents {
            if let p = previous, document.id.utf8.lexicographicallyPrecedes(p.utf8) { return false }
            previous = document.id
        }
        return true
    }

    /// Adds documents that `follow` those added (the builder keeps none of them: the caller can
    /// let them go); returns false, adding nothing, for documents that do not.
    @discardableResult
    mutating func add(_ documents: [SearchDocument]) -> Bool {
        guard follows(documents) else { return false }
        let first = index.ids.count
        for document in documents { addColumns(document) }
        lastID = documents.last?.id ?? lastID
        let n = documents.count
        guard n > 0 else { return true }
        let chunkCount = max(1, min(requestedChunks ?? ProcessInfo.processInfo.activeProcessorCount * 4,
                                    requestedChunks == nil ? n / 100 : n))
        let cap = max(0, index.parameters.maxPositions)
        let glossary = self.glossary, keepsTexts = self.keepsTexts
        chunks += Parallel.map(chunkCount) { c in
            let lo = n * c / chunkCount, hi = n * (c + 1) / chunkCount
            var chunk = SearchIndex.BinaryChunk(cap: cap, glossary: glossary, keepsTexts: keepsTexts)
            if keepsTexts {
                // The text buffer sized once from the chunk's text.
                var textSize = 0, textCount = 0
                for d in lo..<hi {
                    for texts in documents[d].fields.values { for ft in texts { textSize += ft.text.utf8.count; textCount += 1 } }
                }
                chunk.textBytes.reserveCapacity(textSize + 5 * textCount)
            }
            _ = chunk.postings.beginBatch(firstDocument: Int32(first + lo))
            for d in lo..<hi { chunk.add(documents[d], number: Int32(first + d)) }
            chunk.finish()
            return chunk
        }
        return true
    }

    /// The index of the documents added. Throws only when the postings' file could not be
    /// written or read back.
    consuming func finish() throws -> SearchIndex {
        // The chunks are moved out (not copied), so that encoding lets each part go once joined.
        let chunks = self.chunks
        self.chunks = []
        try index.encode(chunks, keepsTexts: keepsTexts, postingsSpill: postingsSpill)
        return index
    }

    /// The index of the documents added, for a builder that joins its postings in memory (which
    /// cannot fail).
    consuming func finishInMemory() -> SearchIndex {
        precondition(postingsSpill == nil, "a builder that spills its postings finishes with finish()")
        let chunks = self.chunks
        self.chunks = []
        do {
            try index.encode(chunks, keepsTexts: keepsTexts)
        } catch {
            preconditionFailure("encoding in memory does not throw: \(error)")
        }
        return index
    }

    /// A document's columns: id, title, language, URL, tags, status, and per text its field,
    /// anchor and label (strings numbered once).
    private mutating func addColumns(_ doc: SearchDocument) {
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

    private mutating func intern(_ s: String?) -> Int32 {
        guard let s else { return -1 }
        if let i = stringIndex[s] { return i }
        let i = Int32(index.strings.count)
        stringIndex[s] = i
        index.strings.append(s)
        return i
    }
}
