import Foundation

/// The one way entries are loaded: locate → read and parse (on all cores) → lint once. `kb lint`,
/// the search index, the site build, `kb check` and the other commands all go through it.
///
/// What a command needs beside the entries is asked for with `Options` (lint or not, keep the
/// parsed entries or only the diagnostics) or with an `EntryHook`, which runs for each entry on
/// the loader's own threads: before its file is read, and after it is parsed (the site build
/// takes file stamps and reads scenario files there).
public struct KnowledgeBaseLoader: Sendable {
    /// What a load produces besides the entries.
    public struct Options: Sendable {
        /// Run the lint rules over the loaded entries (`LoadedKnowledgeBase.lintDiagnostics`).
        public var lints: Bool
        /// Keep each parsed entry; when false (`kb lint`), an entry is linted as soon as it is
        /// parsed and let go, so memory stays flat however large the knowledge base is.
        public var keepsEntries: Bool
        /// Hash each file's bytes as they are parsed (`KnowledgeBase.Item.contentHash`; the
        /// search index's manifest needs it, nothing else does).
        public var hashesContent: Bool

        public init(lints: Bool = false, keepsEntries: Bool = true, hashesContent: Bool = false) {
            self.lints = lints
            self.keepsEntries = keepsEntries
            self.hashesContent = hashesContent
        }

        /// Entries only (`kb list`, `kb show`, `kb export`, `kb check`).
        public static let entries = Options()
        /// Entries and their lint diagnostics.
        public static let linted = Options(lints: true)
        /// Lint diagnostics only (`kb lint`).
        public static let diagnosticsOnly = Options(lints: true, keepsEntries: false)
    }

    public let parser: EntryParser
    public let linter: Linter
    public let workingDirectory: String

    public init(workingDirectory: String, parser: EntryParser = EntryParser(), linter: Linter = Linter()) {
        self.workingDirectory = workingDirectory
        self.parser = parser
        self.linter = linter
    }

    /// Locates the entries under command-line paths (entries folders, entry folders or
    /// `entry.md` files) and loads them, with the glossary of each entries folder among `paths`.
    public func load(paths: [String], options: Options = .entries) throws -> LoadedKnowledgeBase {
        let (locations, locatorDiagnostics) = try EntryLocator.locate(paths, workingDirectory: workingDirectory)
        var loaded = load(locations, locatorDiagnostics: locatorDiagnostics, options: options)
        loaded.attachGlossaries(of: paths.map { EntryLocator.absolute($0, workingDirectory: workingDirectory) },
                                workingDirectory: workingDirectory)
        return loaded
    }

    /// Loads located entries.
    public func load(_ locations: [EntryLocation], locatorDiagnostics: [Diagnostic] = [], options: Options = .entries,
                     knownIDs: Set<String>? = nil) -> LoadedKnowledgeBase {
        load(locations, locatorDiagnostics: locatorDiagnostics, options: options, knownIDs: knownIDs, hook: EntryHook.none).knowledgeBase
    }

    /// Loads located entries, running `hook` for each of them on the loader's threads; returns
    /// what the hook made per entry, in location order. `progress(done, total)` is called as
    /// entries are parsed.
    public func load<Before: Sendable, Extra: Sendable>(
        _ locations: [EntryLocation], locatorDiagnostics: [Diagnostic] = [], options: Options = .entries,
        knownIDs: Set<String>? = nil, hook: EntryHook<Before, Extra>,
        progress: @Sendable (Int, Int) -> Void = { _, _ in }
    ) -> (knowledgeBase: LoadedKnowledgeBase, extras: [Extra]) {
        let knownIDs = knownIDs ?? EntryLocator.knownIDs(for: locations)
        let count = locations.count
        let counter = Counter()
        let results = Parallel.map(count) { index -> Loaded<Extra> in
            defer { progress(counter.increment(), count) }
            return loadItem(locations[index], options: options, knownIDs: knownIDs, hook: hook)
        }
        let base = KnowledgeBase(items: results.map(\.item), locatorDiagnostics: locatorDiagnostics)
        var loaded = LoadedKnowledgeBase(base: base, knownIDs: knownIDs)
        if options.lints {
            loaded.lintDiagnostics = options.keepsEntries
                ? linter.lint(base.items, locatorDiagnostics: locatorDiagnostics, knownIDs: knownIDs)
                : Linter.combine(results.compactMap(\.outcome), locatorDiagnostics: locatorDiagnostics)
        }
        return (loaded, results.map(\.extra))
    }

