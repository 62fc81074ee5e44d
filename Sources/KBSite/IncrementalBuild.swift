import Foundation
import Dispatch
import Synchronization
import KBCore
import KBSearch
import KBScenarios
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What an incremental build found and did (`SiteBuilder.Summary.incremental`).
public struct IncrementalBuildReport: Sendable, Equatable {
    /// Entries whose file or scenario changed since the last build.
    public let changedEntries: Int
    /// Pages made again (whether or not their bytes changed).
    public let renderedPages: Int
    /// Files written (their bytes changed) and removed.
    public let writtenFiles: Int
    public let removedFiles: Int
}

extension SiteBuilder {
    /// An entry whose file, scenario or folder changed since the last build, parsed again.
    struct ChangedEntry {
        let position: Int
        let record: BuildManifest.EntryRecord
        let siteEntry: SiteEntry
        let source: Entry
    }

    /// The reason a build cannot be incremental; the build is then a clean one.
    struct CleanBuildNeeded: Error { let reason: String }

    /// Rebuilds only what the changes since the last build touch (docs/site.md, "Incremental
    /// builds"), writing into the existing site in place: each file is replaced atomically, and the
    /// manifest is removed first and written last, so an interrupted build leaves a site whose
    /// next build is a clean one. Throws `CleanBuildNeeded` when the last build's manifest does not
    /// apply (none, another fingerprint, entries added, removed or renamed, an id changed, the
    /// search export cannot be patched); lint errors and write failures throw as in a clean build.
    func buildIncrementally(base: BaseURL, start: UInt64, clock: StepClock) throws -> Summary {
        let output = URL(fileURLWithPath: options.outputDirectory).standardizedFileURL.resolvingSymlinksInPath().path
        let startTime = BuildManifest.FileStamp.now
        // The fingerprint of this build (options, theme, glossary, check report, kb) is made on a
        // thread of its own while the manifest is read.
        let glossaryPath = (options.entriesDirectory as NSString).appendingPathComponent(Glossary.fileName)
        let fingerprint = BackgroundTask { [self] in
            BuildFingerprint.make(options: options, assets: try listAssets(), glossaryPath: glossaryPath)
        }
        guard FileManager.default.fileExists(atPath: (output as NSString).appendingPathComponent(SitePaths.marker)),
              let (readManifest, manifestBlocksRead) = BuildManifest.read(output: output) else {
            throw CleanBuildNeeded(reason: "no manifest of a previous build")
        }
        var manifest = readManifest
        guard manifest.fingerprint == (try fingerprint.wait()) else {
            throw CleanBuildNeeded(reason: "options, settings, theme, glossary, check report or kb changed")
        }
        // The entry files: those of the last build while the entries folder is as it was (no entry
        // folder added, removed or renamed); else located again, and they must be the same files.
        let entriesFolder = BuildManifest.FileStamp(path: options.entriesDirectory)
        // The records are changed in place below: the manifest lets go of its reference, so
        // replacing a record does not copy all of them.
        var records = manifest.entries
        manifest.entries = []
        var sortedKnownIDs = manifest.knownIDs
        if entriesFolder != manifest.entriesFolder {
            let (found, locatorDiagnostics) = try EntryLocator.locate([options.entriesDirectory], workingDirectory: options.workingDirectory)
            let files = found.map { relativePath($0.file) }.sorted()
            guard locatorDiagnostics.isEmpty, files == records.map(\.file) else { throw CleanBuildNeeded(reason: "entries were added, removed or renamed") }
            sortedKnownIDs = EntryLocator.knownIDs(for: found).sorted()
        }

        // Which entries may have changed: any stamp of the folder, the entry file or the scenario file.
        let folder = Glibc.open(options.entriesDirectory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { throw CleanBuildNeeded(reason: "the entries folder cannot be opened") }
        defer { close(folder) }
        // (Each record's fields are read in place: a copy of a record retains all its strings.)
        let touched = Parallel.map(records.count) { [records] k in
            BuildManifest.FileStamp(in: folder, records[k].file) != records[k].entry
                || BuildManifest.FileStamp(in: folder, PathText.folder(of: records[k].file)) != records[k].folder
                || records[k].scenario.map { BuildManifest.FileStamp(in: folder, $0) != records[k].scenarioStamp } == true
        }
        let workingDirectory = (options.workingDirectory as NSString).standardizingPath
        let suspects = touched.indices.filter { touched[$0] }.map { ($0, location(ofRelative: records[$0].file, workingDirectory: workingDirectory)) }
        clock.lap(.load)
        // More than a few changed entries (a checkout, a rewrite): a clean build is as quick.
        guard suspects.count <= max(16, records.count / 20) else { throw CleanBuildNeeded(reason: "\(suspects.count) entries changed") }

        // Parse them again (stamps first: a change while the file is read is seen next time).
        let parser = EntryParser(markdownOptions: .init(renderHTML: true, unsafeHTML: options.unsafeHTML))
        let checks = try loadCheckReport()?.latestByEntry() ?? [:]
        var changed: [ChangedEntry] = []
        var changedItems: [KnowledgeBase.Item] = []
        for (k, location) in suspects {
            var record = records[k]
            record.folder = BuildManifest.FileStamp(path: PathText.folder(of: location.file)).settled(before: startTime)
            record.entry = BuildManifest.FileStamp(path: location.file).settled(before: startTime)
            let bytes = try Self.read(location.file, limit: KnowledgeBase.maximumReadSize, display: location.displayPath).get()
            let result = parser.parse(bytes: [UInt8](bytes), path: location.displayPath, folderName: location.folderName)
            guard let entry = result.entry else { throw CleanBuildNeeded(reason: "an entry cannot be parsed") }
            guard entry.id == record.listing.id else { throw CleanBuildNeeded(reason: "an entry's id changed") }
            let scenario = readScenario(of: entry, at: location)
            record.scenario = scenario.file.map(relativePath)
            record.scenarioStamp = scenario.stamp.settled(before: startTime)
            let siteEntry = SiteEntry(entry: entry.withoutSource(), scenario: try scenario.content.get(), check: checks[entry.id])
            record.listing = SiteListing(siteEntry)
            changedItems.append(KnowledgeBase.Item(location: location, entry: entry, diagnostics: result.diagnostics, size: bytes.count))
            changed.append(ChangedEntry(position: k, record: record, siteEntry: siteEntry, source: entry))
        }
        clock.lap(.parse)

        // The search files are patched on a thread of their own from here on, while the
        // entries are linted and the pages render (documents are numbered in id order), and
        // written there once the lint found no error (`writeSearchFiles`; never when it did,
        // nor when the patch fails: the site is then untouched for the clean build that follows).
        let writeSearchFiles = PendingDecision()
        let search: BackgroundTask<(written: Int, bytes: Int, state: SearchWebPatch.State?)>? = changed.isEmpty ? nil : {
            // (The ids are taken here, as `records` changes below; the rest is done on that thread.)
            let ids = records.map(\.listing.id)
            let searchState = manifest.searchState
            return BackgroundTask { [self, changed] in
                let begin = DispatchTime.now().uptimeNanoseconds
                defer { clock.record("search files patched and written (beside lint and render)", since: begin) }
                let order = SearchIndex.documentOrder(count: ids.count, id: { ids[$0] })
                var number = [Int](repeating: 0, count: ids.count)
                for (d, k) in order.enumerated() { number[k] = d }
                let numbered = changed.map { item in (entry: item, document: number[item.position]) }
                let state = Self.decodeSearchState(searchState)
                let (files, newState) = try patchSearch(changed: numbered, documentCount: ids.count, state: state, output: output)
                guard writeSearchFiles.wait() else { return (0, 0, newState) }
                // From here on the site changes: without a manifest, an interrupted build is followed by a clean one.
                let site = IncrementalSiteFiles(output: output)
                try site.removeManifest()
                // The patch hands over only files whose bytes change.
                for (path, bytes) in files { try site.replace(path, with: bytes, force: true) }
                return (site.written, site.writtenBytes, newState)
            }
        }()
        defer {
            writeSearchFiles.decide(false)
            _ = try? search?.wait()
        }

        // The site index is made on a thread of its own while the changed entries are linted: it
        // needs only the listings, which are final once the changed entries are parsed.
        let siteIndex: BackgroundTask<SiteIndex>? = changed.isEmpty ? nil : {
            var listings = records.map(\.listing)
            for item in changed { listings[item.position] = item.record.listing }
            let files = records.map(\.file)
            return BackgroundTask { [listings, files] in
                // (The file of an id is looked for only to name it in an error.)
                try SiteIndex.make(listings, checks: checks, pathOf: { id in listings.firstIndex { $0.id == id }.map { files[$0] } ?? id })
            }
        }()

        // Lint the changed entries; the others' diagnostics are those of the last build.
        // Lint asks the known ids only whether the ids `related` names exist: those of the changed
        // entries, looked up in the sorted list.
        let named = Set(changedItems.flatMap { $0.entry?.metadata.related ?? [] })
        let knownIDs = named.filter { Self.sortedContains(sortedKnownIDs, $0) }
        let fresh = Linter.standard.lint(changedItems, knownIDs: knownIDs, progress: { progress(.validate, $0, $1) })
        let freshByFolder = Self.diagnosticsByFolder(fresh)
        let previousListings = Dictionary(uniqueKeysWithValues: changed.map { ($0.position, records[$0.position].listing) })
        for item in changed {
            var record = item.record
            record.diagnostics = freshByFolder[PathText.folder(of: item.source.path)] ?? []
            records[item.position] = record
        }
        // (Each record's diagnostics are in order, and so are the records, by file: reported as
        // they are, each record's read in place, as a copy of a record retains all its strings.)
        if Self.diagnosticsInOrder(records) {
            try reportAndStopOnErrors(records.indices.lazy.flatMap { records[$0].diagnostics })
        } else {
            try reportAndStopOnErrors(Linter.sorted(records.flatMap(\.diagnostics)))
        }
        writeSearchFiles.decide(true)
        clock.lap(.validate)

        let site = IncrementalSiteFiles(output: output)
        // Every entry that may have changed was parsed again (or the build is a clean one).
        if changed.isEmpty && entriesFolder == manifest.entriesFolder {
            clock.lap(.write)
            let report = IncrementalBuildReport(changedEntries: 0, renderedPages: 0, writtenFiles: 0, removedFiles: 0)
            return summary(entries: records.count, pages: 0, site: site, report: report, start: start, clock: clock)
        }
        // The manifest's entry records are final: encoded beside the rest.
        let finalRecords = records
        let touchedRecords = Set(suspects.map(\.0))
        let manifestBlocks = BackgroundTask {
            BuildManifest.encodedBlocks(finalRecords, previous: manifestBlocksRead, changed: touchedRecords)
        }
        // Everything is made in memory first: when the search export cannot be patched, the
        // site is still untouched for the clean build that follows.
        var rendered: [(path: String, bytes: [UInt8])] = []
        var plan = PagePlan(pages: [], entries: [:], folders: [])
        var index: SiteIndex? = nil
        var fileByID: [String: String]? = nil
        // (The patch state as the last build left it, unless the search files were patched.)
        var searchState = manifest.searchState
        if !changed.isEmpty {
            let newIndex = try siteIndex!.wait()
            index = newIndex
            clock.lap(.index)
            plan = try pagePlan(index: newIndex, old: previousListings, changed: changed,
                                fileOf: { id in
                                    // (Asked only for entries that list a changed one as related: made on the first call.)
                                    if fileByID == nil {
                                        fileByID = Dictionary(records.map { ($0.listing.id, $0.file) }, uniquingKeysWith: { first, _ in first })
                                    }
                                    return fileByID![id]
                                }, checks: checks)
            let siteEntries = plan.entries
            let pages = RenderedPages(count: plan.pages.count)
            render(plan.pages, of: newIndex, entry: { siteEntries[$0]! }, base: base, listed: Self.listed(on: plan.pages, of: newIndex)) { path, buffer, position in
                pages.set(position, path: path, bytes: buffer.html.bytes)
            }
            rendered = pages.all
            clock.lap(.render)
            let searchWritten = try search!.wait()
            searchState = Self.encodeSearchState(searchWritten.state)
            site.count(written: searchWritten.written, bytes: searchWritten.bytes)
        }
        // From here on the site changes: without a manifest, an interrupted build is followed by a clean one.
        try site.removeManifest()
        if let index {
            try site.createFolders(index.pageFolders)
            try site.replace(all: rendered)
            try site.removeStale(in: plan.folders, keeping: Set(rendered.map(\.path)), allPages: index)
        }
        var newManifest = manifest
        newManifest.entries = records
        newManifest.entriesFolder = entriesFolder.settled(before: startTime)
        newManifest.knownIDs = sortedKnownIDs
        newManifest.searchState = searchState
        try site.writeManifest(newManifest.encodedParts(blocks: try manifestBlocks.wait()))
        clock.lap(.write)
        let report = IncrementalBuildReport(changedEntries: changed.count, renderedPages: plan.pages.count,
                                            writtenFiles: site.written, removedFiles: site.removed)
        let result = summary(entries: records.count, pages: plan.pages.count, site: site, report: report, start: start, clock: clock)
        // The manifest's records, the index and the pages are hundreds of thousands of
        // allocations: freed on a thread of their own, as a clean build's are (this function's
        // variables let go of them first, so the last references are that thread's).
        let garbage: [Any] = [records, newManifest, index as Any, rendered, plan]
        (records, newManifest.entries, index, rendered, plan) = ([], [], nil, [], PagePlan(pages: [], entries: [:], folders: []))
        BackgroundRelease.release(garbage)
        return result
    }

    /// Whether the records' diagnostics, one record after the other, are in `Linter.sorted`'s order.
    static func diagnosticsInOrder(_ records: [BuildManifest.EntryRecord]) -> Bool {
        var last: (record: Int, diagnostic: Int)? = nil
        for r in records.indices {
            for k in records[r].diagnostics.indices {
                if let last, Linter.precedes(records[r].diagnostics[k], records[last.record].diagnostics[last.diagnostic]) { return false }
                last = (r, k)
            }
        }
        return true
    }

    /// Whether `sorted` (in ascending order) holds `value`.
    static func sortedContains(_ sorted: [String], _ value: String) -> Bool {
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low < sorted.count && sorted[low] == value
    }

    func summary(entries: Int, pages: Int, site: IncrementalSiteFiles, report: IncrementalBuildReport, start: UInt64, clock: StepClock) -> Summary {
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return Summary(entries: entries, pages: pages, files: site.written, bytes: site.writtenBytes, seconds: seconds,
                       output: site.output, timings: clock.timings, incremental: report)
    }

    /// The pages a change touches and the parsed entries their entry pages need.
    struct PagePlan {
        var pages: [Page]
        /// By position in the index: the entries whose pages are made again.
        var entries: [Int: SiteEntry]
        /// Folders whose pages are all made again (a page there that is not made any more is removed).
        var folders: [String]
    }

    /// `old` holds the listings of the changed entries before the change, by position.
    /// The changed entries' pages; the pages of other entries that show a changed entry's title,
    /// language or status (`related`); home, symptoms, 404, feed and the model page; the sitemap
    /// when a changed entry's date, lists, symptoms or model use changed; on
    /// the tag and language lists a changed entry is or was on, every page when it joined, left
    /// or moved in the list (its tags, language or date changed), else the one page showing it;
    /// the symptom pages when a changed entry's symptoms, title or language changed.
    func pagePlan(index: SiteIndex, old: [Int: SiteListing], changed: [ChangedEntry], fileOf: (String) -> String?,
                  checks: [String: SiteCheckReport.EntryResult]) throws -> PagePlan {
        var entries: [Int: SiteEntry] = [:]
        var tags: Set<String> = [], languages: Set<String> = [], symptomsChanged = false
        /// Entries that kept their place in every list (same tags, language and date): only the
        /// list pages showing them change.
        var inPlace: [Int] = []
        /// Entries whose symptom links are the same but show another title or language.
        var symptomTitlesChanged: Set<Int> = []
        var relatedChanged: Set<String> = []
        var sitemapChanged = false
        for item in changed {
            let before = old[item.position]!, after = item.record.listing
            entries[index.positionByID[after.id]!] = item.siteEntry
            if before.tags == after.tags && before.lang == after.lang && before.updated == after.updated {
                inPlace.append(index.positionByID[after.id]!)
            } else {
                tags.formUnion(before.tags.filter { !$0.isEmpty }); tags.formUnion(after.tags.filter { !$0.isEmpty })
                languages.insert(before.lang); languages.insert(after.lang)
            }
            if before.symptoms != after.symptoms {
                symptomsChanged = true
            } else if before.title != after.title || before.lang != after.lang {
                symptomTitlesChanged.insert(index.positionByID[after.id]!)
            }
            if after.differsOnRelatedLists(from: before) { relatedChanged.insert(after.id) }
            if after.differsOnSitemap(from: before) { sitemapChanged = true }
        }
        if !relatedChanged.isEmpty {
            // Other entries listing a changed entry as related show its title and status: parse them too.
            let parser = EntryParser(markdownOptions: .init(renderHTML: true, unsafeHTML: options.unsafeHTML))
            for position in index.entries.indices where entries[position] == nil && index.entries[position].related.contains(where: relatedChanged.contains) {
                let listing = index.entries[position]
                guard let relative = fileOf(listing.id) else { continue }
                let file = absolutePath(relative)
                let location = EntryLocation(file: file, folderName: listing.id, root: options.entriesDirectory,
                                             displayPath: display(file))
                let bytes = try Self.read(file, limit: KnowledgeBase.maximumReadSize, display: location.displayPath).get()
                guard let entry = parser.parse(bytes: [UInt8](bytes), path: location.displayPath, folderName: listing.id).entry else {
                    throw CleanBuildNeeded(reason: "a related entry cannot be parsed")
                }
                let scenario = try readScenario(of: entry, at: location).content.get()
                entries[position] = SiteEntry(entry: entry.withoutSource(), scenario: scenario, check: checks[listing.id])
            }
        }
        var pages: [Page] = [.home, .symptoms, .notFound]
        if sitemapChanged { pages.append(.sitemap) }
        pages.append(.feed)
        if index.hasModelPage { pages.append(.model) }
        pages += entries.keys.sorted().map(Page.entry)
        var folders: [String] = []
        for (k, group) in index.tags.enumerated() where tags.contains(group.name) {
            for page in 1...group.pageCount { pages.append(.tag(k, page: page)) }
        }
        for (k, group) in index.languages.enumerated() where languages.contains(group.name) {
            for page in 1...group.pageCount { pages.append(.language(k, page: page)) }
        }
        // The page of each list an entry that kept its place is on (lists made whole above aside).
        var listed: Set<Page> = Set(pages)
        for position in inPlace {
            func page(in group: ListGroup) -> Int? {
                group.entries.firstIndex(of: position).map { $0 / SiteIndex.listPageSize + 1 }
            }
            let listing = index.entries[position]
            for (k, group) in index.tags.enumerated() where !tags.contains(group.name) && listing.tags.contains(group.name) {
                if let n = page(in: group), listed.insert(.tag(k, page: n)).inserted { pages.append(.tag(k, page: n)) }
            }
            for (k, group) in index.languages.enumerated() where !languages.contains(group.name) && group.name == listing.lang {
                if let n = page(in: group), listed.insert(.language(k, page: n)).inserted { pages.append(.language(k, page: n)) }
            }
        }
        folders += tags.map(SitePaths.tagFolder) + languages.map(SitePaths.languageFolder)
        if symptomsChanged {
            for (k, group) in index.symptoms.enumerated() where group.pageCount > 0 {
                for page in 1...group.pageCount { pages.append(.symptomGroup(k, page: page)) }
            }
            folders.append("symptoms")
        } else if !symptomTitlesChanged.isEmpty {
            // The same links on the same pages: only the pages with a link to such an entry change.
            for (k, group) in index.symptoms.enumerated() where group.pageCount > 0 {
                for page in 1...group.pageCount where group.links(page: page).contains(where: { symptomTitlesChanged.contains($0.entry) }) {
                    pages.append(.symptomGroup(k, page: page))
                }
            }
        }
        if !index.hasModelPage { folders.append((SitePaths.navigationBarModel as NSString).deletingLastPathComponent) }
        return PagePlan(pages: pages, entries: entries, folders: folders)
    }

    /// The entries whose lines the list pages among `pages` show: the newest of each language on
    /// the home page, and those on the tag and language pages.
    static func listed(on pages: [Page], of index: SiteIndex) -> [Int] {
        var positions = Set<Int>()
        for page in pages {
            switch page {
            case .home: for group in index.languages { positions.formUnion(group.entries.prefix(SiteIndex.homeListSize)) }
            case .tag(let k, let page): positions.formUnion(index.tags[k].entries(page: page))
            case .language(let k, let page): positions.formUnion(index.languages[k].entries(page: page))
            default: break
            }
        }
        return positions.sorted()
    }

    /// The search files that change with the changed entries, site-relative, and the export's
    /// new state (`SearchWebPatch`, one entry after the other).
    func patchSearch(changed: [(entry: ChangedEntry, document: Int)], documentCount: Int, state: SearchWebPatch.State?,
                     output: String) throws -> (files: [(path: String, bytes: [UInt8])], state: SearchWebPatch.State?) {
        let (glossary, _) = Glossary.load(entriesDirectory: options.entriesDirectory,
                                          displayPath: display((options.entriesDirectory as NSString).appendingPathComponent(Glossary.fileName)))
        let searchGlossary = SearchGlossary(glossary)
        var patched: [SearchWebExport.FileName: Data] = [:]
        var state = state
        for (item, d) in changed {
            let entry = item.siteEntry.entry
            let document = SearchDocument(entry: entry, url: SitePaths.entry(entry.id))
            let outcome = try SearchWebPatch.replace(document: d, with: document, documentCount: documentCount, state: state,
                                                     glossary: searchGlossary, framing: .script, readHead: { name, count in
                if let data = patched[name] { return [UInt8](data.prefix(count)) }
                return LimitedFileRead.head(output + "/" + name.sitePath, count: count)
            }) { (name: SearchWebExport.FileName) -> [UInt8]? in
                if let data = patched[name] { return [UInt8](data) }
                return LimitedFileRead.bytes(output + "/" + name.sitePath, limit: 1 << 30)
            }
            switch outcome {
            case .patched(let files, let next):
                patched.merge(files) { _, new in new }
                state = next
            case .needsFullBuild(let reason):
                throw CleanBuildNeeded(reason: "search files: " + reason)
            }
        }
        let files = patched.map { (path: $0.key.sitePath, bytes: [UInt8]($0.value)) }.sorted { $0.path < $1.path }
        return (files, state)
    }

    static func decodeSearchState(_ bytes: [UInt8]) -> SearchWebPatch.State? {
        bytes.isEmpty ? nil : try? JSONDecoder().decode(SearchWebPatch.State.self, from: Data(bytes))
    }

    static func encodeSearchState(_ state: SearchWebPatch.State?) -> [UInt8] {
        guard let state else { return [] }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(state)).map { [UInt8]($0) } ?? []
    }

