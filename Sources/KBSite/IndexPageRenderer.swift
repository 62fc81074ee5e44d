import Dispatch
import KBCore
import KBSearch
import KBScenarios

/// The pages about many entries: home, the pages of tag and language lists, the symptom index
/// and its pages, and 404. Lists stay small at any size: the home page shows the newest
/// `SiteIndex.homeListSize` entries per language and links to the language's list; lists have
/// pages of `SiteIndex.listPageSize` entries with links to every page of the list.
struct IndexPageRenderer {
    let index: SiteIndex
    let base: BaseURL
    let items: EntryListItems
    let settings: SiteSettings
    /// The theme's stylesheet, inlined into 404.html (empty: the page links it instead).
    let stylesheet: String

    init(index: SiteIndex, base: BaseURL, items: EntryListItems? = nil, settings: SiteSettings = .init(), stylesheet: String = "") {
        self.index = index
        self.base = base
        self.settings = settings
        self.stylesheet = stylesheet
        self.items = items ?? EntryListItems(index: index)
    }

    static let languageNames: [String: String] = [
        "zh-Hans": "简体中文", "zh-Hant": "繁體中文", "ko": "한국어", "ja": "日本語", "en": "English",
    ]

    func layout(_ path: String) -> PageLayout {
        PageLayout(path: path, lang: "en", strings: .english, base: base, settings: settings)
    }

    /// A page as a string (tests and callers without a buffer).
    static func string(_ render: (inout HTMLBuffer) -> Void) -> String {
        var html = HTMLBuffer()
        render(&html)
        return String(decoding: html.bytes, as: UTF8.self)
    }

    // MARK: Home

    /// Marks the page `kb-query` from its first paint when it is opened with `?q=` (the header
    /// search of every other page): the style sheet then keeps room for the results, so the
    /// lists below do not move when they arrive (search.js drops the mark once the reader types).
    static let queryFlag = "<script>if (/[?&]q=[^&]/.test(location.search)) document.documentElement.classList.add(\"kb-query\");</script>\n"

    func home(into html: inout HTMLBuffer) {
        let layout = layout(SitePaths.home)
        let root = layout.root
        layout.open(&html, title: settings.title, siteTitle: false, description: settings.description,
                    bodyClass: "page-home", headExtra: Self.queryFlag,
                    scripts: [SitePaths.script, SitePaths.searchCore, SitePaths.searchScript])
        html.raw("<h1 class=\"visually-hidden\">")
        html.text(settings.title)
        html.raw("</h1>\n<form class=\"search\" role=\"search\"")
        html.attribute("action", SitePaths.home)
        html.raw(" method=\"get\">\n<label for=\"search\">")
        html.text(layout.strings.search.label)
        html.raw("</label>\n")
        html.raw("<div class=\"search-row\"><input id=\"search\" name=\"q\" type=\"search\" autocomplete=\"off\" spellcheck=\"false\" placeholder=\"症状 · 증상 · 症状 · symptom\"></div>\n</form>\n")
        // The count is announced (role=status); the list itself is not re-read on every keystroke.
        // search.js reads its words from the list (the page's language).
        let words = layout.strings.search
        html.raw("<p id=\"search-status\" class=\"visually-hidden\" role=\"status\"></p>\n<ol id=\"results\" class=\"results\"")
        html.attribute("data-one-result", words.oneResult)
        html.attribute("data-results", words.results)
        html.attribute("data-no-results", words.noResults)
        html.attribute("data-unavailable", words.unavailable)
        html.raw("></ol>\n")
        let symptomCount = index.symptoms.reduce(0) { $0 + $1.links.count }
        html.raw("<p class=\"stats\">")
        html.number(index.entries.count)
        html.raw(index.entries.count == 1 ? " entry · " : " entries · ")
        html.number(index.languages.count)
        html.raw(index.languages.count == 1 ? " language · <a" : " languages · <a")
        html.link(root, SitePaths.symptoms)
        html.raw(">")
        html.number(symptomCount)
        html.raw(symptomCount == 1 ? " symptom</a></p>\n" : " symptoms</a></p>\n")

        html.raw("<section id=\"by-language\" aria-labelledby=\"by-language-heading\">\n<h2 id=\"by-language-heading\">By language</h2>\n")
        Self.legend(into: &html)
        for group in settings.ordered(index.languages, language: \.name) {
            let name = Self.languageNames[group.name] ?? group.name
            html.raw("<section class=\"group\"")
            html.attribute("id", "lang-" + SitePaths.tagSlug(group.name.lowercased()))
            html.raw(">\n<h3><a")
            html.link(root, group.path(page: 1))
            html.raw("><span")
            html.attribute("lang", group.name)
            html.raw(">")
            html.text(name)
            html.raw("</span></a> <span class=\"count\">")
            html.number(group.entries.count)
            html.raw("</span></h3>\n<ul class=\"entry-list\">\n")
            for position in group.entries.prefix(SiteIndex.homeListSize) { items.write(position, root: root, into: &html) }
            html.raw("</ul>\n")
            if group.entries.count > SiteIndex.homeListSize {
                html.raw("<p class=\"more\"><a")
                html.link(root, group.path(page: 1))
                html.raw(">All ")
                html.number(group.entries.count)
                html.raw(" entries in <span")
                html.attribute("lang", group.name)
                html.raw(">")
                html.text(name)
                html.raw("</span></a></p>\n")
            }
            html.raw("</section>\n")
        }
        html.raw("</section>\n")

        if !index.tags.isEmpty {
            html.raw("<section id=\"by-tag\" aria-labelledby=\"by-tag-heading\">\n<h2 id=\"by-tag-heading\">By tag</h2>\n<ul class=\"tag-cloud\">\n")
            for group in index.tags {
                html.raw("<li><a")
                html.link(root, group.path(page: 1))
                html.raw(">")
                html.text(group.name)
                html.raw(" <span class=\"count\">")
                html.number(group.entries.count)
                html.raw("</span></a></li>\n")
            }
            html.raw("</ul>\n</section>\n")
        }
        layout.close(&html)
    }

