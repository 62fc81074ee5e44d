import Foundation
import Dispatch
import KBCore

/// The index in the form the browser loads (docs/search.md §6, web format 5): a small metadata
/// file (parameters and glossary, nothing per document), postings shards, one file per token
/// with many records, one file per document with what a shown result needs, and the filter
/// data. Built straight from the documents (`build`): the postings are encoded in the web form
/// as the texts are tokenized, with the same statistics as `SearchIndex.build`, so the browser
/// ranks as `SearchIndex.search` does.
public struct SearchWebExport: Sendable {
    /// How each file is wrapped: plain JSON (`search-meta.json`, …), or a script calling
    /// `__kbSearchData(kind, n, JSON);` (`search/meta.js`, …; loads from `file://` too).
    public enum Framing: Sendable { case json, script }

    /// `search-meta.json`.
    public var meta: Data
    /// `search-shard-<i>.json` for i in 0..<shards.count.
    public var shards: [Data]
    /// `search-token-<k>.json`: the postings of the k-th token (in token order) with more than
    /// `ownFileRecords` records; its shard names it by k instead of holding its postings.
    public var tokenFiles: [Data] = []
    /// `search-doc-<d>.json` for each document d.
    public var docs: [Data]
    /// `search-filters.json`: language, tags and status of every document (loaded only to filter).
    public var filters: Data
    /// `search-vocab-<i>.json`: the words listed for prefix and typo expansions, by head key
    /// (`WebVocabularyFile`); `SearchExpansionRules.vocabularyFileCount(shardCount:)` files.
    public var vocabularies: [Data] = []
    /// What `SearchWebPatch` needs besides the files to patch this export after one document
    /// changed (the caller keeps it with the files, e.g. in the build manifest).
    public var patchState: SearchWebPatch.State? = nil

    /// Version of the web format (6: vocabulary files for prefix and typo expansions, and the
    /// expansion rules in the metadata).
    public static let formatVersion = 6
    /// The function the script files call.
    public static let callback = "__kbSearchData"
    /// Tokens with more records than this get a postings file of their own (`tokenFiles`).
    public static let defaultOwnFileRecords = 128
    /// Shards hold about this many bytes (tokens with a file of their own count by their name).
    public static let defaultShardBytes = 300
}

/// Numbers in the web postings (docs/search.md §6): digits over the 90 printable ASCII characters
/// that need no escape in JSON or HTML, low digits first, in a mixed radix per kind of number: a
/// number `v` below `t` is one character (digit `v`); a larger one is digit `t + (v − t) % (90 − t)`
/// followed by the number `(v − t) / (90 − t)`.
enum WebDigits {
    /// The 90 characters, in value order: space to `~` except `"`, `&`, `<`, `>` and `\`.
    static let alphabet: [UInt8] = Array(0x20...0x7E).filter { $0 != 0x22 && $0 != 0x26 && $0 != 0x3C && $0 != 0x3E && $0 != 0x5C }
    static let radix: UInt32 = 90
    /// `t` of each kind of number: record heads (`A`), a first record's text and field (`B`),
    /// field lengths (`L`), first positions (`P`), other small numbers (`D`: tf − 2, position gaps).
    static let headT: UInt32 = 80, textT: UInt32 = 80, lengthT: UInt32 = 64, positionT: UInt32 = 80, smallT: UInt32 = 80
    /// Longest number (a UInt32 in any of the kinds above).
    static let maxLength = [headT, textT, lengthT, positionT, smallT].map { length(.max, $0) }.max()!

    /// Writes `v` at `p` with terminal count `t`; returns the number of characters.
    @inline(__always)
    static func write(_ v: UInt32, _ t: UInt32, to p: UnsafeMutableRawPointer, _ digits: UnsafePointer<UInt8>) -> Int {
        // Wrapping arithmetic: every step stays in range (v ≥ t before it is lowered).
        var v = v
        var n = 0
        let c = radix &- t
        while v >= t {
            v &-= t
            p.storeBytes(of: digits[Int(t &+ v % c)], toByteOffset: n, as: UInt8.self)
            v /= c
            n &+= 1
        }
        p.storeBytes(of: digits[Int(v)], toByteOffset: n, as: UInt8.self)
        return n &+ 1
    }

    /// Number of characters of `v` with terminal count `t`.
    static func length(_ v: UInt32, _ t: UInt32) -> Int {
        var v = v
        var n = 1
        let c = radix - t
        while v >= t { v = (v - t) / c; n += 1 }
        return n
    }
}

extension SearchWebExport {
    /// The shard of a token: FNV-1a 32 over its UTF-8 bytes, modulo `shardCount`.
    public static func shard(ofToken token: String, shardCount: Int) -> Int {
        Int(SearchAnalyzer.tokenHash(token) % UInt32(max(1, shardCount)))
    }