    // MARK: Paths

    /// `path` relative to the entries folder.
    func relativePath(_ path: String) -> String {
        let root = options.entriesDirectory.hasSuffix("/") ? options.entriesDirectory : options.entriesDirectory + "/"
        return path.hasPrefix(root) ? String(path.dropFirst(root.count)) : path
    }

    /// The location of the entry file `relative` (to the entries folder), as `EntryLocator` makes it.
    func location(ofRelative relative: String, workingDirectory: String) -> EntryLocation {
        let file = absolutePath(relative)
        let folderName = String(relative.prefix(while: { $0 != "/" }))
        return EntryLocation(file: file, folderName: folderName, root: options.entriesDirectory,
                             displayPath: EntryLocator.displayPath(file, workingDirectory: workingDirectory))
    }

    func absolutePath(_ relative: String) -> String {
        (options.entriesDirectory as NSString).appendingPathComponent(relative)
    }

    /// Diagnostics by the folder of the file they point at (an entry's folder: its entry and scenario files).
    static func diagnosticsByFolder(_ diagnostics: [Diagnostic]) -> [String: [Diagnostic]] {
        var byFolder: [String: [Diagnostic]] = [:]
        for diagnostic in diagnostics { byFolder[PathText.folder(of: diagnostic.path), default: []].append(diagnostic) }
        return byFolder
    }
}

