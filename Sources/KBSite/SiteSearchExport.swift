import Foundation
import Synchronization
import KBCore
import KBSearch
import KBScenarios

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
/// - `search/vocab-<i>.js`: `__kbSearchData("vocab", i, {…});` the words listed for prefix and
///   typo expansions whose head key falls in file i, loaded for a query word that may expand
struct SiteSearchExport {
    static let folder = "search"

    let export: SearchWebExport

    /// An export made elsewhere (the clean build's `SearchWebExportBuilder`).
    init(export: SearchWebExport) { self.export = export }

    /// Writes `search/doc-<d>.js` files while the index is built, on a thread of their own, and
    /// `search/shard-<i>.js` and `search/token-<k>.js` files on the threads that encode them
    /// (the pages are written by then, and a token file is written straight from the record
    /// streams it is made of). After `stop()` (the build failed), files handed over later are
    /// dropped, so the staging folder can be discarded once `finish()` returns.
    final class DocumentFiles: Sendable {
        private let writer: SiteWriter
        private let queue: SiteWriter.Queue
        /// Set by `stop()`: files handed over later are dropped.
        private let stopped = Mutex(false)
        /// Files being handed over or written now (`stop()` waits for them).
        private let writing = DispatchGroup()
        private let failures = FirstFailure()

        init(_ writer: SiteWriter) throws {
            try writer.prepareFolders(for: [SiteSearchExport.folder + "/meta.js"])
            self.writer = writer
            queue = SiteWriter.Queue(writer, label: "search-docs")
        }

        func add(_ d: Int, _ data: Data) {
            // The queue may make the caller wait (it holds a bounded number of files), so it is
            // not called under the lock, which the other workers would spin on meanwhile.
            guard start() else { return }
            defer { writing.leave() }
            queue.add(SiteSearchExport.folder + "/doc-\(d).js", data, position: d)
        }

        /// Counts a hand-over in unless `stop()` was called; entering the group under the lock
        /// `stop()` takes means that once it has set `stopped`, nothing starts, and it waits for
        /// what did.
        private func start() -> Bool {
            stopped.withLock { stopped in
                if !stopped { writing.enter() }
                return !stopped
            }
        }

        /// Writes a shard or token file now, on the calling thread (positions after every
        /// document's, for the order of errors).
        func write(_ kind: SearchWebExport.PostingsFile, _ k: Int, _ pieces: [UnsafeRawBufferPointer]) {
            guard start() else { return }
            defer { writing.leave() }
            let (path, position) = switch kind {
            case .shard: (SiteSearchExport.folder + "/shard-\(k).js", Int(Int32.max) + k)
            case .token: (SiteSearchExport.folder + "/token-\(k).js", Int(UInt32.max) + k)
            }
            do {
                try writer.write(path, pieces: pieces)
            } catch {
                failures.record(position, error as? SiteBuildError ?? SiteBuildError(step: .write, path: path, message: "\(error)"))
            }
        }

        /// Drops the files handed over from now on; returns once no file is being written.
        func stop() {
            stopped.withLock { $0 = true }
            writing.wait()
        }

        /// Waits for every file handed over so far; throws the first write error.
        func finish() throws {
            try queue.finish()
            if let failure = failures.first { throw failure }
        }
    }

    /// Writes every file of the index into the staging folder.
    func write(into writer: SiteWriter) throws {
        try writer.prepareFolders(for: [Self.folder + "/meta.js"])
        try writer.write(Self.folder + "/meta.js", export.meta)
        try writer.write(Self.folder + "/filters.js", export.filters)
        for (i, data) in export.vocabularies.enumerated() { try writer.write(Self.folder + "/vocab-\(i).js", data) }
        // Created by one thread (see SiteWriter.Queue).
        let files = SiteWriter.Queue(writer, label: "search")
        var position = 0
        for (i, data) in export.shards.enumerated() { files.add(Self.folder + "/shard-\(i).js", data, position: position); position += 1 }
        for (k, data) in export.tokenFiles.enumerated() { files.add(Self.folder + "/token-\(k).js", data, position: position); position += 1 }
        for (d, data) in export.docs.enumerated() { files.add(Self.folder + "/doc-\(d).js", data, position: position); position += 1 }
        try files.finish()
    }
}