    /// Loads located entries `batchSize` at a time (each batch on all cores), linting each entry
    /// as it is parsed when `options.lints`, and hands each batch's extras (what `hook` made of
    /// its entries, in location order) to `body` before the next batch is read. No entry is
    /// kept, so memory holds one batch's entries and extras at a time, however many there are;
    /// the returned knowledge base has the items without their entries, and the lint
    /// diagnostics of all of them (rules across entries included), as one load would.
    public func load<Before: Sendable, Extra: Sendable>(
        _ locations: [EntryLocation], locatorDiagnostics: [Diagnostic] = [], options: Options,
        knownIDs: Set<String>? = nil, hook: EntryHook<Before, Extra>, batchSize: Int,
        body: (_ extras: [Extra], _ locations: Range<Int>) throws -> Void
    ) rethrows -> LoadedKnowledgeBase {
        let knownIDs = knownIDs ?? EntryLocator.knownIDs(for: locations)
        let options = Options(lints: options.lints, keepsEntries: false, hashesContent: options.hashesContent)
        var items: [KnowledgeBase.Item] = []
        var outcomes: [Linter.FileOutcome] = []
        items.reserveCapacity(locations.count)
        var start = 0
        while start < locations.count {
            let range = start..<min(locations.count, start + max(1, batchSize))
            let results = Parallel.map(range.count) { k in
                loadItem(locations[range.lowerBound + k], options: options, knownIDs: knownIDs, hook: hook)
            }
            for result in results {
                items.append(result.item)
                if let outcome = result.outcome { outcomes.append(outcome) }
            }
            try body(results.map(\.extra), range)
            start = range.upperBound
        }
        let base = KnowledgeBase(items: items, locatorDiagnostics: locatorDiagnostics)
        var loaded = LoadedKnowledgeBase(base: base, knownIDs: knownIDs)
        if options.lints { loaded.lintDiagnostics = Linter.combine(outcomes, locatorDiagnostics: locatorDiagnostics) }
        return loaded
    }

    private typealias Loaded<Extra> = (item: KnowledgeBase.Item, outcome: Linter.FileOutcome?, extra: Extra)

    /// Reads and parses one entry with the hook around it; linted now and let go when the load
    /// keeps no entries.
    private func loadItem<Before, Extra>(_ location: EntryLocation, options: Options, knownIDs: Set<String>,
                                         hook: EntryHook<Before, Extra>) -> Loaded<Extra> {
        let before = hook.beforeReading(location)
        var item = KnowledgeBase.readItem(location, parser: parser, hashesContent: options.hashesContent)
        let extra = hook.afterParsing(item, before)
        guard !options.keepsEntries else { return (item, nil, extra) }
        // Linted now, and only what lint found is kept.
        let outcome = options.lints ? linter.lint(item, knownIDs: knownIDs) : nil
        item = KnowledgeBase.Item(location: location, entry: nil, diagnostics: [], size: item.size, contentHash: item.contentHash)
        return (item, outcome, extra)
    }
}

/// Work the loader does for each entry beside reading and parsing it: `beforeReading` runs
/// before the entry's file is opened, `afterParsing` with the parsed item and what
/// `beforeReading` returned.
public struct EntryHook<Before: Sendable, Extra: Sendable>: Sendable {
    public let beforeReading: @Sendable (EntryLocation) -> Before
    public let afterParsing: @Sendable (KnowledgeBase.Item, Before) -> Extra

    public init(beforeReading: @escaping @Sendable (EntryLocation) -> Before,
                afterParsing: @escaping @Sendable (KnowledgeBase.Item, Before) -> Extra) {
        self.beforeReading = beforeReading
        self.afterParsing = afterParsing
    }
}

extension EntryHook where Before == Void, Extra == Void {
    /// No work beside reading and parsing.
    public static var none: EntryHook<Void, Void> { EntryHook(beforeReading: { _ in }, afterParsing: { _, _ in }) }
}