    /// Builds the web form of an index over `documents` (the same documents, parameters and
    /// glossary give the same ranking as `SearchIndex.build`). Documents are numbered in id order
    /// (UTF-8 byte order; equal ids keep their order). `shardCount` defaults to a power of two
    /// giving shards of about `defaultShardBytes`; tokens with more than `ownFileRecords` records
    /// get a file of their own. Tokenizing, document files and postings files are made on all cores;
    /// the bytes do not depend on how the work is spread.
    public static func build(documents: [SearchDocument], parameters: SearchParameters = .default,
                             glossary: SearchGlossary = .empty, shardCount requestedShards: Int? = nil,
                             ownFileRecords: Int = defaultOwnFileRecords, framing: Framing = .json) -> SearchWebExport {
        build(documents: documents, parameters: parameters, glossary: glossary, shardCount: requestedShards,
              ownFileRecords: ownFileRecords, framing: framing, chunkCount: nil)
    }

    static func build(documents: [SearchDocument], parameters: SearchParameters = .default, glossary: SearchGlossary = .empty,
                      shardCount requestedShards: Int? = nil, ownFileRecords: Int = defaultOwnFileRecords,
                      framing: Framing = .json, chunkCount requested: Int?) -> SearchWebExport {
        build(count: documents.count, id: { documents[$0].id }, document: { documents[$0] }, parameters: parameters,
              glossary: glossary, shardCount: requestedShards, ownFileRecords: ownFileRecords, framing: framing,
              chunkCount: requested)
    }

    /// The same over `count` documents made on demand: `document(i)` is called once per
    /// document, on the thread that tokenizes it (its texts are then hot, and it is dropped as
    /// soon as it is read); `id(i)` must be its id.
    ///
    /// With `documentSink`, each document file is handed to it as soon as it is made (with the
    /// document's number, on the thread that made it, in no particular order) instead of being
    /// kept in `docs`, which then stays empty: a caller can write them while the rest is built.
    /// With `postingsWriter`, each shard and token file (`.shard` or `.token`, its number) is
    /// handed to it on the thread that encodes it, as soon as it is encoded, as the pieces that
    /// make it up in order (a token file's postings are not copied into one buffer: its pieces
    /// are the workers' record streams themselves); the pieces are valid only during the call,
    /// and `shards` and `tokenFiles` then stay empty.
    public static func build(count: Int, id: (Int) -> String, document: @Sendable (Int) -> SearchDocument,
                             parameters: SearchParameters = .default, glossary: SearchGlossary = .empty,
                             shardCount requestedShards: Int? = nil, ownFileRecords: Int = defaultOwnFileRecords,
                             framing: Framing = .json, documentSink: (@Sendable (Int, Data) -> Void)? = nil,
                             postingsWriter: (@Sendable (PostingsFile, Int, [UnsafeRawBufferPointer]) -> Void)? = nil) -> SearchWebExport {
        build(count: count, id: id, document: document, parameters: parameters, glossary: glossary, shardCount: requestedShards,
              ownFileRecords: ownFileRecords, framing: framing, chunkCount: nil, documentSink: documentSink,
              postingsWriter: postingsWriter)
    }

    /// The two kinds of postings files, for `postingsWriter`.
    public enum PostingsFile: Sendable { case shard, token }

