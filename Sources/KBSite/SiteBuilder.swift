import Foundation
import Dispatch
import Synchronization
import KBCore
import KBSearch
import KBScenarios

/// A step of the site build, named in errors.
public enum SiteBuildStep: String, Sendable, CaseIterable {
    /// Find entry files, read the check report and list the theme's files.
    case load
    /// Read and parse each entry through `KnowledgeBaseLoader` (Markdown rendered to HTML by
    /// cmark), read its scenario file, and (clean build) render its page and index it for search.
    case parse
    /// Lint the loaded entries once; errors stop the build.
    case validate
    /// Group entries by tag and language, collect symptoms, order the feed.
    case index
    /// Turn the index into pages.
    case render
    /// Write the pages and assets into the staging folder and swap it in.
    case write
}

/// Why a build stopped: the step, the file involved and what went wrong.
public struct SiteBuildError: Error, Sendable, CustomStringConvertible {
    public let step: SiteBuildStep
    public let path: String
    public let message: String

    public init(step: SiteBuildStep, path: String, message: String) {
        self.step = step
        self.path = path
        self.message = message
    }

    public var description: String { "\(step.rawValue): \(path): \(message)" }
}

/// The static site pipeline: load → parse → validate → index → render → write.
/// A clean build parses the entries in batches and renders each entry's page as it is parsed
/// (`buildClean`); the steps after parse run over what the batches left (listings, search
/// postings). Parsing and rendering use all cores.
public struct SiteBuilder: Sendable {
    public struct Options: Sendable {
        /// The folder that holds `<id>/entry.md`.
        public var entriesDirectory: String
        /// A theme folder whose files replace or add to the built-in theme's (`site/`:
        /// `assets/style.css`, …); nil for the built-in theme alone.
        public var assetsDirectory: String?
        /// Title, description and language order (kb.yaml).
        public var settings: SiteSettings
        /// Where the site goes; replaced as a whole when the build succeeds.
        public var outputDirectory: String
        /// For paths in messages and protecting the working tree from `--out .`.
        public var workingDirectory: String
        /// `.kb/check-report.json`; missing is fine.
        public var checkReportPath: String
        /// `--base-url`, or nil: `/` without canonical links.
        public var baseURL: String?
        /// Keep raw HTML of entries (`--unsafe-html`).
        public var unsafeHTML: Bool
        /// Rebuild only what changed since the last build into the same folder, when its build
        /// manifest allows (`kb build` without `--clean`); else a clean build.
        public var incremental: Bool
        /// Entries a clean build reads, lints, renders and indexes at a time: memory holds the
        /// site's index, the search postings and one batch of entries, however many there are.
        var batchSize = 4096

        public init(entriesDirectory: String, assetsDirectory: String?, outputDirectory: String, workingDirectory: String,
                    checkReportPath: String, baseURL: String? = nil, unsafeHTML: Bool = false, settings: SiteSettings = .init(),
                    incremental: Bool = false) {
            self.incremental = incremental
            self.entriesDirectory = entriesDirectory
            self.assetsDirectory = assetsDirectory
            self.settings = settings
            self.outputDirectory = outputDirectory
            self.workingDirectory = workingDirectory
            self.checkReportPath = checkReportPath
            self.baseURL = baseURL
            self.unsafeHTML = unsafeHTML
        }
    }

    public struct Summary: Sendable {
        public let entries: Int
        /// HTML pages, sitemap and feed (not assets).
        public let pages: Int
        /// Files written, assets and marker included.
        public let files: Int
        public let bytes: Int
        public let seconds: Double
        /// Absolute path of the output folder.
        public let output: String
        /// Wall-clock seconds of each step in the order they ran (`kb build --timings`). The
        /// search index runs beside validate, index and render, so its own time is listed apart.
        public let timings: [(step: String, seconds: Double)]
        /// What an incremental build did; nil for a clean build.
        public var incremental: IncrementalBuildReport? = nil
        /// Why the build was a clean one (empty for an incremental build).
        public var cleanBuildReason: String = ""
    }

    public let options: Options
    /// Receives every lint diagnostic (warnings and errors) in path order.
    let report: @Sendable (Diagnostic) -> Void
    /// Receives progress (step, done, total); the command shows it on a terminal only.
    let progress: @Sendable (SiteBuildStep, Int, Int) -> Void

    public init(options: Options, report: @escaping @Sendable (Diagnostic) -> Void = { _ in },
                progress: @escaping @Sendable (SiteBuildStep, Int, Int) -> Void = { _, _, _ in }) {
        self.options = options
        self.report = report
        self.progress = progress
    }

    // MARK: Pipeline

