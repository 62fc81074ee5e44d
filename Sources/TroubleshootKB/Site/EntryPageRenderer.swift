/// The page of one entry: `entries/<id>.html`.
struct EntryPageRenderer {
    let index: SiteIndex
    let base: BaseURL

    func render(_ item: SiteEntry) -> String {
        let entry = item.entry
        let meta = item.meta
        let strings = SiteStrings.forLanguage(meta.lang)
        let layout = PageLayout(path: item.path, lang: meta.lang.isEmpty ? "en" : meta.lang, strings: strings, base: base)
        let attemptChecks = checkResults(item)
        var main = "<article class=\"entry\">\n"
        main += header(item, layout: layout, strings: strings)
        main += toc(item, strings: strings)
        if let problem = entry.problem {
            main += section(problem, id: "problem", fallbackHeading: strings.problem)
        }
        if !entry.attempts.isEmpty || entry.attemptsIntro != nil {
            main += timeline(entry, strings: strings, checks: attemptChecks)
        }
        if let fix = entry.fix {
            var extra = ""
            if let check = attemptChecks["fix"] { extra = "<p class=\"check-result\">\(Fragments.checkBadge(check.verdict))\(message(check))</p>\n" }
            main += section(fix, id: "fix", fallbackHeading: strings.fix, className: "fix", afterHeading: extra)
        }
        if let sideEffects = entry.sideEffects {
            main += section(sideEffects, id: "side-effects", fallbackHeading: strings.sideEffects)
        }
        if let lessons = entry.lessons {
            main += section(lessons, id: "lessons", fallbackHeading: strings.lessons)
        }
        if let references = entry.references {
            main += section(references, id: "references", fallbackHeading: strings.references)
        }
        main += related(item, layout: layout, strings: strings)
        for (number, note) in entry.notes.enumerated() {
            main += section(note, id: "notes-\(number + 1)", fallbackHeading: strings.notes, className: "notes")
        }
        main += scenarioAndChecks(item, strings: strings)
        main += "</article>\n"
        return layout.document(title: item.title + " · TroubleshootKB", description: meta.summary, main: main, bodyClass: "page-entry")
    }

    // MARK: Header

    func header(_ item: SiteEntry, layout: PageLayout, strings: SiteStrings) -> String {
        let meta = item.meta
        var out = "<header class=\"entry-header\">\n"
        out += "<h1>\(HTML.escape(item.title))</h1>\n"
        if !meta.summary.isEmpty { out += "<p class=\"summary\">\(HTML.escape(meta.summary))</p>\n" }
        out += "<dl class=\"facts\">\n"
        out += "<div><dt>\(HTML.escape(strings.status))</dt><dd>\(Fragments.statusBadge(meta.status, strings: strings))"
        if let check = item.check {
            out += " " + Fragments.checkBadge(check.verdict, title: check.checkedAt)
        }
        out += "</dd></div>\n"
        if !meta.updated.isEmpty {
            out += "<div><dt>\(HTML.escape(strings.updated))</dt><dd><time \(HTML.attribute("datetime", meta.updated))>\(HTML.escape(meta.updated))</time></dd></div>\n"
        }
        if !meta.platforms.isEmpty {
            out += "<div><dt>\(HTML.escape(strings.platforms))</dt><dd><ul class=\"inline-list\">"
            out += meta.platforms.map { "<li>\(HTML.escape($0))</li>" }.joined()
            out += "</ul></dd></div>\n"
        }
        let tags = meta.tags.filter { !$0.isEmpty }
        if !tags.isEmpty {
            out += "<div><dt>\(HTML.escape(strings.tags))</dt><dd><ul class=\"inline-list tags\">"
            out += tags.map { "<li><a class=\"tag\" \(HTML.href(layout.link(SitePaths.tag($0))))>\(HTML.escape($0))</a></li>" }.joined()
            out += "</ul></dd></div>\n"
        }
        out += "</dl>\n"
        if !meta.symptoms.isEmpty {
            out += "<section id=\"symptoms\" class=\"symptoms\" aria-labelledby=\"symptoms-heading\">\n"
            out += "<h2 id=\"symptoms-heading\">\(HTML.escape(strings.symptoms))</h2>\n<ul class=\"chips\">\n"
            for (number, symptom) in meta.symptoms.enumerated() {
                let lang = ScriptLanguage.detect(symptom).htmlLang(entryLang: meta.lang)
                let langAttribute = lang == meta.lang ? "" : " " + HTML.attribute("lang", lang)
                out += "<li id=\"symptom-\(number + 1)\" class=\"chip\"\(langAttribute)>\(HTML.escape(symptom))</li>\n"
            }
            out += "</ul>\n</section>\n"
        }
        if !meta.apis.isEmpty {
            let list = "<ul class=\"inline-list apis\" lang=\"en\">" + meta.apis.map { "<li><code>\(HTML.escape($0))</code></li>" }.joined() + "</ul>\n"
            if meta.apis.count > 12 {
                out += "<details class=\"apis-block\"><summary>\(HTML.escape(strings.apis)) (\(meta.apis.count))</summary>\n\(list)</details>\n"
            } else {
                out += "<div class=\"apis-block\"><h2 class=\"small-heading\">\(HTML.escape(strings.apis))</h2>\n\(list)</div>\n"
            }
        }
        out += "</header>\n"
        return out
    }