    static func build(count: Int, id: (Int) -> String, document: @Sendable (Int) -> SearchDocument,
                      parameters: SearchParameters = .default, glossary: SearchGlossary = .empty,
                      shardCount requestedShards: Int? = nil, ownFileRecords: Int = defaultOwnFileRecords,
                      framing: Framing = .json, chunkCount requested: Int?,
                      documentSink: (@Sendable (Int, Data) -> Void)? = nil,
                      postingsWriter: (@Sendable (PostingsFile, Int, [UnsafeRawBufferPointer]) -> Void)? = nil) -> SearchWebExport {
        let order = SearchIndex.documentOrder(count: count, id: id)
        let n = order.count
        let fc = SearchIndex.fieldCount
        let cap = max(0, parameters.maxPositions)

        // Batches of documents (contiguous ranges, in order), taken one at a time by workers on
        // all cores, so that the work spreads evenly whatever else runs; each worker tokenizes
        // into a vocabulary of its own, and each document's file is made as it is read. A
        // worker's streams hold a part per batch and token: the batch's records of the token.
        let workerCount = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let batchCount = max(1, min(requested ?? workerCount * 32, requested == nil ? n / 64 : max(1, n)))
        /// What a worker made: its chunk, the batches it took (with the range of its parts each
        /// began), and per document its file (unless handed to `documentSink`) and what the
        /// filters need of it (language, status and tags).
        struct WorkerOutput {
            var chunk: WebChunk
            var batches: [(batch: Int, parts: Range<Int>)] = []
            var documents: [(d: Int, file: Data)] = []
            var filters: [(d: Int, filter: (String, String, [String]))] = []
        }
        let nextBatch = Counter()
        let made = Parallel.map(workerCount) { worker -> WorkerOutput in
            var out = WorkerOutput(chunk: WebChunk(cap: cap, glossary: glossary))
            while case let b = nextBatch.increment() - 1, b < batchCount {
                let lo = n * b / batchCount, hi = n * (b + 1) / batchCount
                let firstPart = out.chunk.beginBatch(firstDoc: Int32(lo))
                for d in lo..<hi {
                    let doc = document(order[d])
                    out.filters.append((d, (doc.lang, doc.status, doc.tags)))
                    let file = out.chunk.add(doc, doc: Int32(d), framing: framing)
                    if let documentSink { documentSink(d, file) } else { out.documents.append((d, file)) }
                }
                out.batches.append((b, firstPart..<out.chunk.parts.count))
            }
            out.chunk.finish()
            return out
        }
        let chunks = made.map(\.chunk)
        // Per batch: its worker and the range of that worker's parts it began.
        var batches = [(worker: Int, parts: Range<Int>)](repeating: (0, 0..<0), count: batchCount)
        var documentFiles = [Data](repeating: Data(), count: documentSink == nil ? n : 0)
        var filterFields = [(String, String, [String])](repeating: ("", "", []), count: n)
        for (worker, out) in made.enumerated() {
            for (b, parts) in out.batches { batches[b] = (worker, parts) }
            for (d, file) in out.documents { documentFiles[d] = file }
            for (d, filter) in out.filters { filterFields[d] = filter }
        }

        // Vocabulary in first-appearance order (as if built serially): batches in order, each
        // batch's parts in the order they began (the order of the tokens' first records in it).
        var tokens = TokenTable()
        var df: [Int32] = [], records: [Int32] = []
        var maps = chunks.map { [Int32](repeating: -1, count: $0.tokens.count) }
        for batch in batches {
            let chunk = chunks[batch.worker]
            chunk.tokens.bytes.withUnsafeBufferPointer { bytes in
                maps[batch.worker].withUnsafeMutableBufferPointer { map in
                    for p in batch.parts {
                        let i = Int(chunk.parts[p].token)
                        guard map[i] < 0 else { continue }
                        let s = chunk.tokens.start(i)
                        let (id, isNew) = tokens.intern(bytes.baseAddress! + s, Int(chunk.tokens.ends[i]) - s, hash: chunk.tokens.hashes[i])
                        if isNew { df.append(0); records.append(0) }
                        map[i] = id
                    }
                }
            }
        }
        for (c, chunk) in chunks.enumerated() {
            for i in 0..<chunk.tokens.count {
                let g = Int(maps[c][i])
                df[g] += chunk.state[i].documentFrequency
                records[g] += chunk.state[i].recordCount
            }
        }
        let v = tokens.count
        // Each token's postings: per part, in batch order, the head of its first record (the
        // document gap from the last record of the parts before), then the part's records.
        var postingLength = [Int](repeating: 0, count: v)
        var partStart = [Int](repeating: 0, count: v + 1)
        for batch in batches {
            let chunk = chunks[batch.worker]
            for p in batch.parts { partStart[Int(maps[batch.worker][Int(chunk.parts[p].token)]) + 1] += 1 }
        }
        for t in 0..<v { partStart[t + 1] += partStart[t] }
        var parts = [WebPostingsPart](repeating: WebPostingsPart(), count: partStart[v])
        var fill = partStart
        var prevLast = [Int32](repeating: 0, count: v)
        for batch in batches {
            let chunk = chunks[batch.worker]
            for p in batch.parts {
                let part = chunk.parts[p]
                let g = Int(maps[batch.worker][Int(part.token)])
                let head = UInt32(2 * (part.firstDoc - prevLast[g]) + 1)
                parts[fill[g]] = WebPostingsPart(chunk: Int32(batch.worker), token: part.token, head: head, from: part.from, to: part.to)
                fill[g] += 1
                postingLength[g] += WebDigits.length(head, WebDigits.headT) + (part.to - part.from)
                prevLast[g] = part.lastDoc
            }
        }

        // Statistics, exactly as SearchIndex computes them.
        var totalLength = [Int](repeating: 0, count: fc)
        for chunk in chunks { for f in 0..<fc { totalLength[f] += chunk.totalLength[f] } }
        let averageFieldLengths = totalLength.map { n == 0 ? 0 : Double($0) / Double(n) }
        let idf = df.map { SearchIndex.idf(df: Double($0), n: Double(n)) }

        // Shards and token files.
        var ownFile = [Int32](repeating: -1, count: v)
        var ownFileTokens: [Int32] = []
        var inlineBytes = 0
        for t in 0..<v {
            let name = Int(tokens.ends[t]) - tokens.start(t)
            if Int(records[t]) > ownFileRecords {
                ownFile[t] = Int32(ownFileTokens.count)
                ownFileTokens.append(Int32(t))
                inlineBytes += name + 8
            } else {
                inlineBytes += name + postingLength[t] + 32
            }
        }
        let shardCount = max(1, requestedShards ?? recommendedShardCount(inlineBytes: inlineBytes, tokenCount: v, documentCount: n))
        var tokensOfShard = [[Int32]](repeating: [], count: shardCount)
        for t in 0..<v { tokensOfShard[Int(tokens.hashes[t] % UInt32(shardCount))].append(Int32(t)) }

        let version = SearchWebExport.formatVersion
        let vocabulary = tokens, lengths = postingLength, dfs = df, idfs = idf, partList = parts, partBounds = partStart
        let streams = chunks.map(\.state)
        /// `"token":[df,idf,"`, the start of `writeToken`.
        @Sendable func writeTokenStart(_ t: Int, into w: inout WebBytes) {
            vocabulary.bytes.withUnsafeBufferPointer { b in w.string(UnsafeBufferPointer(rebasing: b[vocabulary.start(t)..<Int(vocabulary.ends[t])])) }
            w.raw(":["); w.int(Int(dfs[t])); w.raw(","); w.double(idfs[t]); w.raw(",\"")
        }
        /// `"token":[df,idf,"<postings>"]`.
        @Sendable func writeToken(_ t: Int, into w: inout WebBytes) {
            writeTokenStart(t, into: &w)
            let p = w.reserve(lengths[t])
            var o = 0
            WebDigits.alphabet.withUnsafeBufferPointer { digits in
                for k in partBounds[t]..<partBounds[t + 1] {
                    let part = partList[k]
                    o += WebDigits.write(part.head, WebDigits.headT, to: UnsafeMutableRawPointer(p + o), digits.baseAddress!)
                    let stream = streams[Int(part.chunk)].bytes(Int(part.token), part.from..<part.to)
                    if stream.count > 0 { UnsafeMutableRawPointer(p + o).copyMemory(from: stream.baseAddress!, byteCount: stream.count) }
                    o += stream.count
                }
            }
            w.advance(by: o)
            w.raw("\"]")
        }
        let fileCount = shardCount + ownFileTokens.count
        let shardTokens = tokensOfShard, bigTokens = ownFileTokens, fileOf = ownFile
        let madeFiles = Parallel.map(fileCount) { k -> Data? in
            // A shard is made whole in `w`. A token's own file is pieces: what is written around
            // and between its parts (the heads of their first records) is made in `w`, and the
            // parts' records are where they are, in the workers' streams.
            var w = WebBytes(capacity: k < shardCount ? 4096 : 256)
            var pieces: [UnsafeRawBufferPointer]
            if k < shardCount {
                open(&w, framing, "shard", k)
                w.raw("{\"v\":"); w.int(version); w.raw(",\"t\":{")
                for (j, t32) in shardTokens[k].enumerated() {
                    let t = Int(t32)
                    if j > 0 { w.raw(",") }
                    if fileOf[t] >= 0 {
                        vocabulary.bytes.withUnsafeBufferPointer { b in w.string(UnsafeBufferPointer(rebasing: b[vocabulary.start(t)..<Int(vocabulary.ends[t])])) }
                        w.raw(":"); w.int(Int(fileOf[t]))
                    } else {
                        writeToken(t, into: &w)
                    }
                }
                w.raw("}}")
                close(&w, framing)
                pieces = [UnsafeRawBufferPointer(start: UnsafeRawPointer(w.base), count: w.count)]
            } else {
                let t = Int(bigTokens[k - shardCount])
                open(&w, framing, "token", k - shardCount)
                w.raw("{\"v\":"); w.int(version); w.raw(",\"t\":{")
                writeTokenStart(t, into: &w)
                let first = partBounds[t], end = partBounds[t + 1]
                var cuts = [w.count]
                cuts.reserveCapacity(end - first + 1)
                WebDigits.alphabet.withUnsafeBufferPointer { digits in
                    for k in first..<end {
                        let p = w.reserve(WebDigits.maxLength)
                        w.advance(by: WebDigits.write(partList[k].head, WebDigits.headT, to: UnsafeMutableRawPointer(p), digits.baseAddress!))
                        cuts.append(w.count)
                    }
                }
                w.raw("\"]}}")
                close(&w, framing)
                let made = UnsafeRawPointer(w.base)
                pieces = [UnsafeRawBufferPointer(start: made, count: cuts[0])]
                pieces.reserveCapacity(2 * (end - first) + 2)
                for j in 0..<(end - first) {
                    pieces.append(UnsafeRawBufferPointer(start: made + cuts[j], count: cuts[j + 1] - cuts[j]))
                    let part = partList[first + j]
                    let stream = streams[Int(part.chunk)].bytes(Int(part.token), part.from..<part.to)
                    if stream.count > 0 { pieces.append(stream) }
                }
                pieces.append(UnsafeRawBufferPointer(start: made + cuts[end - first], count: w.count - cuts[end - first]))
            }
            if let postingsWriter {
                if k < shardCount { postingsWriter(.shard, k, pieces) } else { postingsWriter(.token, k - shardCount, pieces) }
                w.free()
                return nil
            } else if k < shardCount {
                return w.take()
            } else {
                var joined = WebBytes(capacity: pieces.reduce(0) { $0 + $1.count })
                for piece in pieces { joined.append(piece) }
                w.free()
                return joined.take()
            }
        }
        let files = postingsWriter == nil ? madeFiles.map { $0! } : []

        let meta = metaFile(parameters: parameters, glossary: glossary, averageFieldLengths: averageFieldLengths,
                            documentCount: n, tokenCount: v, shardCount: shardCount, framing: framing)
        let filters = filtersFile(documentCount: n, framing: framing) { filterFields[$0] }

        // Vocabulary files: the listed words by head key, with their document frequencies.
        let vocabularyCount = SearchExpansionRules.vocabularyFileCount(shardCount: shardCount)
        var vocabularyFiles = [WebVocabularyFile](repeating: WebVocabularyFile(), count: vocabularyCount)
        tokens.bytes.withUnsafeBufferPointer { bytes in
            for t in 0..<v where WebVocabularyFile.mayBeListed(UnsafeBufferPointer(rebasing: bytes[tokens.start(t)..<Int(tokens.ends[t])])) {
                let token = tokens.string(t)
                if let place = WebVocabularyFile.place(of: token, fileCount: vocabularyCount) {
                    vocabularyFiles[place.file].words[token] = Int(df[t])
                }
            }
        }

        var export = SearchWebExport(meta: meta, shards: files.isEmpty ? [] : Array(files[0..<shardCount]),
                                     tokenFiles: files.isEmpty ? [] : Array(files[shardCount...]),
                                     docs: documentSink == nil ? documentFiles : [], filters: filters,
                                     vocabularies: vocabularyFiles.enumerated().map { $1.write(number: $0, framing: framing) })
        export.patchState = SearchWebPatch.State(documentCount: n, tokenCount: v, shardCount: shardCount,
                                                 tokenFileCount: ownFileTokens.count, ownFileRecords: ownFileRecords,
                                                 inlineBytes: inlineBytes,
                                                 shardCountRequested: requestedShards != nil)
        return export
    }

