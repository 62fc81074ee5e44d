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
    /// expansion rules in the metadata; 7: records carry the code of their field's length,
    /// `SearchFieldLength`, instead of the length).
    public static let formatVersion = 7
    /// The function the script files call.
    public static let callback = "__kbSearchData"
    /// Tokens with more records than this get a postings file of their own (`tokenFiles`).
    public static let defaultOwnFileRecords = 128
    /// Shards hold about this many bytes (tokens with a file of their own count by their name).
    public static let defaultShardBytes = 300
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
        var builder = SearchWebExportBuilder(parameters: parameters, glossary: glossary, shardCount: requestedShards,
                                             ownFileRecords: ownFileRecords, framing: framing, batchCount: requested,
                                             documentSink: documentSink, postingsWriter: postingsWriter)
        builder.add(count: order.count, lastID: nil) { document(order[$0]) }
        return builder.finish()
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
