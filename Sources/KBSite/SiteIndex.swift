import Dispatch
import KBCore
import KBSearch
import KBScenarios

/// An entry with what the site shows beside it: its scenario file and its latest check result.
/// A class, so the index, the lists and the pages share one instance instead of copying the
/// entry's many fields; the fields pages use most are stored once here.
final class SiteEntry: Sendable {
    let entry: Entry
    /// The scenario file, relative to the entry folder, and its text.
    let scenario: (name: String, text: String)?
    let check: SiteCheckReport.EntryResult?
    let id: String
    /// The front matter title, else the `# ` heading, else the id.
    let title: String
    let lang: String
    let updated: String
    /// `entries/<id>.html`.
    let path: String

    init(entry: Entry, scenario: (name: String, text: String)?, check: SiteCheckReport.EntryResult?) {
        self.entry = entry
        self.scenario = scenario
        self.check = check
        id = entry.id
        title = entry.metadata.title.isEmpty ? (entry.titleHeading ?? entry.id) : entry.metadata.title
        lang = entry.metadata.lang
        updated = entry.metadata.updated
        path = SitePaths.entry(id)
    }
}

/// A symptom phrase on the symptom index, with where it leads: numbers only, so that the index
/// of many thousand links is made without copying their strings.
struct SymptomLink: Sendable {
    /// Index into `SiteIndex.entries`.
    let entry: Int
    /// Index into that entry's `SiteListing.symptoms` (its phrase as written, and the fragment
    /// it links to: `symptom-3`, or an attempt's anchor when the phrase is quoted in exactly one
    /// attempt).
    let symptom: Int
    /// Index into `SiteIndex.symptomPhrases`: links with the same number show the same phrase.
    let phrase: Int
}

/// Entries listed together — the entries of a tag or of a language — newest first, shown on
/// pages of `SiteIndex.listPageSize`: `<folder>/index.html`, `<folder>/page-2.html`, ….
struct ListGroup: Sendable {
    /// The tag, or the language tag.
    let name: String
    /// `tags/<slug>` or `languages/<slug>`.
    let folder: String
    /// Positions in `SiteIndex.entries`, newest first (then by id).
    let entries: [Int]

    var pageCount: Int { max(1, (entries.count + SiteIndex.listPageSize - 1) / SiteIndex.listPageSize) }

    /// The path of a page (1-based).
    func path(page: Int) -> String { SitePaths.listPage(folder, page: page) }

    /// The positions shown on a page (1-based).
    func entries(page: Int) -> ArraySlice<Int> {
        let start = (page - 1) * SiteIndex.listPageSize
        return entries[start..<min(entries.count, start + SiteIndex.listPageSize)]
    }
}

/// The symptom phrases written in one script, sorted. A group with more links than
/// `SiteIndex.symptomPageSize` gets pages of its own (`symptoms/<group>-<k>.html`, listed on
/// the symptom index with the phrases they start and end with); a smaller one is shown on
/// the symptom index itself.
struct SymptomGroup: Sendable {
    let language: ScriptLanguage
    let links: [SymptomLink]

    /// 0 when the group is shown on the symptom index.
    var pageCount: Int {
        links.count <= SiteIndex.symptomPageSize ? 0 : (links.count + SiteIndex.symptomPageSize - 1) / SiteIndex.symptomPageSize
    }

    func path(page: Int) -> String { SitePaths.symptomPage(language.rawValue, page: page) }

    func links(page: Int) -> ArraySlice<SymptomLink> {
        let start = (page - 1) * SiteIndex.symptomPageSize
        return links[start..<min(links.count, start + SiteIndex.symptomPageSize)]
    }
}

/// Everything the pages need, computed once and sorted so the output is deterministic
/// (the `index` step).
struct SiteIndex: Sendable {
    /// Sorted by id.
    let entries: [SiteListing]
    /// The latest check result of each entry (by position), when the check report has one.
    let checks: [SiteCheckReport.EntryResult?]
    let positionByID: [String: Int]
    /// Sorted by tag.
    let tags: [ListGroup]
    /// Sorted by language tag.
    let languages: [ListGroup]
    /// By language group (`ScriptLanguage.displayOrder`), phrases sorted.
    let symptoms: [SymptomGroup]
    /// The distinct symptom phrases (`SymptomLink.phrase`).
    let symptomPhrases: [String]
    /// Newest first (then id), at most `feedLimit`.
    let feed: [Int]
    /// The greatest `updated` of all entries (`1970-01-01` when there are none).
    let updated: String
    /// Whether the site has the navigation-bar model's page: only when an entry is checked
    /// against the model (its scenario names the world, or its check result lists model rules).
    let hasModelPage: Bool

    static let feedLimit = 100
    /// Entries per page of a tag or language list.
    static let listPageSize = 100
    /// Entries per language on the home page (the newest; the rest are on the language's pages).
    static let homeListSize = 20
    /// Symptom links per page of a symptom group.
    static let symptomPageSize = 500