    /// `search-meta.json`: parameters and glossary, nothing per document.
    static func metaFile(parameters: SearchParameters, glossary: SearchGlossary, averageFieldLengths: [Double],
                         documentCount n: Int, tokenCount v: Int, shardCount: Int, framing: Framing) -> Data {
        let version = SearchWebExport.formatVersion
        let idfUnknown = SearchIndex.idf(df: 0, n: Double(n))
        var m = WebBytes()
        open(&m, framing, "meta", 0)
        m.raw("{\"format\":\"kb-search\",\"version\":"); m.int(version)
        m.raw(",\"k1\":"); m.double(parameters.k1)
        m.raw(",\"b\":"); m.double(parameters.b)
        m.raw(",\"beta\":"); m.double(parameters.beta)
        m.raw(",\"maxPositions\":"); m.int(parameters.maxPositions)
        m.raw(",\"conceptWeight\":"); m.double(parameters.conceptWeight)
        m.raw(",\"fields\":["); for f in SearchField.allCases { if f.rawValue > 0 { m.raw(",") }; m.string(f.name) }
        m.raw("],\"fieldWeights\":["); for (i, w) in parameters.fieldWeights.enumerated() { if i > 0 { m.raw(",") }; m.double(w) }
        m.raw("],\"avgFieldLengths\":["); for (i, a) in averageFieldLengths.enumerated() { if i > 0 { m.raw(",") }; m.double(a) }
        m.raw("],\"n\":"); m.int(n)
        m.raw(",\"idfUnknown\":"); m.double(idfUnknown)
        m.raw(",\"tokenCount\":"); m.int(v)
        m.raw(",\"shardCount\":"); m.int(shardCount)
        m.raw(",\"expansion\":{\"vocabularyFiles\":"); m.int(SearchExpansionRules.vocabularyFileCount(shardCount: shardCount))
        m.raw(",\"headLength\":"); m.int(SearchExpansionRules.headLength)
        m.raw(",\"vocabularyMinLength\":"); m.int(SearchExpansionRules.vocabularyMinLength)
        m.raw(",\"prefixMinLength\":"); m.int(SearchExpansionRules.prefixMinLength)
        m.raw(",\"prefixLimit\":"); m.int(SearchExpansionRules.prefixLimit)
        m.raw(",\"prefixWeight\":"); m.double(SearchExpansionRules.prefixWeight)
        m.raw(",\"typoMinLength\":"); m.int(SearchExpansionRules.typoMinLength)
        m.raw(",\"typoMaxDf\":"); m.int(SearchExpansionRules.typoMaxDocumentFrequency)
        m.raw(",\"typoLimit\":"); m.int(SearchExpansionRules.typoLimit)
        m.raw(",\"typoWeight\":"); m.double(SearchExpansionRules.typoWeight)
        m.raw("}")
        m.raw(",\"glossary\":[")
        for (i, c) in glossary.concepts.enumerated() {
            if i > 0 { m.raw(",") }
            m.raw("{\"id\":"); m.string(c.id); m.raw(",\"name\":"); m.string(c.name); m.raw(",\"terms\":[")
            for (j, t) in c.terms.enumerated() { if j > 0 { m.raw(",") }; m.string(t) }
            m.raw("]}")
        }
        m.raw("]}")
        close(&m, framing)
        return m.take()
    }