    public func build() throws -> Summary {
        let start = DispatchTime.now().uptimeNanoseconds
        let clock = StepClock(start: start)
        var cleanBuildReason = options.incremental ? "" : "a clean build was asked for"
        let base: BaseURL
        if let raw = options.baseURL {
            guard let parsed = BaseURL(parsing: raw) else {
                throw SiteBuildError(step: .load, path: "--base-url", message: "'\(raw)' must be a path starting with / or an http(s) URL")
            }
            base = parsed
        } else {
            base = .root
        }
        if options.incremental {
            do {
                return try buildIncrementally(base: base, start: start, clock: clock)
            } catch let clean as CleanBuildNeeded {
                cleanBuildReason = clean.reason
            }
        }
        return try buildClean(base: base, start: start, clock: clock, reason: cleanBuildReason)
    }

    /// A clean build into a new staging folder. The entries are read in batches: each entry's
    /// page is rendered and written on the thread that parsed it (unless it links related
    /// entries, whose titles the page shows: those pages wait for the index and their entries
    /// are read again), its search document is added to the search index once its batch is
    /// parsed, and then it is let go; only its listing (what lists and the index need) and its
    /// stamps stay. If the entries do not lint, the staging folder is thrown away.
    func buildClean(base: BaseURL, start: UInt64, clock: StepClock, reason cleanBuildReason: String) throws -> Summary {
        // Taken before any input is read: a change made while the build runs is seen by the next one.
        let startTime = BuildManifest.FileStamp.now
        let entriesFolder = BuildManifest.FileStamp(path: options.entriesDirectory)
        let glossaryPath = (options.entriesDirectory as NSString).appendingPathComponent(Glossary.fileName)
        let fingerprint = BuildFingerprint.make(options: options, assets: try listAssets(), glossaryPath: glossaryPath)
        let input = try load()
        clock.lap(.load)
        let (locations, checkReport, assets) = (input.locations, input.checkReport, input.assets)
        let (glossary, glossaryProblems) = FileManager.default.fileExists(atPath: glossaryPath)
            ? Glossary.load(entriesDirectory: options.entriesDirectory, displayPath: display(glossaryPath))
            : (Glossary.empty, [])
        let glossaryError = glossaryProblems.first(where: { $0.severity == .error })
        let writer = try SiteWriter(output: options.outputDirectory,
                                    protected: [options.workingDirectory, options.entriesDirectory] + (options.assetsDirectory.map { [$0] } ?? []),
                                    sources: [options.entriesDirectory] + (options.assetsDirectory.map { [$0] } ?? []))
        let pages = SiteWriter.Pages(writer, label: "pages")
        // The search index's document files are written as they are made; the rest once it is complete.
        let documentFiles: SiteSearchExport.DocumentFiles?
        do {
            try writer.createFolders(["entries"])
            documentFiles = glossaryError != nil ? nil : try SiteSearchExport.DocumentFiles(writer)
        } catch {
            writer.discard()
            throw error
        }
        /// Stops the file writing and removes the staging folder.
        func abandon() {
            documentFiles?.stop()
            try? documentFiles?.finish()
            try? pages.finish()
            writer.discard()
        }
        do {
            var parsed = try parseAndRenderEntries(locations, input: input, glossary: glossary, checkReport: checkReport, base: base,
                                                   pages: pages, documentFiles: documentFiles)
            clock.lap(.parse)
            clock.record("search index (batches, beside parse)", nanoseconds: parsed.searchNanoseconds)
            let (diagnostics, knownIDs) = try validate(parsed.knowledgeBase)
            clock.lap(.validate)
            var paths: [String: String] = [:]
            for file in parsed.files { if let entry = file.entry, paths[entry.id] == nil { paths[entry.id] = entry.path } }
            let index = try SiteIndex.make(parsed.listings, checks: checkReport?.latestByEntry() ?? [:], pathOf: { paths[$0] ?? $0 })
            parsed.listings = []
            clock.lap(.index)
            progress(.index, 0, 1)
            if let problem = glossaryError {
                throw SiteBuildError(step: .validate, path: problem.path, message: problem.formatted)
            }
            // The other pages render on a thread of their own while the search index is finished here.
            let others = BackgroundTask<Int> { [deferred = parsed.deferred, files = parsed.files] in
                let begin = DispatchTime.now().uptimeNanoseconds
                defer { clock.record("pages besides entries (beside search)", since: begin) }
                try writer.createFolders(index.pageFolders)
                let list = Self.pagesBesideEntries(of: index)
                render(list, of: index, entry: { _ in preconditionFailure("no entry page is rendered here") }, base: base, buffers: pages) { path, buffer, position in
                    pages.add(path, buffer, position: position)
                }
                try renderDeferredPages(deferred, of: locations, files: files, index: index, checkReport: checkReport, base: base, pages: pages)
                return list.count + index.entries.count
            }
            var searchState: [UInt8] = []
            do {
                if let documentFiles {
                    let begin = DispatchTime.now().uptimeNanoseconds
                    defer { clock.record("search files (beside the other pages)", since: begin) }
                    let export = try finishSearch(&parsed)
                    try export.write(into: writer)
                    try documentFiles.finish()
                    searchState = Self.encodeSearchState(export.export.patchState)
                }
            } catch {
                _ = try? others.wait()
                throw error
            }
            clock.lap(.render)
            let pageCount = try others.wait()
            try pages.finish()
            try write(assets: assets, isPage: index.isPage, into: writer)
            let manifest = makeManifest(locations: locations, files: parsed.files, index: index, diagnostics: diagnostics, assets: assets,
                                        fingerprint: fingerprint, startTime: startTime, entriesFolder: entriesFolder, knownIDs: knownIDs,
                                        searchState: searchState)
            try writer.write(BuildManifest.fileName, Data(manifest.encoded()))
            try writer.commit()
            clock.lap(.write)
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            let summary = Summary(entries: index.entries.count, pages: pageCount, files: writer.writtenFiles, bytes: writer.writtenBytes,
                                  seconds: seconds, output: writer.output, timings: clock.timings, incremental: nil,
                                  cleanBuildReason: cleanBuildReason)
            // The index and the manifest's records are hundreds of thousands of allocations; they
            // are freed on a thread of their own, so the caller (often a process about to exit)
            // does not wait for that.
            BackgroundRelease.release([consume index, consume manifest, parsed.files])
            return summary
        } catch {
            abandon()
            throw error
        }
    }

