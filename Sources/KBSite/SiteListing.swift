import KBCore
import KBSearch
import KBScenarios
/// What the site shows of an entry outside its own page: on the home, tag and language lists,
/// the symptom pages, the feed, the sitemap, the model page and the related-entries lists of
/// other entries. Made from a parsed entry (`init(_:)`) or read back from the build manifest
/// (`BuildManifest`), so that an incremental build renders the pages about many entries without
/// parsing the entries that did not change.
struct SiteListing: Sendable, Equatable {
    let id: String
    /// The front matter title, else the `# ` heading, else the id.
    let title: String
    let lang: String
    let updated: String
    let status: EntryMetadata.Status?
    /// As written in the front matter (empty and repeated tags included: the lists skip them).
    let tags: [String]
    let summary: String
    /// Ids named by `related:` (for finding the pages that show this entry's title and status).
    let related: [String]
    /// The symptom phrases with the fragment each links to, in front matter order (`SiteIndex.symptomLinks`).
    let symptoms: [Symptom]
    /// Whether the scenario file names the navigation-bar model's world.
    let usesModelWorld: Bool
    /// Each attempt's number as written and its outcome (the lists show them at a glance).
    let attempts: [Attempt]

    struct Attempt: Sendable, Equatable {
        let number: String
        let outcome: Outcome
    }

    struct Symptom: Sendable, Equatable {
        let phrase: String
        /// The phrase's language (`ScriptLanguage.detect`): the symptom index groups phrases by it.
        let language: ScriptLanguage
        /// `symptom-3`, or the anchor of the one attempt that quotes the phrase.
        let fragment: String

        init(phrase: String, entryLang: String, fragment: String) {
            self.init(phrase: phrase, language: ScriptLanguage.detect(phrase, entryLang: entryLang), fragment: fragment)
        }

        init(phrase: String, language: ScriptLanguage, fragment: String) {
            self.phrase = phrase
            self.language = language
            self.fragment = fragment
        }
    }

    /// `entries/<id>.html`.
    var path: String { SitePaths.entry(id) }

    init(id: String, title: String, lang: String, updated: String, status: EntryMetadata.Status?, tags: [String], summary: String,
         related: [String], symptoms: [Symptom], usesModelWorld: Bool, attempts: [Attempt]) {
        self.id = id
        self.title = title
        self.lang = lang
        self.updated = updated
        self.status = status
        self.tags = tags
        self.summary = summary
        self.related = related
        self.symptoms = symptoms
        self.usesModelWorld = usesModelWorld
        self.attempts = attempts
    }

    init(_ item: SiteEntry) {
        let meta = item.entry.metadata
        self.init(id: item.id, title: item.title, lang: item.lang, updated: item.updated, status: meta.status, tags: meta.tags,
                  summary: meta.summary, related: meta.related,
                  symptoms: SiteIndex.symptomLinks(of: item),
                  usesModelWorld: item.scenario?.text.contains("@world:" + NavigationBarWorld.worldName) == true,
                  attempts: item.entry.attempts.map { Attempt(number: $0.number.description, outcome: $0.outcome) })
    }

    /// Whether what other entries' pages show of this entry (title, language, status) differs.
    func differsOnRelatedLists(from other: SiteListing) -> Bool {
        title != other.title || lang != other.lang || status != other.status
    }

    /// Whether `sitemap.xml` may show this entry otherwise than `other`: its date, the lists it
    /// is on (tags, language), its symptom phrases (compared byte for byte, as the symptom pages
    /// sort them) or whether it is checked against the model differ. The sitemap shows only
    /// ids, dates and the pages of the lists, so a change of title, summary or body leaves it.
    func differsOnSitemap(from other: SiteListing) -> Bool {
        updated != other.updated || tags != other.tags || lang != other.lang || usesModelWorld != other.usesModelWorld
            || !symptoms.elementsEqual(other.symptoms) { $0.language == $1.language && $0.phrase.utf8.elementsEqual($1.phrase.utf8) }
    }
}
