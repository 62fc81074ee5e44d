/// `sitemap.xml` and the Atom feed `feed.xml`: the only files (with canonical links) that use
/// the base URL. Dates come from the entries, never from the clock, so builds are reproducible.
struct FeedRenderer {
    let index: SiteIndex
    let base: BaseURL

    /// `YYYY-MM-DD` → `YYYY-MM-DDT00:00:00Z` (Atom wants a full timestamp).
    static func timestamp(_ date: String) -> String {
        date.isEmpty ? "1970-01-01T00:00:00Z" : date + "T00:00:00Z"
    }

    func sitemap() -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
        func url(_ path: String, _ lastmod: String?) {
            out += "<url><loc>\(HTML.escape(base.url(path)))</loc>"
            if let lastmod, !lastmod.isEmpty { out += "<lastmod>\(HTML.escape(lastmod))</lastmod>" }
            out += "</url>\n"
        }
        url(SitePaths.home, index.updated)
        url(SitePaths.symptoms, index.updated)
        url(SitePaths.navigationBarModel, nil)
        for item in index.entries { url(item.path, item.meta.updated) }
        for (tag, positions) in index.tags {
            url(SitePaths.tag(tag), positions.map { index.entries[$0].meta.updated }.max())
        }
        out += "</urlset>\n"
        return out
    }

    func feed() -> String {
        var out = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
        out += "<feed xmlns=\"http://www.w3.org/2005/Atom\">\n"
        out += "<title>TroubleshootKB</title>\n"
        out += "<subtitle>Troubleshooting entries: what was tried, what failed, what worked.</subtitle>\n"
        out += "<id>\(HTML.escape(base.url("")))</id>\n"
        out += "<link rel=\"self\" type=\"application/atom+xml\" \(HTML.href(base.url(SitePaths.feed)))/>\n"
        out += "<link rel=\"alternate\" type=\"text/html\" \(HTML.href(base.url(SitePaths.home)))/>\n"
        out += "<updated>\(Self.timestamp(index.updated))</updated>\n"
        out += "<author><name>TroubleshootKB</name></author>\n"
        for position in index.feed {
            let item = index.entries[position]
            let meta = item.meta
            let url = base.url(item.path)
            out += "<entry \(HTML.attribute("xml:lang", meta.lang))>\n"
            out += "<title>\(HTML.escape(item.title))</title>\n"
            out += "<id>\(HTML.escape(url))</id>\n"
            out += "<link rel=\"alternate\" type=\"text/html\" \(HTML.href(url))/>\n"
            out += "<updated>\(HTML.escape(Self.timestamp(meta.updated)))</updated>\n"
            for tag in meta.tags where !tag.isEmpty {
                out += "<category \(HTML.attribute("term", tag))/>\n"
            }
            if !meta.summary.isEmpty {
                out += "<summary type=\"text\">\(HTML.escape(meta.summary))</summary>\n"
            }
            out += "</entry>\n"
        }
        out += "</feed>\n"
        return out
    }
}