    // MARK: Tag and language lists

    /// A page (1-based) of a tag's list.
    func tagPage(_ group: ListGroup, page: Int, into html: inout HTMLBuffer) {
        let layout = layout(group.path(page: page))
        layout.open(&html, title: "Tag: " + group.name + Self.pageSuffix(page, of: group.pageCount),
                    description: "Entries tagged \(group.name).", bodyClass: "page-tag")
        html.raw("<h1>Tag: <span class=\"tag-name\">")
        html.text(group.name)
        html.raw("</span> <span class=\"count\">")
        html.number(group.entries.count)
        html.raw("</span></h1>\n")
        list(group, page: page, layout: layout, into: &html)
        html.raw("<p><a")
        html.link(layout.root, SitePaths.home, fragment: "by-tag")
        html.raw(">All tags</a></p>\n")
        layout.close(&html)
    }

    /// A page (1-based) of a language's list.
    func languagePage(_ group: ListGroup, page: Int, into html: inout HTMLBuffer) {
        let layout = layout(group.path(page: page))
        let name = Self.languageNames[group.name] ?? group.name
        layout.open(&html, title: "Entries in " + name + Self.pageSuffix(page, of: group.pageCount),
                    description: "Entries written in \(name).", bodyClass: "page-language")
        html.raw("<h1>Entries in <span")
        html.attribute("lang", group.name)
        html.raw(">")
        html.text(name)
        html.raw("</span> <span class=\"count\">")
        html.number(group.entries.count)
        html.raw("</span></h1>\n")
        list(group, page: page, layout: layout, into: &html)
        html.raw("<p><a")
        html.link(layout.root, SitePaths.home, fragment: "by-language")
        html.raw(">All languages</a></p>\n")
        layout.close(&html)
    }

    static func pageSuffix(_ page: Int, of count: Int) -> String {
        count > 1 ? " (page \(page) of \(count))" : ""
    }

    /// The entries of one page of a list, then links to every page of it.
    func list(_ group: ListGroup, page: Int, layout: PageLayout, into html: inout HTMLBuffer) {
        let pages = group.pageCount
        if pages > 1 {
            html.raw("<p class=\"page-of\">Page ")
            html.number(page)
            html.raw(" of ")
            html.number(pages)
            html.raw("</p>\n")
        }
        Self.legend(into: &html)
        html.raw("<ul class=\"entry-list\">\n")
        for position in group.entries(page: page) { items.write(position, root: layout.root, into: &html) }
        html.raw("</ul>\n")
        pageLinks(pages, current: page, into: &html)
    }

