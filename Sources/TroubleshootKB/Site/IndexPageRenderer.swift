/// The pages about many entries: home, tag pages, the symptom index and 404.
struct IndexPageRenderer {
    let index: SiteIndex
    let base: BaseURL

    static let languageNames: [String: String] = [
        "zh-Hans": "简体中文", "zh-Hant": "繁體中文", "ko": "한국어", "ja": "日本語", "en": "English",
    ]

    func layout(_ path: String) -> PageLayout {
        PageLayout(path: path, lang: "en", strings: .english, base: base)
    }

    // MARK: Home

    func home() -> String {
        let layout = layout(SitePaths.home)
        var main = ""
        main += "<h1 class=\"visually-hidden\">TroubleshootKB</h1>\n"
        main += "<form class=\"search\" role=\"search\" \(HTML.attribute("action", SitePaths.home)) method=\"get\">\n"
        main += "<label for=\"search\">Search symptoms, error messages and APIs</label>\n"
        main += "<div class=\"search-row\"><input id=\"search\" name=\"q\" type=\"search\" autocomplete=\"off\" spellcheck=\"false\" placeholder=\"症状 · 증상 · 症状 · symptom\"></div>\n"
        main += "</form>\n"
        main += "<ol id=\"results\" class=\"results\" aria-live=\"polite\"></ol>\n"
        let symptomCount = index.symptoms.reduce(0) { $0 + $1.links.count }
        main += "<p class=\"stats\">\(index.entries.count) \(index.entries.count == 1 ? "entry" : "entries") · "
        main += "\(index.languages.count) \(index.languages.count == 1 ? "language" : "languages") · "
        main += "<a \(HTML.href(layout.link(SitePaths.symptoms)))>\(symptomCount) \(symptomCount == 1 ? "symptom" : "symptoms")</a></p>\n"

        main += "<section id=\"by-language\" aria-labelledby=\"by-language-heading\">\n<h2 id=\"by-language-heading\">By language</h2>\n"
        for (lang, positions) in index.languages {
            let name = Self.languageNames[lang] ?? lang
            main += "<section class=\"group\" \(HTML.attribute("id", "lang-" + SitePaths.tagSlug(lang.lowercased())))>\n"
            main += "<h3><span \(HTML.attribute("lang", lang))>\(HTML.escape(name))</span> <span class=\"count\">\(positions.count)</span></h3>\n"
            main += "<ul class=\"entry-list\">\n"
            for position in positions { main += Fragments.entryItem(index.entries[position], layout: layout) }
            main += "</ul>\n</section>\n"
        }
        main += "</section>\n"

        if !index.tags.isEmpty {
            main += "<section id=\"by-tag\" aria-labelledby=\"by-tag-heading\">\n<h2 id=\"by-tag-heading\">By tag</h2>\n<ul class=\"tag-cloud\">\n"
            for (tag, positions) in index.tags {
                main += "<li><a class=\"tag\" \(HTML.href(layout.link(SitePaths.tag(tag))))>\(HTML.escape(tag)) <span class=\"count\">\(positions.count)</span></a></li>\n"
            }
            main += "</ul>\n</section>\n"
        }
        let search = "<script \(HTML.attribute("src", layout.link(SitePaths.searchCore))) defer></script>\n"
            + "<script \(HTML.attribute("src", layout.link(SitePaths.searchScript))) defer></script>\n"
        return layout.document(title: "TroubleshootKB", description: "A multilingual troubleshooting knowledge base: what was tried, what failed, what worked.",
                               main: main, bodyClass: "page-home", scripts: [search])
    }

    // MARK: Tags

    func tagPage(_ tag: String, positions: [Int]) -> String {
        let path = SitePaths.tag(tag)
        let layout = layout(path)
        var main = "<h1>Tag: <span class=\"tag-name\">\(HTML.escape(tag))</span> <span class=\"count\">\(positions.count)</span></h1>\n"
        main += "<ul class=\"entry-list\">\n"
        for position in positions { main += Fragments.entryItem(index.entries[position], layout: layout) }
        main += "</ul>\n"
        main += "<p><a \(HTML.href(layout.link(SitePaths.home) + "#by-tag"))>All tags</a></p>\n"
        return layout.document(title: "Tag: \(tag) · TroubleshootKB", description: "Entries tagged \(tag).", main: main, bodyClass: "page-tag")
    }

    // MARK: Symptoms

    func symptoms() -> String {
        let layout = layout(SitePaths.symptoms)
        var main = "<h1>Symptoms</h1>\n"
        main += "<p>Every symptom phrase of every entry, grouped by the language it is written in.</p>\n"
        if index.symptoms.count > 1 {
            main += "<nav class=\"toc\" aria-label=\"Languages\"><ul>"
            main += index.symptoms.map { "<li><a \(HTML.href("#symptoms-\($0.language.rawValue)")) \(HTML.attribute("lang", $0.language.htmlLang(entryLang: "")))>\(HTML.escape($0.language.name))</a> <span class=\"count\">\($0.links.count)</span></li>" }.joined()
            main += "</ul></nav>\n"
        }
        for (language, links) in index.symptoms {
            main += "<section class=\"group\" \(HTML.attribute("id", "symptoms-" + language.rawValue))>\n"
            main += "<h2><span \(HTML.attribute("lang", language.htmlLang(entryLang: "")))>\(HTML.escape(language.name))</span> <span class=\"count\">\(links.count)</span></h2>\n"
            main += "<ul class=\"symptom-list\">\n"
            for link in links {
                let item = index.entries[link.entry]
                let lang = language.htmlLang(entryLang: item.meta.lang)
                main += "<li><a \(HTML.href(layout.link(item.path) + "#" + link.fragment)) \(HTML.attribute("lang", lang))>\(HTML.escape(link.phrase))</a>"
                main += " <span class=\"from\">— <span \(HTML.attribute("lang", item.meta.lang))>\(HTML.escape(item.title))</span></span></li>\n"
            }
            main += "</ul>\n</section>\n"
        }
        return layout.document(title: "Symptoms · TroubleshootKB", description: "Every symptom phrase, by language.", main: main, bodyClass: "page-symptoms")
    }

    // MARK: 404

    /// The not-found page. Hosts serve it for any missing path at any depth, where relative
    /// links cannot work; with an explicit `--base-url` a `<base>` element makes them resolve
    /// from the site root. Opened from disk it sits at the root and the links work as they are.
    func notFound() -> String {
        let layout = layout(SitePaths.notFound)
        var main = "<h1>Page not found</h1>\n"
        main += "<p>This page does not exist (any more). Try the <a \(HTML.href(layout.link(SitePaths.home)))>home page and its search</a> or the <a \(HTML.href(layout.link(SitePaths.symptoms)))>symptom index</a>.</p>\n"
        let baseElement = base.isExplicit ? "<base \(HTML.href(base.value))>\n" : ""
        return layout.document(title: "Page not found · TroubleshootKB", description: "", main: main, bodyClass: "page-404",
                               canonical: false, headExtra: baseElement)
    }
}
