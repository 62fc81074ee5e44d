import KBCore
import KBSearch
import KBScenarios
/// `sitemap.xml` and the Atom feed `feed.xml`: the only files (with canonical links) that use
/// the base URL. Dates come from the entries, never from the clock, so builds are reproducible.
struct FeedRenderer {
    let index: SiteIndex
    let base: BaseURL
    var settings = SiteSettings()

    /// `YYYY-MM-DD` → `YYYY-MM-DDT00:00:00Z` (Atom wants a full timestamp).
    static func timestamp(_ date: String) -> String {
        date.isEmpty ? "1970-01-01T00:00:00Z" : date + "T00:00:00Z"
    }

    func sitemap() -> String { IndexPageRenderer.string { sitemap(into: &$0) } }
    func feed() -> String { IndexPageRenderer.string { feed(into: &$0) } }

    /// Every page but 404: home, symptoms, the model page, entries, then the pages of the tag,
    /// language and symptom lists. `lastmod` is the newest `updated` of what a page shows.
    func sitemap(into out: inout HTMLBuffer) {
        out.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n")
        func url(_ path: String, _ lastmod: String?) {
            out.raw("<url><loc>")
            out.text(base.value)
            out.text(path)
            out.raw("</loc>")
            if let lastmod, !lastmod.isEmpty {
                out.raw("<lastmod>")
                out.text(lastmod)
                out.raw("</lastmod>")
            }
            out.raw("</url>\n")
        }
        url(SitePaths.home, index.updated)
        url(SitePaths.symptoms, index.updated)
        if index.hasModelPage { url(SitePaths.navigationBarModel, nil) }
        // (`SitePaths.entry` of the id, not the listing's `path`: reading a computed property of an
        // array element copies the whole listing.)
        for k in index.entries.indices { url(SitePaths.entry(index.entries[k].id), index.entries[k].updated) }
        for group in index.tags + index.languages {
            for page in 1...group.pageCount {
                // Newest first: the first entry of a page is its newest.
                url(group.path(page: page), group.entries(page: page).first.map { index.entries[$0].updated })
            }
        }
        for group in index.symptoms where group.pageCount > 0 {
            for page in 1...group.pageCount {
                url(group.path(page: page), group.links(page: page).map { index.entries[$0.entry].updated }.max())
            }
        }
        out.raw("</urlset>\n")
    }

    func feed(into out: inout HTMLBuffer) {
        out.raw("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n<title>")
        out.text(settings.title)
        out.raw("</title>\n")
        out.raw("<subtitle>Troubleshooting entries: what was tried, what failed, what worked.</subtitle>\n<id>")
        out.text(base.url(""))
        out.raw("</id>\n<link rel=\"self\" type=\"application/atom+xml\"")
        out.href(base.url(SitePaths.feed))
        out.raw("/>\n<link rel=\"alternate\" type=\"text/html\"")
        out.href(base.url(SitePaths.home))
        out.raw("/>\n<updated>")
        out.text(Self.timestamp(index.updated))
        out.raw("</updated>\n<author><name>")
        out.text(settings.title)
        out.raw("</name></author>\n")
        for position in index.feed {
            let item = index.entries[position]
            let url = base.url(item.path)
            out.raw("<entry")
            out.attribute("xml:lang", item.lang)
            out.raw(">\n<title>")
            out.text(item.title)
            out.raw("</title>\n<id>")
            out.text(url)
            out.raw("</id>\n<link rel=\"alternate\" type=\"text/html\"")
            out.href(url)
            out.raw("/>\n<updated>")
            out.text(Self.timestamp(item.updated))
            out.raw("</updated>\n")
            for tag in item.tags where !tag.isEmpty {
                out.raw("<category")
                out.attribute("term", tag)
                out.raw("/>\n")
            }
            if !item.summary.isEmpty {
                out.raw("<summary type=\"text\">")
                out.text(item.summary)
                out.raw("</summary>\n")
            }
            out.raw("</entry>\n")
        }
        out.raw("</feed>\n")
    }
}