    func toc(_ item: SiteEntry, strings: SiteStrings) -> String {
        let entry = item.entry
        var links: [(String, String)] = []
        if let problem = entry.problem { links.append(("problem", problem.heading ?? strings.problem)) }
        if !entry.attempts.isEmpty { links.append(("attempts", entry.attemptsIntro?.heading ?? strings.attempts)) }
        if let fix = entry.fix { links.append(("fix", fix.heading ?? strings.fix)) }
        if let lessons = entry.lessons { links.append(("lessons", lessons.heading ?? strings.lessons)) }
        if item.scenario != nil || item.check != nil { links.append(("checks", strings.scenario)) }
        guard links.count > 1 else { return "" }
        var out = "<nav class=\"toc\" \(HTML.attribute("aria-label", strings.onThisPage))><ul>"
        out += links.map { "<li><a \(HTML.href("#" + $0.0))>\(HTML.escape($0.1))</a></li>" }.joined()
        out += "</ul></nav>\n"
        return out
    }

    // MARK: Sections

    func section(_ section: Section, id: String, fallbackHeading: String, className: String = "", afterHeading: String = "") -> String {
        let heading = section.headingBlock.map(Fragments.headingContent) ?? HTML.escape(fallbackHeading)
        var out = "<section \(HTML.attribute("id", id)) \(HTML.attribute("class", className.isEmpty ? "entry-section" : "entry-section " + className))>\n"
        out += "<h2>\(heading)</h2>\n"
        out += afterHeading
        for block in section.blocks { out += Fragments.blockHTML(block) }
        out += "</section>\n"
        return out
    }

    // MARK: Attempt timeline

    func timeline(_ entry: Entry, strings: SiteStrings, checks: [String: SiteCheckReport.AttemptResult]) -> String {
        var out = "<section id=\"attempts\" class=\"entry-section attempts\">\n"
        out += "<h2>\(entry.attemptsIntro?.headingBlock.map(Fragments.headingContent) ?? HTML.escape(strings.attempts))</h2>\n"
        if let intro = entry.attemptsIntro {
            for block in intro.blocks { out += Fragments.blockHTML(block) }
        }
        out += "<ol class=\"timeline\">\n"
        for attempt in entry.attempts {
            out += card(attempt, strings: strings, check: checks[attempt.anchor])
        }
        out += "</ol>\n</section>\n"
        return out
    }

    func card(_ attempt: Attempt, strings: SiteStrings, check: SiteCheckReport.AttemptResult?) -> String {
        let outcome = attempt.outcome.rawValue
        var out = "<li class=\"attempt attempt-\(outcome)\" \(HTML.attribute("id", attempt.anchor))>\n"
        out += "<div class=\"attempt-head\">\n"
        out += Fragments.outcomeLabel(attempt.outcome, strings: strings) + "\n"
        out += "<h3><a class=\"self-link\" \(HTML.href("#" + attempt.anchor))>\(Fragments.headingContent(attempt.headingBlock))</a></h3>\n"
        if let check { out += "<p class=\"check-result\">\(Fragments.checkBadge(check.verdict))\(message(check))</p>\n" }
        out += "</div>\n<div class=\"attempt-body\">\n"
        var openList = false
        for part in attempt.parts {
            let role = "part part-\(part.role.rawValue)"
            if part.block.kind == .item {
                if !openList { out += "<ul class=\"parts\">\n"; openList = true }
                out += "<li class=\"\(role)\">" + Self.itemContent(part.block) + "</li>\n"
                continue
            }
            if openList { out += "</ul>\n"; openList = false }
            out += "<div class=\"\(role)\">\n" + Fragments.blockHTML(part.block) + "</div>\n"
        }
        if openList { out += "</ul>\n" }
        out += "</div>\n</li>\n"
        return out
    }

    /// A list item's HTML without cmark's `<li>` and `</li>`.
    static func itemContent(_ block: MarkdownNode) -> String {
        let html = Fragments.blockHTML(block)
        guard html.hasPrefix("<li>") else { return html }
        var inner = html.dropFirst(4)
        while inner.last == "\n" { inner = inner.dropLast() }
        if inner.hasSuffix("</li>") { inner = inner.dropLast(5) }
        return String(inner)
    }

    // MARK: Related, scenario and checks

    func related(_ item: SiteEntry, layout: PageLayout, strings: SiteStrings) -> String {
        guard !item.meta.related.isEmpty else { return "" }
        var out = "<section id=\"related\" class=\"entry-section related\">\n<h2>\(HTML.escape(strings.related))</h2>\n<ul>\n"
        for id in item.meta.related {
            if let other = index.entry(id: id) {
                out += "<li><a \(HTML.href(layout.link(other.path))) \(HTML.attribute("lang", other.meta.lang))>\(HTML.escape(other.title))</a> \(Fragments.statusBadge(other.meta.status, strings: strings))</li>\n"
            } else {
                out += "<li>\(HTML.escape(id))</li>\n"
            }
        }
        out += "</ul>\n</section>\n"
        return out
    }

    /// The latest verdict per anchor, for anchors the page has.
    func checkResults(_ item: SiteEntry) -> [String: SiteCheckReport.AttemptResult] {
        guard let check = item.check else { return [:] }
        var result: [String: SiteCheckReport.AttemptResult] = [:]
        for attempt in check.attempts { result[attempt.anchor] = attempt }
        return result
    }

    func message(_ check: SiteCheckReport.AttemptResult) -> String {
        guard let message = check.message, !message.isEmpty else { return "" }
        return " <span class=\"check-message\">\(HTML.escape(message))</span>"
    }

    /// Links to the rules of the model page (`model/navigation-bar/index.html#NB-3`).
    func ruleLinks(_ rules: [String], item: SiteEntry, wrap: Bool = true) -> String {
        guard !rules.isEmpty else { return "" }
        let page = SitePaths.relative(SitePaths.navigationBarModel, from: item.path)
        let known = Set(NavigationBarRules.catalogue.map(\.id))
        let links = rules.map { rule in
            known.contains(rule) ? "<a class=\"rule\" \(HTML.href(page + "#" + rule))>\(HTML.escape(rule))</a>" : HTML.escape(rule)
        }.joined(separator: ", ")
        return wrap ? " <span class=\"rules\" lang=\"en\">rules: \(links)</span>" : links
    }

    func scenarioAndChecks(_ item: SiteEntry, strings: SiteStrings) -> String {
        guard item.scenario != nil || item.check != nil else { return "" }
        var out = "<section id=\"checks\" class=\"entry-section checks\">\n<h2>\(HTML.escape(strings.scenario))</h2>\n"
        if let check = item.check {
            out += "<h3>\(HTML.escape(strings.checkResults))</h3>\n"
            out += "<p>\(Fragments.checkBadge(check.verdict))"
            if !check.checkedAt.isEmpty {
                out += " <span class=\"muted\">\(HTML.escape(strings.lastCheck)): <time \(HTML.attribute("datetime", check.checkedAt))>\(HTML.escape(check.checkedAt))</time></span>"
            }
            out += "</p>\n"
            if !check.attempts.isEmpty {
                let anchors = Set(item.entry.attempts.map(\.anchor) + (item.entry.fix == nil ? [] : ["fix"]))
                out += "<table class=\"check-table\">\n<thead><tr><th scope=\"col\">#</th><th scope=\"col\">\(HTML.escape(strings.lastCheck))</th><th scope=\"col\"></th></tr></thead>\n<tbody>\n"
                for attempt in check.attempts {
                    let label = anchors.contains(attempt.anchor)
                        ? "<a \(HTML.href("#" + attempt.anchor))>\(HTML.escape(attempt.anchor))</a>"
                        : HTML.escape(attempt.anchor)
                    out += "<tr><th scope=\"row\">\(label)</th><td>\(Fragments.checkBadge(attempt.verdict))</td><td>\(HTML.escape(attempt.message ?? ""))\(ruleLinks(attempt.rules, item: item))</td></tr>\n"
                }
                out += "</tbody>\n</table>\n"
            }
            let rules = NavigationBarRules.sortIDs(check.attempts.flatMap(\.rules))
            if !rules.isEmpty {
                out += "<p class=\"model-note\" lang=\"en\">Checked against the <a \(HTML.href(SitePaths.relative(SitePaths.navigationBarModel, from: item.path)))>navigation-bar model</a> (rules \(ruleLinks(rules, item: item, wrap: false))), not a device.</p>\n"
            }
        }
        if let scenario = item.scenario {
            out += "<h3><code>\(HTML.escape(scenario.name))</code></h3>\n"
            out += ScenarioRenderer.render(scenario.text)
        }
        out += "</section>\n"
        return out
    }
}
