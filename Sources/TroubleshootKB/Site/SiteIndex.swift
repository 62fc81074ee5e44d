import Dispatch

/// An entry with what the site shows beside it: its scenario file and its latest check result.
struct SiteEntry: Sendable {
    let entry: Entry
    /// The scenario file, relative to the entry folder, and its text.
    let scenario: (name: String, text: String)?
    let check: SiteCheckReport.EntryResult?

    var id: String { entry.id }
    var meta: EntryMetadata { entry.metadata }
    var title: String { meta.title.isEmpty ? (entry.titleHeading ?? entry.id) : meta.title }
    var path: String { SitePaths.entry(entry.id) }
}

/// A symptom phrase on the symptom index, with where it leads.
struct SymptomLink: Sendable {
    let phrase: String
    let language: ScriptLanguage
    /// Index into `SiteIndex.entries`.
    let entry: Int
    /// `symptom-3` (the phrase on the entry page) or an attempt's anchor when the phrase is
    /// quoted in exactly one attempt.
    let fragment: String
}

/// Everything the pages need, computed once and sorted so the output is deterministic
/// (the `index` step).
struct SiteIndex: Sendable {
    /// Sorted by id.
    let entries: [SiteEntry]
    let positionByID: [String: Int]
    /// Sorted by tag; entries by date (newest first), then id.
    let tags: [(tag: String, entries: [Int])]
    /// Sorted by language tag; entries by date (newest first), then id.
    let languages: [(lang: String, entries: [Int])]
    /// By language group, phrases sorted.
    let symptoms: [(language: ScriptLanguage, links: [SymptomLink])]
    /// Newest first (then id), at most `feedLimit`.
    let feed: [Int]
    /// The greatest `updated` of all entries (`1970-01-01` when there are none).
    let updated: String

    static let feedLimit = 100

    func entry(id: String) -> SiteEntry? { positionByID[id].map { entries[$0] } }

    /// Every page path, sorted.
    var pagePaths: [String] {
        var paths = [SitePaths.home, SitePaths.symptoms, SitePaths.notFound, SitePaths.sitemap, SitePaths.feed, SitePaths.navigationBarModel]
        paths += entries.map(\.path)
        paths += tags.map { SitePaths.tag($0.tag) }
        return paths.sorted()
    }

    /// Builds the index. Throws when two tags would share a folder or an id is unusable as a folder name.
    static func make(_ siteEntries: [SiteEntry]) throws -> SiteIndex {
        let entries = siteEntries.sorted { $0.id < $1.id }
        var positionByID: [String: Int] = [:]
        for (position, item) in entries.enumerated() {
            guard Linter.matches(Linter.idPattern, item.id) else {
                throw SiteBuildError(step: .index, path: item.entry.path, message: "id '\(item.id)' cannot be used as a folder name")
            }
            positionByID[item.id] = position
        }
        func newestFirst(_ a: Int, _ b: Int) -> Bool {
            let x = entries[a].meta.updated, y = entries[b].meta.updated
            return x != y ? x > y : entries[a].id < entries[b].id
        }

        var byTag: [String: [Int]] = [:]
        var byLang: [String: [Int]] = [:]
        for (position, item) in entries.enumerated() {
            for tag in Set(item.meta.tags) where !tag.isEmpty { byTag[tag, default: []].append(position) }
            byLang[item.meta.lang, default: []].append(position)
        }
        var slugOwner: [String: String] = [:]
        for tag in byTag.keys.sorted() {
            let slug = SitePaths.tagSlug(tag)
            if let other = slugOwner[slug] {
                let path = entries[byTag[tag]![0]].entry.path
                throw SiteBuildError(step: .index, path: path, message: "tags '\(other)' and '\(tag)' would share the folder tags/\(slug)")
            }
            slugOwner[slug] = tag
        }
        let tags = byTag.keys.sorted().map { ($0, byTag[$0]!.sorted(by: newestFirst)) }
        let languages = byLang.keys.sorted().map { ($0, byLang[$0]!.sorted(by: newestFirst)) }

        // Symptom links per entry, worked out in parallel (matching phrases against attempts is the slow part).
        let count = entries.count
        let perEntry = UnsafeMutableBufferPointer<[SymptomLink]>.allocate(capacity: count)
        perEntry.initialize(repeating: [])
        defer { perEntry.deinitialize(); perEntry.deallocate() }
        nonisolated(unsafe) let output = perEntry
        DispatchQueue.concurrentPerform(iterations: count) { position in
            output[position] = symptomLinks(of: entries[position].entry, position: position)
        }
        var groups: [ScriptLanguage: [SymptomLink]] = [:]
        for links in perEntry {
            for link in links { groups[link.language, default: []].append(link) }
        }
        let symptoms = ScriptLanguage.displayOrder.compactMap { language -> (ScriptLanguage, [SymptomLink])? in
            guard let links = groups[language] else { return nil }
            return (language, links.sorted { a, b in
                if a.phrase != b.phrase { return a.phrase.unicodeScalars.lexicographicallyPrecedes(b.phrase.unicodeScalars) }
                return a.entry < b.entry
            })
        }

        let feed = Array(entries.indices.sorted(by: newestFirst).prefix(feedLimit))
        let updated = entries.map(\.meta.updated).max() ?? "1970-01-01"
        return SiteIndex(entries: entries, positionByID: positionByID, tags: tags, languages: languages,
                         symptoms: symptoms, feed: feed, updated: updated)
    }

    /// The symptom phrases of one entry, each linking to the phrase on the entry page or to the
    /// one attempt whose title or observed failure quotes it.
    static func symptomLinks(of entry: Entry, position: Int) -> [SymptomLink] {
        var attemptTexts: [(anchor: String, text: String)]? = nil
        var seen = Set<String>()
        var links: [SymptomLink] = []
        for (number, phrase) in entry.metadata.symptoms.enumerated() {
            let trimmed = phrase.trimmingSpaces()
            guard !trimmed.isEmpty, seen.insert(trimmed).inserted else { continue }
            var fragment = "symptom-\(number + 1)"
            if trimmed.count >= 6 && !entry.attempts.isEmpty {
                let texts = attemptTexts ?? entry.attempts.map { ($0.anchor, ($0.title + "\n" + $0.failure).lowercased()) }
                attemptTexts = texts
                let needle = trimmed.lowercased()
                let matches = texts.filter { ByteText.contains($0.text, needle) }
                if matches.count == 1 { fragment = matches[0].anchor }
            }
            links.append(SymptomLink(phrase: trimmed, language: ScriptLanguage.detect(trimmed), entry: position, fragment: fragment))
        }
        return links
    }
}