    /// `search-filters.json`: distinct values and per document indexes, as base-64 varints;
    /// `document(d)` is the language, status and tags of document d.
    static func filtersFile(documentCount n: Int, framing: Framing, _ document: (Int) -> (String, String, [String])) -> Data {
        var values: [String] = []
        var valueIndex: [String: Int] = [:]
        func value(_ s: String) -> UInt32 {
            if let i = valueIndex[s] { return UInt32(i) }
            valueIndex[s] = values.count
            values.append(s)
            return UInt32(values.count - 1)
        }
        var filterDocs = WebVarints()
        for d in 0..<n {
            let (lang, status, tags) = document(d)
            filterDocs.append(value(lang))
            filterDocs.append(value(status))
            filterDocs.append(UInt32(tags.count))
            for t in tags { filterDocs.append(value(t)) }
        }
        var fw = WebBytes()
        open(&fw, framing, "filters", 0)
        fw.raw("{\"v\":"); fw.int(SearchWebExport.formatVersion); fw.raw(",\"values\":[")
        for (i, v) in values.enumerated() { if i > 0 { fw.raw(",") }; fw.string(v) }
        fw.raw("],\"docs\":\"")
        filterDocs.bytes.withUnsafeBufferPointer { fw.append($0) }
        fw.raw("\"}")
        close(&fw, framing)
        return fw.take()
    }

