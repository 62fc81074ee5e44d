import Foundation
import Dispatch

/// The in-browser search index of the site (docs/search.md "Web index", docs/site.md
/// "Search"): the web export of the same `SearchIndex` that `kb search` uses, wrapped as script
/// files so that it loads from `file://` too (browsers refuse `fetch()` there).
///
/// - `search/meta.js`: `__kbSearchData("meta", 0, {…});` ranking parameters and the glossary
///   (nothing per document, so it stays small), loaded on the first query
/// - `search/shard-<i>.js`: `__kbSearchData("shard", i, {…});` postings of tokens in shard i
///   (a token with many records is named there with the number k of its own file)
/// - `search/token-<k>.js`: `__kbSearchData("token", k, {…});` postings of one such token
/// - `search/doc-<d>.js`: `__kbSearchData("doc", d, {…});` id, title, URL, language and texts
///   (field, anchor, label, text) of document d, loaded for shown results only
/// - `search/filters.js`: `__kbSearchData("filters", 0, {…});` language, status and tags of
///   every document, loaded only to filter
struct SiteSearchExport {
    static let folder = "search"
    static let callback = "__kbSearchData"

    let export: SearchWebExport

    /// Builds the index of `entries` (sorted by id: documents are numbered in that order) and
    /// its web form.
    init(entries: [Entry], glossary: Glossary) {
        let documents = entries.map { SearchDocument(entry: $0, url: SitePaths.entry($0.id)) }
        let index = SearchIndex.build(documents: documents, glossary: SearchGlossary(glossary))
        export = index.webExport()
    }

    /// Writes every file of the index into the staging folder.
    func write(into writer: SiteWriter) throws {
        try writer.prepareFolders(for: [Self.folder + "/meta.js"])
        try writer.write(Self.folder + "/meta.js", Self.script("meta", 0, export.meta))
        try writer.write(Self.folder + "/filters.js", Self.script("filters", 0, export.filters))
        let shardCount = export.shards.count, tokenCount = export.tokenFiles.count
        let count = shardCount + tokenCount + export.docs.count
        // Wrapped on all cores, created by one thread (see SiteWriter.Queue).
        let files = SiteWriter.Queue(writer, label: "search")
        DispatchQueue.concurrentPerform(iterations: count) { k in
            let (kind, n, data) = k < shardCount ? ("shard", k, export.shards[k])
                : k < shardCount + tokenCount ? ("token", k - shardCount, export.tokenFiles[k - shardCount])
                : ("doc", k - shardCount - tokenCount, export.docs[k - shardCount - tokenCount])
            files.add(Self.folder + "/\(kind)-\(n).js", Self.script(kind, n, data), position: k)
        }
        try files.finish()
    }

    /// `__kbSearchData("kind", n, JSON);` — JSON is valid JavaScript once U+2028/U+2029 are
    /// escaped (older engines reject them raw in string literals); `<`, `>` and `&` are escaped
    /// too, so entry text never appears as markup in any output file.
    static func script(_ kind: String, _ number: Int, _ json: Data) -> Data {
        var out = [UInt8]()
        out.reserveCapacity(json.count + json.count / 16 + 48)
        out.append(contentsOf: "\(callback)(\"\(kind)\",\(number),".utf8)
        json.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var n = bytes.count
            while n > 0 && bytes[n - 1] == 0x0A { n -= 1 }
            var i = 0
            var plain = 0 // start of the bytes not copied yet
            while i < n {
                let b = bytes[i]
                // Only these bytes can need escaping; everything else is copied in runs.
                guard b == 0x3C || b == 0x3E || b == 0x26 || b == 0xE2 else { i += 1; continue }
                let escaped: StaticString
                var width = 1
                switch b {
                case 0xE2 where i + 2 < n && bytes[i + 1] == 0x80 && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9):
                    escaped = bytes[i + 2] == 0xA8 ? "\\u2028" : "\\u2029"
                    width = 3
                // Only inside JSON strings: escaped so no entry text reads as markup, wherever the data lands.
                case 0x3C: escaped = "\\u003c"
                case 0x3E: escaped = "\\u003e"
                case 0x26: escaped = "\\u0026"
                default: i += 1; continue
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plain..<i]))
                escaped.withUTF8Buffer { out.append(contentsOf: $0) }
                i += width
                plain = i
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plain..<n]))
        }
        out.append(contentsOf: ");\n".utf8)
        return Data(out)
    }
}