    // MARK: load

    /// What the build reads before the entries: where they are, the check report and the theme.
    struct Input {
        let locations: [EntryLocation]
        let locatorDiagnostics: [Diagnostic]
        let checkReport: SiteCheckReport?
        /// The theme's files, sorted by site-relative path.
        let assets: [ThemeFile]
    }

    func load() throws -> Input {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: options.entriesDirectory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw SiteBuildError(step: .load, path: display(options.entriesDirectory), message: "no entries folder here")
        }
        let (locations, locatorDiagnostics) = try EntryLocator.locate([options.entriesDirectory], workingDirectory: options.workingDirectory)
        let checkReport = try loadCheckReport()
        let assets = try listAssets()
        return Input(locations: locations, locatorDiagnostics: locatorDiagnostics, checkReport: checkReport, assets: assets)
    }

    static func read(_ path: String, limit: Int, display: String) -> Result<Data, SiteBuildError> {
        LimitedFileRead.read(path, limit: limit).mapError { SiteBuildError(step: .load, path: display, message: $0.message) }
    }

    func loadCheckReport() throws -> SiteCheckReport? {
        let path = options.checkReportPath
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let data = try Self.read(path, limit: KnowledgeBase.maximumReadSize, display: display(path)).get()
        do {
            return try JSONDecoder().decode(SiteCheckReport.self, from: data)
        } catch {
            throw SiteBuildError(step: .load, path: display(path), message: "not a check report (see docs/site.md): \(Self.describe(error))")
        }
    }

    static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            return "missing '\(key.stringValue)' at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "wrong type at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        case DecodingError.dataCorrupted(let context):
            return context.debugDescription
        default:
            return "\(error)"
        }
    }

    /// The theme's files, site-relative and sorted: the built-in ones, and every file under the
    /// theme folder (hidden ones skipped) in place of the built-in file of its path.
    func listAssets() throws -> [ThemeFile] {
        var files = Dictionary(uniqueKeysWithValues: BuiltInTheme.paths.map { ($0, ThemeFile(path: $0, override: nil)) })
        guard let root = options.assetsDirectory else { return files.values.sorted { $0.path < $1.path } }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw SiteBuildError(step: .load, path: display(root), message: "the theme folder is missing (it is named by kb.yaml's 'theme' or by KB_SITE; fix the name, or remove it to use the built-in theme)")
        }
        func walk(_ relative: String) throws {
            let folder = relative.isEmpty ? root : (root as NSString).appendingPathComponent(relative)
            let names: [String]
            do { names = try FileManager.default.contentsOfDirectory(atPath: folder) } catch {
                throw SiteBuildError(step: .load, path: display(folder), message: "cannot list the folder: \(error.localizedDescription)")
            }
            for name in names.sorted() where !name.hasPrefix(".") {
                let path = relative.isEmpty ? name : relative + "/" + name
                let full = (root as NSString).appendingPathComponent(path)
                var isFolder: ObjCBool = false
                let exists = FileManager.default.fileExists(atPath: full, isDirectory: &isFolder)
                if exists && isFolder.boolValue { try walk(path) } else { files[path] = ThemeFile(path: path, override: full) }
            }
        }
        try walk("")
        return files.values.sorted { $0.path < $1.path }
    }

    // MARK: parse

    /// What the clean build keeps of the entries once they are parsed.
    struct Parsed {
        /// The loaded knowledge base: items (without their parsed entries), lint diagnostics and known ids.
        let knowledgeBase: LoadedKnowledgeBase
        /// Per entry file (location order).
        var files: [FileRecord]
        /// The parsed entries' listings (location order).
        var listings: [SiteListing]
        /// Locations whose pages wait for the index (they link related entries).
        var deferred: [Int]
        /// The search index so far; nil when a batch's ids did not follow the previous batch's
        /// (see `finishSearch`).
        var search: SearchWebExportBuilder?
        /// Time spent adding the batches to the search index (beside the parse step).
        var searchNanoseconds: UInt64 = 0
    }

    /// An entry file's stamps (taken before it was read), scenario file, and id and path when it
    /// parsed (what the build manifest needs), and for a page that waits for the index the
    /// checksum of the source it was parsed from (the second reading must find the same).
    struct FileRecord: Sendable {
        var stamps: (folder: BuildManifest.FileStamp, entry: BuildManifest.FileStamp)
        var scenario: (file: String?, stamp: BuildManifest.FileStamp) = (nil, .missing)
        var entry: (id: String, path: String)? = nil
        var sourceChecksum: UInt64 = 0
    }

    /// What the build makes of each entry on the thread that parsed it.
    struct EntryExtra: Sendable {
        var file: FileRecord
        var scenarioError: SiteBuildError?
        var listing: SiteListing?
        var document: SearchDocument?
        /// Its page was not rendered: it waits for the index.
        var deferred = false
    }

    /// Reads, parses and lints the entries in batches through `KnowledgeBaseLoader` (Markdown
    /// rendered to HTML); for each entry, on the thread that parsed it, reads its scenario file,
    /// renders and writes its page (unless it links related entries) and makes its listing and
    /// search document; adds each batch's documents to the search index.
    func parseAndRenderEntries(_ locations: [EntryLocation], input: Input, glossary: Glossary, checkReport: SiteCheckReport?,
                               base: BaseURL, pages: SiteWriter.Pages,
                               documentFiles: SiteSearchExport.DocumentFiles?) throws -> Parsed {
        let loader = KnowledgeBaseLoader(workingDirectory: options.workingDirectory,
                                         parser: EntryParser(markdownOptions: .init(renderHTML: true, unsafeHTML: options.unsafeHTML)),
                                         linter: .standard)
        let checks = checkReport?.latestByEntry() ?? [:]
        // Entry pages rendered before the index exists: it is asked nothing but related entries,
        // and pages that link some are rendered later.
        let renderer = EntryPageRenderer(index: try SiteIndex.make([]), base: base, settings: options.settings)
        let makesDocuments = documentFiles != nil
        let hook = EntryHook<(folder: BuildManifest.FileStamp, entry: BuildManifest.FileStamp), EntryExtra>(
            beforeReading: { location in
                (BuildManifest.FileStamp(path: PathText.folder(of: location.file)), BuildManifest.FileStamp(path: location.file))
            },
            afterParsing: { [self] item, stamps in
                var extra = EntryExtra(file: FileRecord(stamps: stamps))
                guard let entry = item.entry else { return extra }
                let scenario = readScenario(of: entry, at: item.location)
                extra.file.scenario = (scenario.file, scenario.stamp)
                extra.file.entry = (entry.id, entry.path)
                let content: (name: String, text: String)?
                switch scenario.content {
                case .success(let value): content = value
                case .failure(let error): extra.scenarioError = error; return extra
                }
                let siteEntry = SiteEntry(entry: entry, scenario: content, check: checks.isEmpty ? nil : checks[entry.id])
                extra.listing = SiteListing(siteEntry)
                if makesDocuments { extra.document = SearchDocument(entry: entry, url: SitePaths.entry(entry.id)) }
                // An id that cannot be a file name fails the index step; its page is not written.
                if SitePaths.isPlainID(entry.id) {
                    if entry.metadata.related.isEmpty {
                        let buffer = pages.take()
                        renderer.render(siteEntry, into: &buffer.html)
                        pages.add(siteEntry.path, buffer, position: 0)
                    } else {
                        extra.deferred = true
                        extra.file.sourceChecksum = ContentChecksum.of(entry.source.bytes[...])
                    }
                }
                return extra
            })
        var files: [FileRecord] = [], listings: [SiteListing] = [], deferred: [Int] = []
        files.reserveCapacity(locations.count)
        listings.reserveCapacity(locations.count)
        let search = documentFiles.map { files in
            SearchFeed(SearchWebExportBuilder(glossary: SearchGlossary(glossary), framing: .script,
                                              documentSink: { d, data in files.add(d, data) },
                                              postingsWriter: { kind, k, pieces in files.write(kind, k, pieces) }))
        }
        // Each entry is linted as it is parsed and its parsed form let go.
        let knowledgeBase = try loader.load(locations, locatorDiagnostics: input.locatorDiagnostics,
                                            options: .init(lints: true, keepsEntries: false),
                                            hook: hook, batchSize: options.batchSize) { extras, range in
            for (k, extra) in zip(range, extras) {
                if let error = extra.scenarioError { throw error }
                files.append(extra.file)
                if let listing = extra.listing { listings.append(listing) }
                if extra.deferred { deferred.append(k) }
            }
            progress(.parse, range.upperBound, locations.count)
            guard let search else { return }
            // In id order within the batch (they are when the ids are their folders' names).
            let documents = extras.compactMap(\.document)
            let order = documents.indices.sorted { a, b in
                documents[a].id == documents[b].id ? a < b : documents[a].id.utf8.lexicographicallyPrecedes(documents[b].id.utf8)
            }
            search.add(order.map { documents[$0] })
        }
        let (builder, searchNanoseconds) = search?.finish() ?? (nil, 0)
        return Parsed(knowledgeBase: knowledgeBase, files: files, listings: listings, deferred: deferred, search: builder,
                      searchNanoseconds: searchNanoseconds)
    }

    /// Adds the batches' documents to the search index on a thread of its own, while the next
    /// batch is parsed: at most one batch waits.
    final class SearchFeed: Sendable {
        /// The builder (nil once a batch did not follow the ones before) and the time spent adding.
        private let state: Mutex<(builder: SearchWebExportBuilder?, nanoseconds: UInt64)>
        private let queue = DispatchQueue(label: "kb.site.search-batches")
        private let slot = DispatchSemaphore(value: 1)

        init(_ builder: sending SearchWebExportBuilder) { state = Mutex((builder, 0)) }

        /// Queues a batch, in id order; once a batch does not follow the ones before, the
        /// builder is dropped and later batches are ignored.
        func add(_ documents: [SearchDocument]) {
            slot.wait()
            queue.async { [self] in
                defer { slot.signal() }
                state.withLock { state in
                    guard state.builder != nil else { return }
                    let begin = DispatchTime.now().uptimeNanoseconds
                    if !state.builder!.add(documents) { state.builder = nil }
                    state.nanoseconds += DispatchTime.now().uptimeNanoseconds - begin
                }
            }
        }

        /// Waits for the queued batches; the builder (nil if a batch was out of order) and the
        /// time spent adding.
        func finish() -> (SearchWebExportBuilder?, UInt64) {
            queue.sync {}
            return state.withLock { state in (state.builder.take(), state.nanoseconds) }
        }
    }

    /// Finishes the search index of the parsed entries. Their batches come in id order: a build
    /// whose entries lint and index has ids that are their folders' names (lowercase ASCII
    /// words and hyphens), and the folders are read in name order. So a batch out of order
    /// means entries the index step refuses; should one come anyway, the build stops here
    /// rather than write a search index that misses entries.
    func finishSearch(_ parsed: inout Parsed) throws -> SiteSearchExport {
        guard let builder = parsed.search.take() else {
            throw SiteBuildError(step: .index, path: display(options.entriesDirectory),
                                 message: "the entries' ids are not in the order of their folders' names")
        }
        return SiteSearchExport(export: builder.finish())
    }

    /// Reads the entries at `positions` again (the pages that link related entries), in batches,
    /// and hands each batch's parsed entries to `body`. An entry whose bytes are not those read the first time fails the build: the
    /// site would mix two versions of it.
    func readAgain(_ positions: [Int], of locations: [EntryLocation], files: [FileRecord],
                   body: ([(position: Int, entry: Entry)]) throws -> Void) throws {
        let loader = KnowledgeBaseLoader(workingDirectory: options.workingDirectory,
                                         parser: EntryParser(markdownOptions: .init(renderHTML: true, unsafeHTML: options.unsafeHTML)))
        var start = 0
        while start < positions.count {
            let batch = Array(positions[start..<min(positions.count, start + options.batchSize)])
            let loaded = loader.load(batch.map { locations[$0] })
            var entries: [(position: Int, entry: Entry)] = []
            for (k, item) in zip(batch, loaded.items) {
                guard let entry = item.entry, ContentChecksum.of(entry.source.bytes[...]) == files[k].sourceChecksum else {
                    throw SiteBuildError(step: .parse, path: display(locations[k].file),
                                         message: "the entry changed while the site was being built; run kb build again")
                }
                entries.append((k, entry))
            }
            try body(entries)
            start += batch.count
        }
    }

    /// Renders the pages of the entries at `positions` (those that link related entries) now
    /// that the index exists, reading the entries again.
    func renderDeferredPages(_ positions: [Int], of locations: [EntryLocation], files: [FileRecord], index: SiteIndex,
                             checkReport: SiteCheckReport?, base: BaseURL, pages: SiteWriter.Pages) throws {
        let renderer = EntryPageRenderer(index: index, base: base, settings: options.settings)
        let checks = checkReport?.latestByEntry() ?? [:]
        try readAgain(positions, of: locations, files: files) { entries in
            let made = Parallel.map(entries.count) { k -> SiteBuildError? in
                let (position, entry) = entries[k]
                let scenario: (name: String, text: String)?
                do {
                    scenario = try readScenario(of: entry, at: locations[position]).content.get()
                } catch {
                    return error as? SiteBuildError ?? SiteBuildError(step: .parse, path: display(locations[position].file), message: "\(error)")
                }
                let siteEntry = SiteEntry(entry: entry, scenario: scenario, check: checks.isEmpty ? nil : checks[entry.id])
                let buffer = pages.take()
                renderer.render(siteEntry, into: &buffer.html)
                pages.add(siteEntry.path, buffer, position: 0)
                return nil
            }
            if let error = made.compactMap({ $0 }).first { throw error }
        }
    }

    /// The scenario file read for an entry: its absolute path and stamp (taken before it was
    /// read) when there is one, and its name and text.
    struct ScenarioFile: Sendable {
        var file: String? = nil
        var stamp: BuildManifest.FileStamp = .missing
        var content: Result<(name: String, text: String)?, SiteBuildError> = .success(nil)
    }

    /// The entry's scenario file (`scenario:` or `scenario.feature`), when it exists inside the
    /// entry folder. Paths that leave the folder are not read (lint reports them).
    func readScenario(of entry: Entry, at location: EntryLocation) -> ScenarioFile {
        let folder = PathText.folder(of: location.file)
        let name = entry.metadata.scenario ?? "scenario.feature"
        guard !name.hasPrefix("/") else { return ScenarioFile() }
        // Most entries have no `scenario.feature`: when nothing by that name is in the folder (and
        // the folder path has no `.` or `..` part to resolve), one `lstat` says so, without
        // standardizing the path (which resolves symbolic links one component at a time).
        if entry.metadata.scenario == nil, !ByteText.contains(folder, "/.") {
            var info = stat()
            if lstat(folder + "/" + name, &info) != 0 { return ScenarioFile() }
        }
        let path = ((folder as NSString).appendingPathComponent(name) as NSString).standardizingPath
        guard path.hasPrefix(folder + "/"), FileManager.default.fileExists(atPath: path),
              EntryLocator.escapes(file: path, root: folder) == nil else { return ScenarioFile() }
        let shown = display(path)
        let stamp = BuildManifest.FileStamp(path: path)
        let content = Self.read(path, limit: Linter.maximumEntrySize, display: shown).flatMap { data -> Result<(name: String, text: String)?, SiteBuildError> in
            guard let text = String(validating: data, as: UTF8.self) else {
                return .failure(SiteBuildError(step: .load, path: shown, message: "the scenario file is not valid UTF-8"))
            }
            return .success((name, text))
        }
        return ScenarioFile(file: path, stamp: stamp, content: content)
    }

    // MARK: validate

    /// Reports the lint diagnostics of the load (every entry linted once, as it was parsed);
    /// throws when there are errors (every parsed item had an entry then). Returns the diagnostics (warnings only) and the ids lint knew.
    func validate(_ knowledgeBase: LoadedKnowledgeBase) throws -> ([Diagnostic], Set<String>) {
        // Linted as the entries were loaded (the same rules and order as linting them after).
        let diagnostics = knowledgeBase.lintDiagnostics ?? []
        progress(.validate, knowledgeBase.items.count, knowledgeBase.items.count)
        try reportAndStopOnErrors(diagnostics)
        return (diagnostics, knowledgeBase.knownIDs)
    }

    /// Reports the diagnostics (sorted) and throws when there are errors.
    func reportAndStopOnErrors(_ diagnostics: some Sequence<Diagnostic>) throws {
        var errors: [Diagnostic] = []
        for diagnostic in diagnostics {
            report(diagnostic)
            if diagnostic.severity == .error { errors.append(diagnostic) }
        }
        if let first = errors.first {
            let files = Set(errors.map(\.path)).count
            throw SiteBuildError(step: .validate, path: first.path,
                                 message: "\(errors.count) lint \(errors.count == 1 ? "error" : "errors") in \(files) \(files == 1 ? "file" : "files"); the site was not written (run kb lint)")
        }
    }

    // MARK: manifest

    /// The manifest of a clean build: per entry file (sorted by path) its stamps, scenario file,
    /// listing and diagnostics.
    func makeManifest(locations: [EntryLocation], files: [FileRecord], index: SiteIndex,
                      diagnostics: [Diagnostic], assets: [ThemeFile], fingerprint: String, startTime: Int64,
                      entriesFolder: BuildManifest.FileStamp, knownIDs: Set<String>,
                      searchState: [UInt8]) -> BuildManifest {
        let byFolder = Self.diagnosticsByFolder(diagnostics)
        var records: [BuildManifest.EntryRecord] = []
        records.reserveCapacity(locations.count)
        for k in locations.indices {
            guard let entry = files[k].entry, let position = index.positionByID[entry.id] else { continue }
            records.append(BuildManifest.EntryRecord(
                file: relativePath(locations[k].file), folder: files[k].stamps.folder.settled(before: startTime),
                entry: files[k].stamps.entry.settled(before: startTime),
                scenario: files[k].scenario.file.map(relativePath), scenarioStamp: files[k].scenario.stamp.settled(before: startTime),
                listing: index.entries[position], diagnostics: byFolder[PathText.folder(of: entry.path)] ?? []))
        }
        records.sort { $0.file < $1.file }
        return BuildManifest(fingerprint: fingerprint, entriesFolder: entriesFolder.settled(before: startTime),
                             knownIDs: knownIDs.sorted(), entries: records, searchState: searchState)
    }

    // MARK: render

    enum Page: Hashable {
        case home, symptoms, notFound, sitemap, feed, model
        case entry(Int)
        /// A tag's list, page (1-based).
        case tag(Int, page: Int)
        case language(Int, page: Int)
        case symptomGroup(Int, page: Int)
    }

    /// Every page but the entries' (which the clean build renders as it parses them).
    static func pagesBesideEntries(of index: SiteIndex) -> [Page] {
        var list: [Page] = [.home, .symptoms, .notFound, .sitemap, .feed]
        if index.hasModelPage { list.append(.model) }
        return list + listPages(of: index)
    }

    /// The pages of the tag and language lists and of the symptom groups.
    static func listPages(of index: SiteIndex) -> [Page] {
        var list: [Page] = []
        for (k, group) in index.tags.enumerated() { for page in 1...group.pageCount { list.append(.tag(k, page: page)) } }
        for (k, group) in index.languages.enumerated() { for page in 1...group.pageCount { list.append(.language(k, page: page)) } }
        for (k, group) in index.symptoms.enumerated() where group.pageCount > 0 {
            for page in 1...group.pageCount { list.append(.symptomGroup(k, page: page)) }
        }
        return list
    }

    /// The site-relative path of a page.
    static func path(of page: Page, in index: SiteIndex) -> String {
        switch page {
        case .home: SitePaths.home
        case .symptoms: SitePaths.symptoms
        case .notFound: SitePaths.notFound
        case .sitemap: SitePaths.sitemap
        case .feed: SitePaths.feed
        case .model: SitePaths.navigationBarModel
        case .entry(let i): index.entries[i].path
        case .tag(let k, let page): index.tags[k].path(page: page)
        case .language(let k, let page): index.languages[k].path(page: page)
        case .symptomGroup(let k, let page): index.symptoms[k].path(page: page)
        }
    }

    /// Renders `pages` on all cores, each into a buffer taken from `buffers` and handed to
    /// `done` with its path and position in `pages`. `entry(i)` is the parsed entry of the entry
    /// page `.entry(i)` (asked only for the entry pages in `pages`).
    /// `listed` are the entries whose lines the list pages among `pages` show (nil: all).
    func render(_ pages: [Page], of index: SiteIndex, entry: @escaping @Sendable (Int) -> SiteEntry, base: BaseURL,
                listed: [Int]? = nil, buffers: SiteWriter.Pages? = nil,
                done: @escaping @Sendable (String, SiteWriter.Pages.Buffer, Int) -> Void) {
        let settings = options.settings
        let entryRenderer = EntryPageRenderer(index: index, base: base, settings: settings)
        let makesNotFound = pages.contains { if case .notFound = $0 { return true } else { return false } }
        let listRenderer = IndexPageRenderer(index: index, base: base, items: EntryListItems(index: index, positions: listed), settings: settings,
                                             stylesheet: makesNotFound ? themeStylesheet() : "")
        let feedRenderer = FeedRenderer(index: index, base: base, settings: settings)
        let count = pages.count
        let next = Counter(), rendered = Counter()
        DispatchQueue.concurrentPerform(iterations: max(1, min(count, ProcessInfo.processInfo.activeProcessorCount))) { _ in
            while true {
                let position = next.increment() - 1
                guard position < count else { break }
                let buffer = buffers?.take() ?? SiteWriter.Pages.Buffer()
                let page = pages[position]
                switch page {
                case .home: listRenderer.home(into: &buffer.html)
                case .symptoms: listRenderer.symptoms(into: &buffer.html)
                case .notFound: listRenderer.notFound(into: &buffer.html)
                case .sitemap: feedRenderer.sitemap(into: &buffer.html)
                case .feed: feedRenderer.feed(into: &buffer.html)
                case .model: buffer.html.raw(ModelPageRenderer(index: index, base: base, settings: settings).render())
                case .entry(let i): entryRenderer.render(entry(i), into: &buffer.html)
                case .tag(let k, let page): listRenderer.tagPage(index.tags[k], page: page, into: &buffer.html)
                case .language(let k, let page): listRenderer.languagePage(index.languages[k], page: page, into: &buffer.html)
                case .symptomGroup(let k, let page): listRenderer.symptomPage(index.symptoms[k], page: page, into: &buffer.html)
                }
                done(Self.path(of: page, in: index), buffer, position)
                progress(.render, rendered.increment(), count)
            }
        }
    }

    /// The theme's stylesheet as text: the theme folder's `assets/style.css` in place of the
    /// built-in one (404.html inlines it). A theme file that cannot be read fails the build
    /// when the assets are written; here the built-in one stands in.
    func themeStylesheet() -> String {
        if let folder = options.assetsDirectory,
           let data = FileManager.default.contents(atPath: (folder as NSString).appendingPathComponent(SitePaths.stylesheet)) {
            return String(decoding: data, as: UTF8.self)
        }
        return String(decoding: BuiltInTheme.files[SitePaths.stylesheet] ?? [], as: UTF8.self)
    }

    // MARK: write

    func write(assets: [ThemeFile], isPage: (String) -> Bool, into writer: SiteWriter) throws {
        try writer.prepareFolders(for: assets.map(\.path))
        for asset in assets {
            let source = asset.override ?? "built-in theme: " + asset.path
            if isPage(asset.path) || asset.path == SitePaths.marker {
                throw SiteBuildError(step: .write, path: display(source), message: "a static file may not replace the generated \(asset.path)")
            }
            let data: Data
            if let file = asset.override {
                data = try Self.read(file, limit: 256 << 20, display: display(file)).mapError {
                    SiteBuildError(step: .write, path: $0.path, message: $0.message)
                }.get()
            } else {
                data = Data(BuiltInTheme.files[asset.path]!)
            }
            // Scripts go out without their comment lines and indentation (ScriptCompaction).
            if asset.path.hasSuffix(".js"), let script = String(data: data, encoding: .utf8) {
                try writer.write(asset.path, Data(ScriptCompaction.compact(script).utf8))
            } else {
                try writer.write(asset.path, data)
            }
        }
    }

    func display(_ path: String) -> String {
        EntryLocator.displayPath(path, workingDirectory: options.workingDirectory)
    }
}

