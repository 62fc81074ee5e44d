import KBCore
import KBSearch
import KBScenarios
/// Where every page of the site lives, and how pages link to each other.
///
/// Pages link with relative URLs that name `index.html` explicitly (`../../tags/swiftui/index.html`),
/// so the same output works on any static host, under a sub-path and opened from disk through
/// `file://`. The base URL is used only for the absolute URLs of `sitemap.xml`, `feed.xml` and
/// canonical links.
enum SitePaths {
    static let home = "index.html"
    static let symptoms = "symptoms/index.html"
    static let notFound = "404.html"
    static let sitemap = "sitemap.xml"
    static let feed = "feed.xml"
    /// The rule catalogue of the navigation-bar model that model-checked entries link to.
    static let navigationBarModel = "model/navigation-bar/index.html"
    static let stylesheet = "assets/style.css"
    /// The site's icon (browsers ask for one on every page).
    static let favicon = "assets/favicon.svg"
    static let script = "assets/app.js"
    /// Written by the search branch; pages tolerate its absence.
    static let searchScript = "assets/search.js"
    /// The search engine shared with `kb search` (docs/search.md).
    static let searchCore = "assets/search-core.js"
    /// Marks a folder as a site `kb build` wrote, so a later build may replace it.
    static let marker = ".kb-site"

    /// Entry pages are files of their own in one folder (`entries/<id>.html`): no folder per
    /// entry to create, list and remove.
    static func entry(_ id: String) -> String { "entries/\(id).html" }
    /// The first page of a tag's list.
    static func tag(_ tag: String) -> String { listPage(tagFolder(tag), page: 1) }
    static func tagFolder(_ tag: String) -> String { "tags/" + tagSlug(tag) }
    /// The folder of a language's list (`languages/zh-hans`).
    static func languageFolder(_ lang: String) -> String { "languages/" + tagSlug(lang.lowercased()) }
    /// A page of a list (1-based): `<folder>/index.html`, `<folder>/page-2.html`, ….
    static func listPage(_ folder: String, page: Int) -> String {
        page <= 1 ? folder + "/index.html" : folder + "/page-\(page).html"
    }
    /// A page of a symptom group: `symptoms/zh-1.html`.
    static func symptomPage(_ group: String, page: Int) -> String { "symptoms/\(group)-\(page).html" }

    /// Whether an entry id can name a file: `[a-z0-9]+(-[a-z0-9]+)*` (the lint rule's pattern).
    static func isPlainID(_ id: String) -> Bool {
        var previousWasDash = true
        for byte in id.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                previousWasDash = false
            case UInt8(ascii: "-"):
                if previousWasDash { return false }
                previousWasDash = true
            default:
                return false
            }
        }
        return !previousWasDash
    }

    /// The URL that leads from `page` to `target` (both relative to the site root):
    /// `relative("tags/x/index.html", from: "entries/a/index.html")` is `../../tags/x/index.html`.
    static func relative(_ target: String, from page: String) -> String {
        // In the same folder: the file name alone (`page-2.html` from `tags/x/index.html`).
        if let slash = page.lastIndex(of: "/") {
            let folder = page[...slash]
            if target.hasPrefix(folder) {
                let name = target.dropFirst(folder.count)
                if !name.contains("/") { return String(name) }
            }
        }
        return rootPrefix(from: page) + target
    }

    /// `../` once per folder `page` is in: the way back to the site root.
    static func rootPrefix(from page: String) -> String {
        // The non-empty components but the last (`a//b/` has two).
        var components = 0
        var previous = UInt8(ascii: "/")
        for byte in page.utf8 {
            if previous == UInt8(ascii: "/") && byte != UInt8(ascii: "/") { components += 1 }
            previous = byte
        }
        return String(repeating: "../", count: max(components - 1, 0))
    }

    /// A file-system and URL safe folder name for a tag. Plain tags (`swiftui`, `ios17`,
    /// `navigation-bar`, `c.v`) are used as they are; anything else (capitals, spaces, CJK,
    /// punctuation) becomes `_` and a hash of the tag, which a plain tag cannot start with.
    static func tagSlug(_ tag: String) -> String {
        if isPlainTag(tag) { return tag }
        return "_" + hexHash(tag)
    }

    static func isPlainTag(_ tag: String) -> Bool {
        guard !tag.isEmpty, tag.utf8.count <= 64 else { return false }
        var previousWasSeparator = true
        for byte in tag.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                previousWasSeparator = false
            case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
                if previousWasSeparator { return false }
                previousWasSeparator = true
            default:
                return false
            }
        }
        return !previousWasSeparator
    }

    /// FNV-1a, 64 bits: stable across runs and platforms.
    static func hash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf29ce484222325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100000001b3
        }
        return hash
    }

    /// `hash` as 16 hex digits.
    static func hexHash(_ text: String) -> String {
        let hex = String(hash(text), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