    /// `1 2 3 …` links to every page of a list (the current one marked), when there is more than
    /// one. The pages of a list share a folder: the links are file names (`SitePaths.listPage`,
    /// or `SitePaths.symptomPage` for a symptom group).
    func pageLinks(_ pages: Int, current: Int, symptomGroup: String? = nil, into html: inout HTMLBuffer) {
        guard pages > 1 else { return }
        html.raw("<nav class=\"pages\" aria-label=\"Pages\"><ol>")
        for page in 1...pages {
            html.raw("<li><a href=\"")
            if let symptomGroup {
                html.raw(symptomGroup)
                html.raw("-")
                html.number(page)
                html.raw(".html\"")
            } else if page == 1 {
                html.raw("index.html\"")
            } else {
                html.raw("page-")
                html.number(page)
                html.raw(".html\"")
            }
            if page == current { html.raw(" aria-current=\"page\"") }
            html.raw(">")
            html.number(page)
            html.raw("</a></li>")
        }
        html.raw("</ol></nav>\n")
    }

    /// What the attempt marks of the lists (✗ △ ✓ ⊘) stand for, in the list page's language.
    /// Each line's marks also carry their words in the entry's language (`aria-label`, `title`).
    static func legend(into html: inout HTMLBuffer) {
        let strings = SiteStrings.english
        html.raw("<p class=\"legend\"><span class=\"legend-label\">")
        html.text(PageWords.english.legend)
        html.raw("</span>")
        for outcome in [Outcome.failed, .partial, .worked, .rejected] {
            html.raw(" <span class=\"legend-item\"><span class=\"outcome-")
            html.raw(outcome.rawValue)
            html.raw("\" aria-hidden=\"true\">")
            html.raw(outcome.symbol)
            html.raw("</span> ")
            html.text(strings.outcome(outcome))
            html.raw("</span>")
        }
        html.raw("</p>\n")
    }

    // MARK: Symptoms

    /// The symptom index: small groups in full, large ones as links to their pages, each
    /// named by the phrases it starts and ends with.
    func symptoms(into html: inout HTMLBuffer) {
        let layout = layout(SitePaths.symptoms)
        layout.open(&html, title: "Symptoms", description: "Every symptom phrase, by language.", bodyClass: "page-symptoms")
        html.raw("<h1>Symptoms</h1>\n<p>Every symptom phrase of every entry, grouped by the language it is written in.</p>\n")
        if index.symptoms.count > 1 {
            html.raw("<nav class=\"toc\" aria-label=\"Languages\"><ul>")
            for group in index.symptoms {
                html.raw("<li><a href=\"#symptoms-")
                html.raw(group.language.rawValue)
                html.raw("\"")
                html.attribute("lang", group.language.htmlLang(entryLang: ""))
                html.raw(">")
                html.text(group.language.name)
                html.raw("</a> <span class=\"count\">")
                html.number(group.links.count)
                html.raw("</span></li>")
            }
            html.raw("</ul></nav>\n")
        }
        for group in index.symptoms {
            let lang = group.language.htmlLang(entryLang: "")
            html.raw("<section class=\"group\" id=\"symptoms-")
            html.raw(group.language.rawValue)
            html.raw("\">\n<h2><span")
            html.attribute("lang", lang)
            html.raw(">")
            html.text(group.language.name)
            html.raw("</span> <span class=\"count\">")
            html.number(group.links.count)
            html.raw("</span></h2>\n")
            let pages = group.pageCount
            if pages == 0 {
                symptomList(group.links, group.links.indices, language: group.language, layout: layout, into: &html)
            } else {
                html.raw("<ol class=\"symptom-pages\"")
                html.attribute("lang", lang)
                html.raw(">\n")
                for page in 1...pages {
                    let links = group.links(page: page)
                    let first = links.first!, last = links.last!
                    html.raw("<li><a")
                    html.link("", layout.link(group.path(page: page)))
                    html.raw(">")
                    html.text(index.phrase(first))
                    if first.phrase != last.phrase {
                        html.raw(" … ")
                        html.text(index.phrase(last))
                    }
                    html.raw("</a> <span class=\"count\" lang=\"en\">")
                    html.number(links.count)
                    html.raw("</span></li>\n")
                }
                html.raw("</ol>\n")
            }
            html.raw("</section>\n")
        }
        layout.close(&html)
    }