/// Pages rendered on several threads, kept by position.
final class RenderedPages: Sendable {
    private let pages: Mutex<[(path: String, bytes: [UInt8])?]>

    init(count: Int) { pages = Mutex(Array(repeating: nil, count: count)) }

    func set(_ position: Int, path: String, bytes: [UInt8]) {
        pages.withLock { $0[position] = (path, bytes) }
    }

    var all: [(path: String, bytes: [UInt8])] { pages.withLock { $0.compactMap { $0 } } }
}

/// Changes to an existing site, made in place by an incremental build: each file replaced
/// atomically (written beside it, then renamed over it) and only when its bytes differ.
final class IncrementalSiteFiles {
    let output: String
    private(set) var written = 0
    private(set) var writtenBytes = 0
    private(set) var removed = 0

    init(output: String) { self.output = output }

    func full(_ path: String) -> String { (output as NSString).appendingPathComponent(path) }

    /// Counts files another `IncrementalSiteFiles` wrote.
    func count(written files: Int, bytes: Int) {
        written += files
        writtenBytes += bytes
    }

    func removeManifest() throws {
        let path = full(BuildManifest.fileName)
        if unlink(path) != 0 && errno != ENOENT {
            throw SiteBuildError(step: .write, path: path, message: "cannot remove the build manifest: \(String(cString: strerror(errno)))")
        }
    }