    /// A power of two so that shards hold about `defaultShardBytes` each, and at most about one
    /// token each (1...65536): small shards, so that a query loads little besides its own tokens.
    /// A small knowledge base gets at most `max(64, 8 × documents)` shards: its whole index is
    /// small, and a few shards of a few kilobytes serve it better than thousands of tiny files.
    static func recommendedShardCount(inlineBytes: Int, tokenCount: Int, documentCount: Int) -> Int {
        let limit = min(65536, max(64, 8 * documentCount))
        var count = 1
        while count * 2 <= limit && count * 2 <= max(1, tokenCount) && inlineBytes / count > defaultShardBytes { count *= 2 }
        return count
    }

    /// The start of a file: `__kbSearchData("kind",n,` for scripts.
    static func open(_ w: inout WebBytes, _ framing: Framing, _ kind: StaticString, _ number: Int) {
        guard framing == .script else { return }
        w.raw("__kbSearchData(\""); w.raw(kind); w.raw("\","); w.int(number); w.raw(",")
    }

    /// The end of a file: `);` for scripts, and a newline.
    static func close(_ w: inout WebBytes, _ framing: Framing) {
        if framing == .script { w.raw(");") }
        w.raw("\n")
    }
}

/// A contiguous range of documents of the web export: tokenized into its own vocabulary, each
/// token's records encoded in the web form into the token's stream as each document ends (its
/// field lengths are known then), each document's file made as it is read.
struct WebChunk {
    /// Interns the tokens (the chunk's vocabulary is its table, taken at `finish()`).
    var tokenizer: SearchTokenizer = { var t = SearchTokenizer(); t.tracksSources = false; t.interning = true; return t }()
    let glossary: SearchGlossary
    let cap: Int
    /// After `finish()`: the chunk's vocabulary, in first-appearance order.
    var tokens = TokenTable()
    /// Per chunk token: its record stream and the document, text and field of its last record.
    let state = ChunkTokens()
    /// The runs of the tokens' streams that belong to one batch each, in the order they began.
    let parts = ChunkParts()
    /// The first document of the current batch.
    private var batchFirstDoc: Int32 = 0
    /// Σ over the chunk's documents of each field's length.
    var totalLength = [Int](repeating: 0, count: SearchIndex.fieldCount)
    /// Per chunk token: the number of the last text that had it, and its record there.
    private var stamp: [Int32] = []
    private var recordOf: [Int32] = []
    private var textNumber: Int32 = 0
    // The records of the current document (one per text and distinct token in it, in text order
    // and, within a text, in order of first occurrence): token, text, field, tf and the first
    // `cap` positions `recordPositions[r * cap ..< r * cap + min(tf, cap)]`.
    private var recordToken: [Int32] = []
    private var recordText: [Int32] = []
    private var recordField: [Int32] = []
    private var recordTf: [Int32] = []
    private var recordPositions: [Int32] = []
    private var byField: [[FieldText]?] = Array(repeating: nil, count: SearchIndex.fieldCount)
    /// The current document's field lengths (literal tokens).
    private var fieldLength = [Int](repeating: 0, count: SearchIndex.fieldCount)

    init(cap: Int, glossary: SearchGlossary) {
        self.cap = cap
        self.glossary = glossary
    }

    /// Starts a batch of documents from `firstDoc` on (after the documents of the chunk's earlier
    /// batches); returns the number of parts so far (the batch's parts follow).
    mutating func beginBatch(firstDoc: Int32) -> Int {
        batchFirstDoc = firstDoc
        return parts.count
    }

    /// Tokenizes document `d`, encodes its records and returns its file.
    mutating func add(_ doc: SearchDocument, doc d: Int32, framing: SearchWebExport.Framing) -> Data {
        let fc = SearchIndex.fieldCount
        for f in 0..<fc { byField[f] = nil }
        for (field, texts) in doc.fields { byField[field.rawValue] = texts }
        for f in 0..<fc { fieldLength[f] = 0 }
        var records = 0
        var text: Int32 = 0
        var textBytes = 0
        for f in 0..<fc {
            guard let texts = byField[f] else { continue }
            for ft in texts {
                tokenizer.tokenize(ft.text, mode: .document, glossary: f == SearchField.code.rawValue ? .empty : glossary)
                fieldLength[f] += tokenizer.literalCount
                textBytes += ft.text.utf8.count
                records = addRecords(text: text, field: Int32(f), from: records)
                text += 1
            }
        }
        for f in 0..<fc { totalLength[f] += fieldLength[f] }
        emit(records: records, doc: d, fieldLength: fieldLength)
        return file(doc, doc: d, texts: Int(text), textBytes: textBytes, framing: framing)
    }