    /// A page (1-based) of a large symptom group.
    func symptomPage(_ group: SymptomGroup, page: Int, into html: inout HTMLBuffer) {
        let layout = layout(group.path(page: page))
        let pages = group.pageCount
        layout.open(&html, title: "Symptoms: " + group.language.name + Self.pageSuffix(page, of: pages),
                    description: "Symptom phrases in \(group.language.name).", bodyClass: "page-symptoms")
        html.raw("<h1>Symptoms: <span")
        html.attribute("lang", group.language.htmlLang(entryLang: ""))
        html.raw(">")
        html.text(group.language.name)
        html.raw("</span></h1>\n<p class=\"page-of\">Page ")
        html.number(page)
        html.raw(" of ")
        html.number(pages)
        html.raw("</p>\n")
        symptomList(group.links, group.links(page: page).indices, language: group.language, layout: layout, into: &html)
        pageLinks(pages, current: page, symptomGroup: group.language.rawValue, into: &html)
        html.raw("<p><a")
        html.link("", layout.link(SitePaths.symptoms), fragment: "symptoms-" + group.language.rawValue)
        html.raw(">All symptoms</a></p>\n")
        layout.close(&html)
    }

    /// Symptom links, each phrase once: a phrase of one entry links to it (the entry's title
    /// beside it); a phrase several entries share is followed by their titles, each a link.
    /// `lang` is written where it differs from the list's.
    /// `range` is the part of the group's `links` the page shows; a phrase whose links go on
    /// from the previous page says so, and its count is that of the whole group.
    func symptomList(_ links: [SymptomLink], _ range: Range<Int>, language: ScriptLanguage, layout: PageLayout, into html: inout HTMLBuffer) {
        let listLang = language.htmlLang(entryLang: "")
        html.raw("<ul class=\"symptom-list\"")
        html.attribute("lang", listLang)
        html.raw(">\n")
        var start = range.lowerBound
        while start < range.upperBound {
            let number = links[start].phrase, phrase = index.symptomPhrases[number]
            var end = start + 1
            while end < range.upperBound && links[end].phrase == number { end += 1 }
            // The whole run of the phrase, across pages.
            var runStart = start, runEnd = end
            while runStart > 0 && links[runStart - 1].phrase == number { runStart -= 1 }
            while runEnd < links.count && links[runEnd].phrase == number { runEnd += 1 }
            let first = index.entries[links[start].entry]
            let phraseLang = language.htmlLang(entryLang: first.lang)
            if runEnd - runStart == 1 {
                html.raw("<li><a")
                html.link(layout.root, first.path, fragment: index.fragment(links[start]))
                if phraseLang != listLang { html.attribute("lang", phraseLang) }
                html.raw(">")
                html.text(phrase)
                html.raw("</a> <span class=\"from\"")
                if first.lang != listLang { html.attribute("lang", first.lang) }
                html.raw(">— ")
                html.text(first.title)
                html.raw("</span></li>\n")
            } else {
                html.raw("<li><span class=\"phrase\"")
                if phraseLang != listLang { html.attribute("lang", phraseLang) }
                html.raw(">")
                html.text(phrase)
                html.raw("</span> <span class=\"count\">")
                html.number(runEnd - runStart)
                html.raw(runStart < start ? "</span> <span class=\"muted\" lang=\"en\">(continued)</span><ul>\n" : "</span><ul>\n")
                for link in links[start..<end] {
                    let item = index.entries[link.entry]
                    html.raw("<li><a")
                    html.link(layout.root, item.path, fragment: index.fragment(link))
                    if item.lang != listLang { html.attribute("lang", item.lang) }
                    html.raw(">")
                    html.text(item.title)
                    html.raw("</a></li>\n")
                }
                html.raw("</ul></li>\n")
            }
            start = end
        }
        html.raw("</ul>\n")
    }

    // MARK: 404

    /// The not-found page. Hosts serve it for any missing path at any depth, where relative
    /// links cannot work; with an explicit `--base-url` a `<base>` element makes them resolve
    /// from the site root, without one a script finds the root (`NotFoundPage`). The stylesheet
    /// is inlined. Opened from disk it sits at the root and the links work as they are.
    func notFound(into html: inout HTMLBuffer) {
        let layout = layout(SitePaths.notFound)
        let baseElement = base.isExplicit ? "<base \(HTML.href(base.value))>\n" : ""
        let style = stylesheet.isEmpty ? nil : NotFoundPage.styleElement(stylesheet)
        layout.open(&html, title: "Page not found", description: "", bodyClass: "page-404", canonical: false, headExtra: baseElement,
                    inlineStyle: style)
        html.raw("<h1>Page not found</h1>\n<p>This page does not exist (any more). Try the <a")
        html.link(layout.root, SitePaths.home)
        html.raw(">home page and its search</a> or the <a")
        html.link(layout.root, SitePaths.symptoms)
        html.raw(">symptom index</a>.</p>\n")
        if !base.isExplicit { html.raw(NotFoundPage.rootFinder + "\n") }
        layout.close(&html)
    }
}