    /// Writes the manifest from its parts (not counted among the files written).
    func writeManifest(_ parts: [ArraySlice<UInt8>]) throws {
        try replaceFile(BuildManifest.fileName, with: parts)
    }

    /// The bytes of the file at `path` in the site, or nil.
    func read(_ path: String) -> [UInt8]? { LimitedFileRead.bytes(full(path), limit: 1 << 30) }

    /// Writes `bytes` at `path` unless the file already holds them (or `force`).
    func replace(_ path: String, with bytes: [UInt8], force: Bool = false) throws {
        guard try replaceIfChanged(path, with: bytes, force: force) else { return }
        written += 1
        writtenBytes += bytes.count
    }

    /// Writes each file as `replace` does, on all cores; every file is tried, and the first
    /// failure in the files' order is thrown.
    func replace(all files: [(path: String, bytes: [UInt8])]) throws {
        let outcomes = Parallel.map(files.count) { k in
            Result { try replaceIfChanged(files[k].path, with: files[k].bytes) }
        }
        for (file, outcome) in zip(files, outcomes) where try outcome.get() {
            written += 1
            writtenBytes += file.bytes.count
        }
    }

    /// Writes `bytes` at `path` unless the file already holds them (or `force`); whether it wrote.
    private func replaceIfChanged(_ path: String, with bytes: [UInt8], force: Bool = false) throws -> Bool {
        if !force, let current = read(path), current == bytes { return false }
        try replaceFile(path, with: [bytes[...]])
        return true
    }