    /// Adds a record per distinct token of the text just tokenized (tf and first positions),
    /// after the document's first `records`; returns the new record count.
    private mutating func addRecords(text: Int32, field: Int32, from records: Int) -> Int {
        let n = tokenizer.count
        let vocabulary = tokenizer.table.count
        if stamp.count < vocabulary {
            stamp.append(contentsOf: repeatElement(0, count: vocabulary - stamp.count))
            recordOf.append(contentsOf: repeatElement(0, count: vocabulary - recordOf.count))
        }
        if recordToken.count < records + n {
            let more = records + n - recordToken.count
            recordToken.append(contentsOf: repeatElement(0, count: more))
            recordText.append(contentsOf: repeatElement(0, count: more))
            recordField.append(contentsOf: repeatElement(0, count: more))
            recordTf.append(contentsOf: repeatElement(0, count: more))
            recordPositions.append(contentsOf: repeatElement(0, count: more * max(cap, 1)))
        }
        textNumber += 1
        let number = textNumber
        let cap = self.cap
        var used = records
        tokenizer.ids.withUnsafeBufferPointer { ids in
        tokenizer.positions.withUnsafeBufferPointer { tokenPositions in
        stamp.withUnsafeMutableBufferPointer { stamp in
        recordOf.withUnsafeMutableBufferPointer { recordOf in
        recordToken.withUnsafeMutableBufferPointer { rToken in
        recordText.withUnsafeMutableBufferPointer { rText in
        recordField.withUnsafeMutableBufferPointer { rField in
        recordTf.withUnsafeMutableBufferPointer { rTf in
        recordPositions.withUnsafeMutableBufferPointer { rPositions in
            for k in 0..<n {
                let id = ids[k]
                let t = Int(id)
                let r: Int
                if stamp[t] != number {
                    stamp[t] = number
                    r = used
                    recordOf[t] = Int32(truncatingIfNeeded: r)
                    rToken[r] = id
                    rText[r] = text
                    rField[r] = field
                    rTf[r] = 0
                    used &+= 1
                } else {
                    r = Int(recordOf[t])
                }
                // Wrapping: record and position indexes are within the buffers sized above.
                let f = Int(rTf[r])
                if f < cap { rPositions[r &* cap &+ f] = tokenPositions[k] }
                rTf[r] = Int32(truncatingIfNeeded: f &+ 1)
            }
        }}}}}}}}}
        return used
    }

    /// Encodes the current document's records into their tokens' streams (docs/search.md §6).
    private mutating func emit(records: Int, doc d: Int32, fieldLength: [Int]) {
        state.grow(to: tokenizer.table.count)
        let fc = Int32(SearchIndex.fieldCount)
        let cap = self.cap
        let tokens = state.base
        let maxRecord = WebDigits.maxLength * (5 + cap)
        WebDigits.alphabet.withUnsafeBufferPointer { digitBuffer in
        let digits = digitBuffer.baseAddress!
        recordToken.withUnsafeBufferPointer { rToken in
        recordText.withUnsafeBufferPointer { rText in
        recordField.withUnsafeBufferPointer { rField in
        recordTf.withUnsafeBufferPointer { rTf in
        recordPositions.withUnsafeBufferPointer { rPositions in
            // Wrapping arithmetic below: counts, numbers and gaps are far from Int32's limits
            // (gaps are of increasing documents, texts and positions).
            for r in 0..<records {
                let token = tokens + Int(rToken[r])
                let text = rText[r], field = rField[r]
                let out = token.pointee.reserve(maxRecord)
                var n = 0
                let last = token.pointee.lastDoc
                if last != d {
                    // The first record of the document: its head (the document gap; the first
                    // record of a batch's part gets it when the parts are joined), text and
                    // field, and the field's length.
                    if last >= batchFirstDoc {
                        n &+= WebDigits.write(UInt32(2 &* (d &- last) &+ 1), WebDigits.headT, to: out + n, digits)
                    } else {
                        let open = token.pointee.openPart
                        if open >= 0 { parts.end(open, lastDoc: last, to: token.pointee.count) }
                        token.pointee.openPart = parts.begin(token: rToken[r], firstDoc: d, from: token.pointee.count)
                    }
                    n &+= WebDigits.write(UInt32(text &* fc &+ field), WebDigits.textT, to: out + n, digits)
                    n &+= WebDigits.write(UInt32(fieldLength[Int(field)]), WebDigits.lengthT, to: out + n, digits)
                    token.pointee.documentFrequency &+= 1
                } else {
                    // A later record of the same document: text gap and field step in one head,
                    // then the field's length if the field changed.
                    let step = field &- token.pointee.lastField
                    n &+= WebDigits.write(UInt32(2 &* ((text &- token.pointee.lastText &- 1) &* fc &+ step)), WebDigits.headT, to: out + n, digits)
                    if step != 0 {
                        n &+= WebDigits.write(UInt32(fieldLength[Int(field)]), WebDigits.lengthT, to: out + n, digits)
                    }
                }
                token.pointee.lastDoc = d
                token.pointee.lastText = text
                token.pointee.lastField = field
                token.pointee.recordCount &+= 1
                // Positions: the first with whether tf > 1, then tf − 2, then the gaps.
                let tf = Int(rTf[r])
                let m = min(tf, cap)
                let p0 = r &* cap
                let first = m > 0 ? rPositions[p0] : 0
                n &+= WebDigits.write(UInt32(2 &* first) &+ (tf > 1 ? 1 : 0), WebDigits.positionT, to: out + n, digits)
                if tf > 1 { n &+= WebDigits.write(UInt32(tf &- 2), WebDigits.smallT, to: out + n, digits) }
                var prev = first
                for k in 1..<max(m, 1) {
                    let p = rPositions[p0 &+ k]
                    n &+= WebDigits.write(UInt32(p &- prev), WebDigits.smallT, to: out + n, digits)
                    prev = p
                }
                token.pointee.count &+= n
            }
        }}}}}}
    }