/// Each entry's line in the lists (home, tags, languages) — title link, badges, the attempts
/// at a glance, summary — made once and copied into every list that shows it. Only the way
/// back to the site root (`../../`) differs from list to list; it is written before the path.
struct EntryListItems: Sendable {
    /// Per entry: the line after `<li><a href="` and the root prefix.
    let lines: [[UInt8]]

    /// The lines of every entry of the index (or of the entries at `positions` only, the others
    /// left empty), made on all cores.
    init(index: SiteIndex, positions: [Int]? = nil) {
        guard let positions else {
            lines = Parallel.map(index.entries.count) { Self.line(index.entries[$0], check: index.checks[$0]) }
            return
        }
        let made = Parallel.map(positions.count) { Self.line(index.entries[positions[$0]], check: index.checks[positions[$0]]) }
        var lines = [[UInt8]](repeating: [], count: index.entries.count)
        for (k, position) in positions.enumerated() { lines[position] = made[k] }
        self.lines = lines
    }

    func write(_ position: Int, root: String, into html: inout HTMLBuffer) {
        html.raw("<li><a href=\"")
        html.raw(root)
        html.raw(lines[position])
    }

    /// The line speaks the entry's language: its status, check result and attempts are in the
    /// words of its own page (`lang` on each, as on the title), whatever the list page's language.
    static func line(_ item: SiteListing, check: SiteCheckReport.EntryResult?) -> [UInt8] {
        let strings = SiteStrings.forLanguage(item.lang)
        let words = PageWords.forLanguage(item.lang)
        var html = HTMLBuffer(capacity: 512)
        html.text(item.path)
        html.raw("\"")
        html.attribute("lang", item.lang)
        html.raw(">")
        html.text(item.title)
        html.raw("</a> ")
        Fragments.statusBadge(item.status, strings: strings, lang: item.lang, into: &html)
        if let check {
            html.raw(" ")
            Fragments.checkBadge(check.verdict, recordedFailure: nil, words: CheckWords.forLanguage(item.lang),
                                 title: EntryPageRenderer.checkedTitle(check, strings: strings, words: words, lang: item.lang), lang: item.lang,
                                 into: &html)
        }
        let attempts = item.attempts
        if !attempts.isEmpty {
            // Runs of attempts with the same outcome share one span and one phrase of the label
            // ("Attempts: 1–5 failed, 6 worked"): lists of thousands of entries stay small. The
            // label is also the title, so the marks say what they are to the eye too.
            var runs: [(first: Int, last: Int)] = []
            for k in attempts.indices {
                if let last = runs.last, attempts[last.first].outcome == attempts[k].outcome {
                    runs[runs.count - 1].last = k
                } else {
                    runs.append((k, k))
                }
            }
            var label = strings.attempts + words.colon
            for (n, run) in runs.enumerated() {
                if n > 0 { label += words.listSeparator }
                label += attempts[run.first].number
                if run.last > run.first { label += "–" + attempts[run.last].number }
                label += " " + strings.outcome(attempts[run.first].outcome)
            }
            html.raw(" <span class=\"glance\" role=\"img\"")
            html.attribute("lang", item.lang)
            html.attribute("aria-label", label)
            html.attribute("title", label)
            html.raw(">")
            for run in runs {
                let outcome = attempts[run.first].outcome
                html.raw("<span class=\"outcome-")
                html.raw(outcome.rawValue)
                html.raw("\">")
                for _ in run.first...run.last { html.raw(outcome.symbol) }
                html.raw("</span>")
            }
            html.raw("</span>")
        }
        if !item.summary.isEmpty {
            html.raw("\n<p")
            html.attribute("lang", item.lang)
            html.raw(">")
            html.text(item.summary)
            html.raw("</p>")
        }
        html.raw("</li>\n")
        return html.bytes
    }
}