/// Wall-clock time per build step: `lap` closes the step that ran since the previous lap;
/// `record` adds work that ran beside the steps, on its own thread.
final class StepClock: Sendable {
    private struct State {
        var last: UInt64
        var entries: [(step: String, seconds: Double)] = []
    }
    private let state: Mutex<State>

    init(start: UInt64) { state = Mutex(State(last: start)) }

    func lap(_ step: SiteBuildStep) {
        let now = DispatchTime.now().uptimeNanoseconds
        state.withLock { state in
            state.entries.append((step.rawValue, Double(now - state.last) / 1e9))
            state.last = now
        }
    }

    func record(_ name: String, since begin: UInt64) {
        let now = DispatchTime.now().uptimeNanoseconds
        state.withLock { $0.entries.append((name, Double(now - begin) / 1e9)) }
    }

    func record(_ name: String, nanoseconds: UInt64) {
        state.withLock { $0.entries.append((name, Double(nanoseconds) / 1e9)) }
    }

    var timings: [(step: String, seconds: Double)] { state.withLock { $0.entries } }
}

/// The error of the lowest position among work done in parallel (the one a sequential run would hit first).
final class FirstFailure: Sendable {
    private let failure = Mutex<(position: Int, error: SiteBuildError)?>(nil)

    func record(_ position: Int, _ error: SiteBuildError) {
        failure.withLock { failure in
            if failure == nil || position < failure!.position { failure = (position, error) }
        }
    }

    var first: SiteBuildError? { failure.withLock { $0?.error } }
}