    /// `{"id","title"(when not the first text),"lang","url","texts":[[field,text,label,anchor]…]}`
    /// with trailing nulls left out of each text.
    private mutating func file(_ doc: SearchDocument, doc d: Int32, texts: Int, textBytes: Int,
                               framing: SearchWebExport.Framing) -> Data {
        var w = WebBytes(capacity: textBytes + textBytes / 8 + 64 * texts + 256)
        SearchWebExport.open(&w, framing, "doc", Int(d))
        w.raw("{\"id\":"); w.string(doc.id)
        var firstText: String? = nil
        for f in 0..<SearchIndex.fieldCount { if let t = byField[f]?.first { firstText = t.text; break } }
        if doc.title != firstText { w.raw(",\"title\":"); w.string(doc.title) }
        w.raw(",\"lang\":"); w.string(doc.lang)
        w.raw(",\"url\":"); if let u = doc.url { w.string(u) } else { w.raw("null") }
        w.raw(",\"texts\":[")
        var k = 0
        for f in 0..<SearchIndex.fieldCount {
            guard let list = byField[f] else { continue }
            for ft in list {
                if k > 0 { w.raw(",") }
                w.raw("["); w.int(f); w.raw(","); w.string(ft.text)
                if ft.label != nil || ft.anchor != nil {
                    w.raw(",")
                    if let l = ft.label { w.string(l) } else { w.raw("null") }
                    if let a = ft.anchor { w.raw(","); w.string(a) }
                }
                w.raw("]")
                k += 1
            }
        }
        w.raw("]}")
        SearchWebExport.close(&w, framing)
        return w.take()
    }

    /// Takes the vocabulary and drops the scratch buffers.
    mutating func finish() {
        state.grow(to: tokenizer.table.count)
        for t in 0..<state.count where state[t].openPart >= 0 {
            parts.end(state[t].openPart, lastDoc: state[t].lastDoc, to: state[t].count)
        }
        tokens = tokenizer.takeTable()
        tokenizer = SearchTokenizer()
        stamp = []; recordOf = []
        recordToken = []; recordText = []; recordField = []; recordTf = []; recordPositions = []
    }
}

/// Numbers as base-64 varints (the filter data, docs/search.md §6): each character carries 5
/// bits, low bits first, plus 32 when more characters follow.
struct WebVarints {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    var bytes: [UInt8] = []

    @inline(__always)
    mutating func append(_ v: UInt32) {
        var v = v
        while v >= 32 { bytes.append(Self.alphabet[Int(32 | (v & 31))]); v >>= 5 }
        bytes.append(Self.alphabet[Int(v)])
    }
}

/// Minimal JSON text writer with deterministic output.
struct JSONWriter {
    var bytes: [UInt8] = []

    mutating func raw(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func raw(_ s: String) { bytes.append(contentsOf: s.utf8) }

    mutating func int(_ v: Int) {
        if v >= 0 && v < 10 { bytes.append(UInt8(0x30 + v)); return }
        bytes.append(contentsOf: String(v).utf8)
    }

    /// Shortest representation that round-trips (Swift's `description`), as JSON.
    mutating func double(_ v: Double) {
        precondition(v.isFinite)
        bytes.append(contentsOf: v.description.utf8)
    }

    /// A JSON string. `<`, `>` and `&` are written as `\u003c`, `\u003e` and `\u0026` (and the
    /// line separators U+2028/U+2029 as escapes), so entry text such as `</script>` or `<!--`
    /// stays inert even if the JSON is ever inlined into a page.
    mutating func string(_ s: String) {
        var w = WebBytes(capacity: s.utf8.count + 16)
        w.string(s)
        bytes.append(contentsOf: UnsafeBufferPointer(start: w.base, count: w.count))
        w.free()
    }
}