    func entry(id: String) -> SiteListing? { positionByID[id].map { entries[$0] } }

    /// The phrase a link shows.
    func phrase(_ link: SymptomLink) -> String { symptomPhrases[link.phrase] }

    /// The fragment of the entry page a link leads to.
    func fragment(_ link: SymptomLink) -> String { entries[link.entry].symptoms[link.symptom].fragment }


    /// The folders pages are written in.
    var pageFolders: Set<String> {
        var folders: Set<String> = ["entries", "symptoms"]
        if hasModelPage { folders.insert("model/navigation-bar") }
        for group in tags + languages { folders.insert(group.folder) }
        return folders
    }

    /// Whether the site has a page at `path`.
    func isPage(_ path: String) -> Bool {
        if [SitePaths.home, SitePaths.symptoms, SitePaths.notFound, SitePaths.sitemap, SitePaths.feed].contains(path) { return true }
        if path == SitePaths.navigationBarModel { return hasModelPage }
        if path.hasPrefix("entries/") && path.hasSuffix(".html") {
            return positionByID[String(path.dropFirst("entries/".count).dropLast(".html".count))] != nil
        }
        for group in tags + languages where path.hasPrefix(group.folder + "/") {
            if (1...group.pageCount).contains(where: { group.path(page: $0) == path }) { return true }
        }
        for group in symptoms where group.pageCount > 0 {
            if (1...group.pageCount).contains(where: { group.path(page: $0) == path }) { return true }
        }
        return false
    }

    /// Builds the index from every entry's listing and the check report's latest results by
    /// entry id. Throws when two tags would share a folder or an id is unusable as a folder name.
    static func make(_ listings: [SiteListing], checks checksByID: [String: SiteCheckReport.EntryResult] = [:],
                     pathOf: (String) -> String = { $0 }) throws -> SiteIndex {
        // (Listings usually come sorted: the loader's and the manifest's order.)
        let sorted = listings.indices.dropFirst().allSatisfy { listings[$0 - 1].id <= listings[$0].id }
        let entries = sorted ? listings : listings.sorted { $0.id < $1.id }
        var positionByID: [String: Int] = [:]
        positionByID.reserveCapacity(entries.count)
        for position in entries.indices {
            let id = entries[position].id
            guard SitePaths.isPlainID(id) else {
                throw SiteBuildError(step: .index, path: pathOf(id), message: "id '\(id)' cannot be used as a folder name")
            }
            positionByID[id] = position
        }
        let checks = checksByID.isEmpty ? [SiteCheckReport.EntryResult?](repeating: nil, count: entries.count) : entries.map { checksByID[$0.id] }
        // Newest first, then by id: the entries are sorted by id, so ties keep their position order.
        let byDate = entries.indices.sorted { a, b in
            let x = entries[a].updated, y = entries[b].updated
            return x != y ? x > y : a < b
        }

        var byTag: [String: [Int]] = [:]
        var byLang: [String: [Int]] = [:]
        for position in byDate {
            let tags = entries[position].tags
            for (k, tag) in tags.enumerated() where !tag.isEmpty && !tags[..<k].contains(tag) {
                byTag[tag, default: []].append(position)
            }
            byLang[entries[position].lang, default: []].append(position)
        }
        var slugOwner: [String: String] = [:]
        let tagNames = byTag.keys.sorted()
        for tag in tagNames {
            let slug = SitePaths.tagSlug(tag)
            if let other = slugOwner[slug] {
                let path = pathOf(entries[byTag[tag]![0]].id)
                throw SiteBuildError(step: .index, path: path, message: "tags '\(other)' and '\(tag)' would share the folder tags/\(slug)")
            }
            slugOwner[slug] = tag
        }
        let tags = tagNames.map { ListGroup(name: $0, folder: SitePaths.tagFolder($0), entries: byTag[$0]!) }
        let languages = byLang.keys.sorted().map { ListGroup(name: $0, folder: SitePaths.languageFolder($0), entries: byLang[$0]!) }

        let (symptoms, symptomPhrases) = symptomGroups(entries)

        let feed = Array(byDate.prefix(feedLimit))
        let updated = byDate.first.map { entries[$0].updated } ?? "1970-01-01"
        let hasModelPage = entries.indices.contains { k in
            entries[k].usesModelWorld || checks[k]?.attempts.contains { !$0.rules.isEmpty } == true
        }
        return SiteIndex(entries: entries, checks: checks, positionByID: positionByID, tags: tags, languages: languages,
                         symptoms: symptoms, symptomPhrases: symptomPhrases, feed: feed, updated: updated, hasModelPage: hasModelPage)
    }

