import Foundation

/// The in-browser search index of the site (docs/search.md "Web index", docs/site.md
/// "Search"): the web export (`SearchWebExport`) of the entries, ranked in the browser as
/// `kb search` ranks them, as script files so that it loads from `file://` too (browsers
/// refuse `fetch()` there).
///
/// - `search/meta.js`: `__kbSearchData("meta", 0, {…});` ranking parameters and the glossary
///   (nothing per document, so it stays small), loaded on the first query
/// - `search/shard-<i>.js`: `__kbSearchData("shard", i, {…});` postings of tokens in shard i
///   (a token with many records is named there with the number k of its own file)
/// - `search/token-<k>.js`: `__kbSearchData("token", k, {…});` postings of one such token
/// - `search/doc-<d>.js`: `__kbSearchData("doc", d, {…});` id, title, URL, language and texts
///   (field, text, label, anchor) of document d, loaded for shown results only
/// - `search/filters.js`: `__kbSearchData("filters", 0, {…});` language, status and tags of
///   every document, loaded only to filter
struct SiteSearchExport {
    static let folder = "search"

    let export: SearchWebExport

    /// Builds the web index of `entries` (documents are numbered in id order, as in
    /// `SearchIndex.build`), its files already wrapped as scripts. Each entry becomes a search
    /// document on the thread that tokenizes it.
    /// With `documentFiles`, each document, shard and token file is written through it as soon
    /// as it is made, while the rest of the index is still being built (`export.docs`,
    /// `export.shards` and `export.tokenFiles` then stay empty).
    init(entries: [Entry], glossary: Glossary, documentFiles: DocumentFiles? = nil) {
        var sink: (@Sendable (Int, Data) -> Void)? = nil
        var postingsSink: (@Sendable (SearchWebExport.PostingsFile, Int, Data) -> Void)? = nil
        if let documentFiles {
            sink = { d, data in documentFiles.add(d, data) }
            postingsSink = { kind, k, data in documentFiles.add(kind, k, data) }
        }
        export = SearchWebExport.build(count: entries.count, id: { entries[$0].id },
                                       document: { SearchDocument(entry: entries[$0], url: SitePaths.entry(entries[$0].id)) },
                                       glossary: SearchGlossary(glossary), framing: .script, documentSink: sink,
                                       postingsSink: postingsSink)
    }

    /// Writes `search/doc-<d>.js`, `search/shard-<i>.js` and `search/token-<k>.js` files while
    /// the index is built, on a thread of their own. After `stop()` (the build failed), files
    /// handed over later are dropped, so the staging folder can be discarded once `finish()`
    /// returns.
    final class DocumentFiles: @unchecked Sendable {
        private let queue: SiteWriter.Queue
        private let lock = NSLock()
        private var stopped = false

        init(_ writer: SiteWriter) throws {
            try writer.prepareFolders(for: [SiteSearchExport.folder + "/meta.js"])
            queue = SiteWriter.Queue(writer, label: "search-docs")
        }

        func add(_ d: Int, _ data: Data) {
            lock.lock(); defer { lock.unlock() }
            guard !stopped else { return }
            queue.add(SiteSearchExport.folder + "/doc-\(d).js", data, position: d)
        }

        /// A shard or token file (positions after every document's, for the order of errors).
        func add(_ kind: SearchWebExport.PostingsFile, _ k: Int, _ data: Data) {
            lock.lock(); defer { lock.unlock() }
            guard !stopped else { return }
            switch kind {
            case .shard: queue.add(SiteSearchExport.folder + "/shard-\(k).js", data, position: Int(Int32.max) + k)
            case .token: queue.add(SiteSearchExport.folder + "/token-\(k).js", data, position: Int(UInt32.max) + k)
            }
        }

        func stop() {
            lock.lock(); stopped = true; lock.unlock()
        }

        /// Waits for every file handed over so far; throws the first write error.
        func finish() throws { try queue.finish() }
    }

    /// Writes every file of the index into the staging folder.
    func write(into writer: SiteWriter) throws {
        try writer.prepareFolders(for: [Self.folder + "/meta.js"])
        try writer.write(Self.folder + "/meta.js", export.meta)
        try writer.write(Self.folder + "/filters.js", export.filters)
        // Created by one thread (see SiteWriter.Queue).
        let files = SiteWriter.Queue(writer, label: "search")
        var position = 0
        for (i, data) in export.shards.enumerated() { files.add(Self.folder + "/shard-\(i).js", data, position: position); position += 1 }
        for (k, data) in export.tokenFiles.enumerated() { files.add(Self.folder + "/token-\(k).js", data, position: position); position += 1 }
        for (d, data) in export.docs.enumerated() { files.add(Self.folder + "/doc-\(d).js", data, position: position); position += 1 }
        try files.finish()
    }
}