    /// Replaces the file at `path` by `parts`, one after the other: written beside it, then renamed over it.
    private func replaceFile(_ path: String, with parts: [ArraySlice<UInt8>]) throws {
        let target = full(path)
        let temporary = (target as NSString).deletingLastPathComponent + "/.kb-new-" + (target as NSString).lastPathComponent
        // Plain writes, as a clean build makes its files (no flush to the disk per file: the site
        // is output that a build makes again); the rename below keeps each file whole for readers.
        let failure = Self.write(parts, to: temporary)
        guard failure == 0 else {
            unlink(temporary)
            throw SiteBuildError(step: .write, path: target, message: "cannot write the file: \(String(cString: strerror(failure)))")
        }
        guard rename(temporary, target) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw SiteBuildError(step: .write, path: target, message: "cannot replace the file: \(reason)")
        }
    }

    /// Writes `parts` one after the other into a new file at `path`; returns 0 or the error number.
    static func write(_ parts: [ArraySlice<UInt8>], to path: String) -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return errno }
        var failure: Int32 = 0
        for bytes in parts where failure == 0 {
            var done = 0
            bytes.withUnsafeBytes { raw in
                while done < raw.count {
                    let k = Glibc.write(fd, raw.baseAddress! + done, raw.count - done)
                    if k < 0 { if errno == EINTR { continue }; failure = errno; return }
                    done += k
                }
            }
        }
        if close(fd) != 0 && failure == 0 { failure = errno }
        return failure
    }

    func createFolders(_ folders: Set<String>) throws {
        for folder in folders.sorted() {
            do {
                try FileManager.default.createDirectory(atPath: full(folder), withIntermediateDirectories: true)
            } catch {
                throw SiteBuildError(step: .write, path: full(folder), message: "cannot create the folder: \(error.localizedDescription)")
            }
        }
    }

    /// Removes the files of `folders` (not their subfolders) that are not in `keeping`, and the
    /// folders left empty; `index.isPage` keeps pages of the site made elsewhere (`symptoms/` holds
    /// the symptom index, which is always made again).
    func removeStale(in folders: [String], keeping: Set<String>, allPages index: SiteIndex) throws {
        let fm = FileManager.default
        for folder in Set(folders) {
            let path = full(folder)
            guard let names = try? fm.contentsOfDirectory(atPath: path) else { continue }
            for name in names where !name.hasPrefix(".") {
                let relative = folder + "/" + name
                var isFolder: ObjCBool = false
                guard fm.fileExists(atPath: full(relative), isDirectory: &isFolder), !isFolder.boolValue else { continue }
                if !keeping.contains(relative) && !index.isPage(relative) {
                    unlink(full(relative))
                    removed += 1
                }
            }
            if (try? fm.contentsOfDirectory(atPath: path))?.isEmpty == true { rmdir(path) }
        }
    }
}