    /// The symptom phrases of all entries by script (`ScriptLanguage.displayOrder`), each group
    /// sorted by phrase (UTF-8 bytes, that is code points), then by entry; and the distinct
    /// phrases the links are numbered by. Many entries share a phrase: the links are gathered
    /// per distinct phrase (in entry order), and only the distinct phrases are sorted.
    static func symptomGroups(_ entries: [SiteListing]) -> (groups: [SymptomGroup], phrases: [String]) {
        var phraseNumber: [UTF8Key: Int] = [:]
        var phrases: [String] = []
        var languages: [ScriptLanguage] = []
        /// Per distinct phrase, the links that show it (in entry order).
        var linksOfPhrase: [[SymptomLink]] = []
        for position in entries.indices {
            let symptoms = entries[position].symptoms
            for k in symptoms.indices {
                let key = UTF8Key(symptoms[k].phrase)
                let number: Int
                if let known = phraseNumber[key] {
                    number = known
                } else {
                    number = phrases.count
                    phraseNumber[key] = number
                    phrases.append(symptoms[k].phrase)
                    languages.append(symptoms[k].language)
                    linksOfPhrase.append([])
                }
                linksOfPhrase[number].append(SymptomLink(entry: position, symptom: k, phrase: number))
            }
        }
        let groups = ScriptLanguage.displayOrder.compactMap { language -> SymptomGroup? in
            let numbers = phrases.indices.filter { languages[$0] == language }
            guard !numbers.isEmpty else { return nil }
            let order = numbers.sorted { ByteText.compare(phrases[$0], phrases[$1]) < 0 }
            return SymptomGroup(language: language, links: Array(order.map { linksOfPhrase[$0] }.joined()))
        }
        return (groups, phrases)
    }

    /// The symptom phrases of one entry, each linking to the phrase on the entry page or to the
    /// one attempt whose title or observed failure (`Attempt.failure`) quotes it, compared
    /// lower-cased.
    static func symptomLinks(of item: SiteEntry) -> [SiteListing.Symptom] {
        let symptoms = item.entry.metadata.symptoms
        let attempts = item.entry.attempts
        var texts: [AttemptText]? = nil
        var seen: [String] = []
        var links: [SiteListing.Symptom] = []
        for number in symptoms.indices {
            let trimmed = symptoms[number].trimmingSpaces()
            guard !trimmed.isEmpty, !seen.contains(trimmed) else { continue }
            seen.append(trimmed)
            var fragment: String? = nil
            if !attempts.isEmpty && trimmed.utf8.count >= 6
                && trimmed.index(trimmed.startIndex, offsetBy: 6, limitedBy: trimmed.endIndex) != nil { // six characters or more
                let attemptTexts = texts ?? attempts.indices.map { AttemptText(attempts[$0]) }
                texts = attemptTexts
                let phrase = Phrase(trimmed)
                var match = -1
                for k in attemptTexts.indices where attemptTexts[k].quotes(phrase) {
                    if match >= 0 { match = -1; break }
                    match = k
                }
                if match >= 0 { fragment = attempts[match].anchor.fragment }
            }
            links.append(SiteListing.Symptom(phrase: trimmed, entryLang: item.entry.metadata.lang,
                                             fragment: fragment ?? SectionAnchor.symptom(number)))
        }
        return links
    }

    /// A symptom phrase as the attempts are searched for it.
    struct Phrase {
        let text: String
        /// ASCII letters folded, when `ByteText.foldsLikeASCII` and there is no line break; else nil.
        let folded: [UInt8]?

        init(_ text: String) {
            self.text = text
            var copy = text
            folded = ByteText.foldsLikeASCII(text)
                ? copy.withUTF8 { $0.contains(0x0A) ? nil : $0.map(UTF8Scan.foldASCII) } : nil
        }

        var lowercased: String { ByteText.lowercased(text) }
    }

    /// What a symptom phrase is looked for in: an attempt's title and observed failure.
    struct AttemptText {
        /// The title, then the non-empty result and failure texts (`Attempt.failure`'s lines),
        /// when lower-casing can change only their ASCII letters.
        let texts: [String]?
        /// `(title + "\n" + failure).lowercased()` otherwise.
        let lowered: String?

        init(_ attempt: borrowing Attempt) {
            var texts = [attempt.title]
            let parts = attempt.parts
            for role in [PartRole.result, .failure] {
                for p in parts.indices where parts[p].role == role && !parts[p].text.isEmpty { texts.append(parts[p].text) }
            }
            if texts.allSatisfy(ByteText.foldsLikeASCII) {
                self.texts = texts
                lowered = nil
            } else {
                self.texts = nil
                lowered = ByteText.lowercased(texts[0] + "\n" + texts.dropFirst().joined(separator: "\n"))
            }
        }

        /// Whether `(title + "\n" + failure).lowercased()` contains the phrase lower-cased. A
        /// phrase without a line break cannot span two lines: each text is searched as it is,
        /// ASCII letters folded, when both sides allow it.
        func quotes(_ phrase: Phrase) -> Bool {
            if let texts, let needle = phrase.folded {
                return texts.contains { ByteText.containsFolded($0, needle) }
            }
            let haystack = lowered ?? ByteText.lowercased(texts![0] + "\n" + texts!.dropFirst().joined(separator: "\n"))
            return ByteText.contains(haystack, phrase.lowercased)
        }
    }
}
