import KBCore
import KBSearch
import KBScenarios
/// The page of one entry: `entries/<id>.html`, written straight into a page buffer.
struct EntryPageRenderer {
    let index: SiteIndex
    let base: BaseURL
    var settings = SiteSettings()

    /// The page as a string (tests and callers without a buffer).
    func render(_ item: SiteEntry) -> String {
        var html = HTMLBuffer()
        render(item, into: &html)
        return String(decoding: html.bytes, as: UTF8.self)
    }

    /// The entry's parts are read in place (`item.entry.…`, borrowed), never copied out.
    func render(_ item: SiteEntry, into html: inout HTMLBuffer) {
        let strings = SiteStrings.forLanguage(item.lang)
        let words = PageWords.forLanguage(item.lang)
        let layout = PageLayout(path: item.path, lang: item.lang.isEmpty ? "en" : item.lang, strings: strings, base: base, settings: settings)
        let checks = checkResults(item)
        layout.open(&html, title: item.title, description: item.entry.metadata.summary, bodyClass: "page-entry",
                    scripts: [SitePaths.script], copyWords: true)
        Fragments.breadcrumbs(item, root: layout.root, strings: strings, words: words, into: &html)
        // The contents beside the entry (wide screens) come first, so they come first to the
        // keyboard too; the folded contents (narrow screens) follow the entry's facts.
        let toc = EntryTableOfContents(item, strings: strings)
        html.raw("<div class=\"entry-layout\">\n")
        toc.render(strings: strings, form: .side, into: &html)
        html.raw("<article class=\"entry\">\n")
        header(item, layout: layout, strings: strings, words: words, into: &html) { html in
            toc.render(strings: strings, form: .fold, into: &html)
        }
        if item.entry.problem != nil {
            section(item.entry.problem!.headingBlock, item.entry.problem!.blocks, id: SectionAnchor.problem, fallbackHeading: strings.problem, words: words, into: &html)
        }
        if !item.entry.attempts.isEmpty || item.entry.attemptsIntro != nil {
            timeline(item, strings: strings, words: words, checks: checks, into: &html)
        }
        if item.entry.fix != nil {
            section(item.entry.fix!.headingBlock, item.entry.fix!.blocks, id: RecordAnchor.fix.fragment, fallbackHeading: strings.fix, words: words, into: &html) { html in
                if let check = checks[RecordAnchor.fix.fragment] { checkResult(check, recordedFailure: false, lang: item.lang, into: &html) }
            }
        }
        if item.entry.sideEffects != nil {
            section(item.entry.sideEffects!.headingBlock, item.entry.sideEffects!.blocks, id: SectionAnchor.sideEffects, fallbackHeading: strings.sideEffects,
                    words: words, into: &html)
        }
        if item.entry.lessons != nil {
            section(item.entry.lessons!.headingBlock, item.entry.lessons!.blocks, id: SectionAnchor.lessons, fallbackHeading: strings.lessons, words: words, into: &html)
        }
        if item.entry.references != nil {
            section(item.entry.references!.headingBlock, item.entry.references!.blocks, id: SectionAnchor.references, fallbackHeading: strings.references,
                    words: words, into: &html)
        }
        related(item, layout: layout, strings: strings, words: words, into: &html)
        for number in item.entry.notes.indices {
            section(item.entry.notes[number].headingBlock, item.entry.notes[number].blocks, id: SectionAnchor.notes(number), fallbackHeading: strings.notes,
                    className: "notes", words: words, into: &html)
        }
        scenarioAndChecks(item, layout: layout, strings: strings, words: words, into: &html)
        Fragments.backToTop(words: words, into: &html)
        html.raw("</article>\n</div>\n")
        layout.close(&html)
    }

    // MARK: Header

    /// The title, summary, facts (then `afterFacts`), symptoms and APIs.
    func header(_ item: SiteEntry, layout: PageLayout, strings: SiteStrings, words: PageWords, into html: inout HTMLBuffer,
                afterFacts: (inout HTMLBuffer) -> Void = { _ in }) {
        header(item, meta: item.entry.metadata, layout: layout, strings: strings, words: words, into: &html, afterFacts: afterFacts)
    }

    func header(_ item: SiteEntry, meta: borrowing EntryMetadata, layout: PageLayout, strings: SiteStrings, words: PageWords,
                into html: inout HTMLBuffer, afterFacts: (inout HTMLBuffer) -> Void) {
        html.raw("<header class=\"entry-header\">\n<h1>")
        html.text(item.title)
        html.raw("</h1>\n")
        if !meta.summary.isEmpty {
            html.raw("<p class=\"summary\">")
            html.text(meta.summary)
            html.raw("</p>\n")
        }
        html.raw("<dl class=\"facts\">\n<div><dt>")
        html.text(strings.status)
        html.raw("</dt><dd>")
        Fragments.statusBadge(meta.status, strings: strings, into: &html)
        if let check = item.check {
            html.raw(" ")
            Fragments.checkBadge(check.verdict, recordedFailure: nil, words: CheckWords.forLanguage(item.lang),
                                 title: Self.checkedTitle(check, strings: strings, words: words, lang: item.lang), into: &html)
        }
        html.raw("</dd></div>\n")
        if !meta.updated.isEmpty {
            html.raw("<div><dt>")
            html.text(strings.updated)
            html.raw("</dt><dd>")
            Fragments.time(meta.updated, lang: item.lang, into: &html)
            html.raw("</dd></div>\n")
        }
        if !meta.platforms.isEmpty {
            html.raw("<div><dt>")
            html.text(strings.platforms)
            html.raw("</dt><dd><ul class=\"inline-list\">")
            for platform in meta.platforms {
                html.raw("<li>")
                html.text(platform)
                html.raw("</li>")
            }
            html.raw("</ul></dd></div>\n")
        }
        if meta.tags.contains(where: { !$0.isEmpty }) {
            html.raw("<div><dt>")
            html.text(strings.tags)
            html.raw("</dt><dd><ul class=\"inline-list tags\">")
            for tag in meta.tags where !tag.isEmpty {
                html.raw("<li><a")
                html.tagLink(layout.root, tag)
                html.raw(">")
                html.text(tag)
                html.raw("</a></li>")
            }
            html.raw("</ul></dd></div>\n")
        }
        html.raw("</dl>\n")
        afterFacts(&html)
        if !meta.symptoms.isEmpty {
            html.raw("<section id=\"symptoms\" class=\"symptoms\" aria-labelledby=\"symptoms-heading\">\n<h2 id=\"symptoms-heading\">")
            html.text(strings.symptoms)
            Fragments.headingAnchor(SectionAnchor.symptoms, words: words, into: &html)
            html.raw("</h2>\n<ul class=\"chips\">\n")
            for (number, symptom) in meta.symptoms.enumerated() {
                html.raw("<li")
                html.attribute("id", SectionAnchor.symptom(number))
                let lang = ScriptLanguage.detect(symptom, entryLang: meta.lang).htmlLang(entryLang: meta.lang)
                if lang != meta.lang { html.attribute("lang", lang) }
                html.raw(">")
                html.text(symptom)
                html.raw("</li>\n")
            }
            html.raw("</ul>\n</section>\n")
        }
        if !meta.apis.isEmpty {
            let folded = meta.apis.count > 12
            if folded {
                html.raw("<details id=\"apis\" class=\"apis-block\"><summary>")
                html.text(strings.apis)
                html.raw(" (")
                html.number(meta.apis.count)
                html.raw(")</summary>\n")
            } else {
                html.raw("<div id=\"apis\" class=\"apis-block\"><h2 class=\"small-heading\">")
                html.text(strings.apis)
                Fragments.headingAnchor("apis", words: words, into: &html)
                html.raw("</h2>\n")
            }
            html.raw("<ul class=\"inline-list apis\" lang=\"en\">")
            for api in meta.apis {
                html.raw("<li><code>")
                html.text(api)
                html.raw("</code></li>")
            }
            html.raw(folded ? "</ul>\n</details>\n" : "</ul>\n</div>\n")
        }
        html.raw("</header>\n")
    }

    // MARK: Sections

    /// `<section id=…>` with the section's heading (as written, else the page's word), `afterHeading`
    /// and its blocks.
    func section(_ heading: MarkdownNode?, _ blocks: [MarkdownNode], id: String, fallbackHeading: String, className: StaticString = "",
                 words: PageWords, into html: inout HTMLBuffer, afterHeading: (inout HTMLBuffer) -> Void = { _ in }) {
        html.raw("<section")
        html.attribute("id", id)
        if className.utf8CodeUnitCount > 0 {
            html.raw(" class=\"")
            html.raw(className)
            html.raw("\"")
        }
        html.raw(">\n<h2>")
        if heading != nil {
            Fragments.headingContent(html: heading?.html, plain: heading?.plainText ?? "", into: &html)
        } else {
            html.text(fallbackHeading)
        }
        Fragments.headingAnchor(id, words: words, into: &html)
        html.raw("</h2>\n")
        afterHeading(&html)
        Self.blocks(blocks, into: &html)
        html.raw("</section>\n")
    }

    // MARK: Attempt timeline

    func timeline(_ item: SiteEntry, strings: SiteStrings, words: PageWords, checks: [String: SiteCheckReport.AttemptResult], into html: inout HTMLBuffer) {
        html.raw("<section id=\"attempts\">\n<h2>")
        if item.entry.attemptsIntro?.headingBlock != nil {
            Fragments.headingContent(html: item.entry.attemptsIntro?.headingBlock?.html,
                                     plain: item.entry.attemptsIntro?.headingBlock?.plainText ?? "", into: &html)
        } else {
            html.text(strings.attempts)
        }
        Fragments.headingAnchor("attempts", words: words, into: &html)
        html.raw("</h2>\n")
        if let blocks = item.entry.attemptsIntro?.blocks { Self.blocks(blocks, into: &html) }
        html.raw("<ol class=\"timeline\">\n")
        let attempts = item.entry.attempts
        for k in attempts.indices {
            card(attempts, k, strings: strings, words: words, check: checks.isEmpty ? nil : checks[attempts[k].anchor.fragment], lang: item.lang, into: &html)
        }
        html.raw("</ol>\n</section>\n")
    }

    /// One attempt: the card's class says its outcome (colour and the mark before the word come
    /// from the style sheet); the heading holds the outcome word and the link to the card.
    func card(_ attempts: [Attempt], _ k: Int, strings: SiteStrings, words: PageWords, check: SiteCheckReport.AttemptResult?, lang: String,
              into html: inout HTMLBuffer) {
        let outcome = attempts[k].outcome
        html.raw("<li class=\"attempt attempt-")
        html.raw(outcome.rawValue)
        html.raw("\" id=\"")
        Self.fragment(attempts[k].anchor, into: &html)
        html.raw("\">\n<h3><span class=\"outcome\">")
        html.text(strings.outcome(outcome))
        html.raw("</span> <a href=\"#")
        Self.fragment(attempts[k].anchor, into: &html)
        html.raw("\">")
        Fragments.headingContent(html: attempts[k].headingBlock.html, plain: attempts[k].headingBlock.plainText, into: &html)
        html.raw("</a>")
        Fragments.headingAnchor(attempts[k].anchor.fragment, words: words, into: &html)
        html.raw("</h3>\n")
        if let check { checkResult(check, recordedFailure: [.failed, .partial, .rejected].contains(outcome), lang: lang, into: &html) }
        var openList = false
        // Parts are read through a buffer pointer: in place, without copying a part or its block.
        attempts[k].parts.withUnsafeBufferPointer { parts in
            for p in parts.indices {
                if case .item = parts[p].block.kind {
                    if !openList { html.raw("<ul class=\"parts\">\n"); openList = true }
                    html.raw("<li>")
                    Fragments.itemContent(html: parts[p].block.html, plain: parts[p].block.plainText, into: &html)
                    html.raw("</li>\n")
                    continue
                }
                if openList { html.raw("</ul>\n"); openList = false }
                Fragments.block(html: parts[p].block.html, plain: parts[p].block.plainText, into: &html)
            }
        }
        if openList { html.raw("</ul>\n") }
        html.raw("</li>\n")
    }

    /// `RecordAnchor.fragment` (`attempt-4-1`, `fix`) written into the page without making a string.
    static func fragment(_ anchor: RecordAnchor, into html: inout HTMLBuffer) {
        switch anchor {
        case .fix:
            html.raw(RecordAnchor.fixName)
        case .attempt(let number):
            html.raw(RecordAnchor.attemptPrefix)
            for k in number.parts.indices {
                if k > 0 { html.raw(AttemptNumber.separator) }
                html.number(number.parts[k])
            }
        }
    }

    /// Blocks as cmark rendered them, in order.
    static func blocks(_ blocks: [MarkdownNode], into html: inout HTMLBuffer) {
        blocks.withUnsafeBufferPointer { blocks in
            for k in blocks.indices { Fragments.block(html: blocks[k].html, plain: blocks[k].plainText, into: &html) }
        }
    }

    /// The check result on an attempt card or the fix: what the verdict means for what was
    /// recorded (`CheckWords`), in the page's language; the report's own verdict as the title.
    func checkResult(_ check: SiteCheckReport.AttemptResult, recordedFailure: Bool, lang: String, into html: inout HTMLBuffer) {
        html.raw("<p class=\"check-result\">")
        Fragments.checkBadge(check.verdict, recordedFailure: recordedFailure, words: CheckWords.forLanguage(lang), into: &html)
        if let message = check.message, !message.isEmpty {
            html.raw(" <span class=\"check-message\">")
            html.text(message)
            html.raw("</span>")
        }
        html.raw("</p>\n")
    }

    // MARK: Related, scenario and checks

    func related(_ item: SiteEntry, layout: PageLayout, strings: SiteStrings, words: PageWords, into html: inout HTMLBuffer) {
        let related = item.entry.metadata.related
        guard !related.isEmpty else { return }
        html.raw("<section id=\"related\" class=\"related\">\n<h2>")
        html.text(strings.related)
        Fragments.headingAnchor("related", words: words, into: &html)
        html.raw("</h2>\n<ul>\n")
        for id in related {
            if let other = index.entry(id: id) {
                html.raw("<li><a")
                html.link(layout.root, other.path)
                if other.lang != item.lang { html.attribute("lang", other.lang) }
                html.raw(">")
                html.text(other.title)
                html.raw("</a> ")
                Fragments.statusBadge(other.status, strings: strings, into: &html)
                html.raw("</li>\n")
            } else {
                html.raw("<li>")
                html.text(id)
                html.raw("</li>\n")
            }
        }
        html.raw("</ul>\n</section>\n")
    }

    /// The latest verdict per anchor, for anchors the page has.
    func checkResults(_ item: SiteEntry) -> [String: SiteCheckReport.AttemptResult] {
        guard let check = item.check else { return [:] }
        var result: [String: SiteCheckReport.AttemptResult] = [:]
        for attempt in check.attempts { result[attempt.anchor] = attempt }
        return result
    }

    /// Links to the rules of the model page (`model/navigation-bar/index.html#NB-3`).
    func ruleLinks(_ rules: [String], layout: PageLayout, into html: inout HTMLBuffer) {
        let known = Set(NavigationBarRules.catalogue.map(\.id))
        for (k, rule) in rules.enumerated() {
            if k > 0 { html.raw(", ") }
            if known.contains(rule) {
                html.raw("<a class=\"rule\"")
                html.link(layout.root, SitePaths.navigationBarModel, fragment: rule)
                html.raw(">")
                html.text(rule)
                html.raw("</a>")
            } else {
                html.text(rule)
            }
        }
    }

    /// "Last check: 2 Dec 2026 (reproduces)": the title of the entry's check badge.
    static func checkedTitle(_ check: SiteCheckReport.EntryResult, strings: SiteStrings, words: PageWords, lang: String) -> String {
        guard !check.checkedAt.isEmpty else { return check.verdict.rawValue }
        return strings.lastCheck + words.colon + ReadableDate.format(check.checkedAt, lang: lang) + " (" + check.verdict.rawValue + ")"
    }

    /// The checks section: the entry's verdict and when it was checked, a row per record the
    /// check looked at (its title, what the verdict means for it, the message and model rules),
    /// the note on the model, then the scenario file.
    func scenarioAndChecks(_ item: SiteEntry, layout: PageLayout, strings: SiteStrings, words: PageWords, into html: inout HTMLBuffer) {
        guard item.scenario != nil || item.check != nil else { return }
        let checkWords = CheckWords.forLanguage(item.lang)
        html.raw("<section id=\"checks\" class=\"checks\">\n<h2>")
        html.text(strings.scenario)
        Fragments.headingAnchor("checks", words: words, into: &html)
        html.raw("</h2>\n")
        if let check = item.check {
            html.raw("<h3 id=\"check-results\">")
            html.text(strings.checkResults)
            Fragments.headingAnchor("check-results", words: words, into: &html)
            html.raw("</h3>\n<p>")
            Fragments.checkBadge(check.verdict, recordedFailure: nil, words: checkWords, into: &html)
            if !check.checkedAt.isEmpty {
                html.raw(" <span class=\"muted\">")
                html.text(strings.lastCheck)
                html.text(words.colon)
                Fragments.time(check.checkedAt, lang: item.lang, into: &html)
                html.raw("</span>")
            }
            html.raw("</p>\n")
            if !check.attempts.isEmpty { checkTable(item, check, layout: layout, strings: strings, words: checkWords, into: &html) }
            let rules = NavigationBarRules.sortIDs(check.attempts.flatMap(\.rules))
            if !rules.isEmpty {
                let note = checkWords.modelNote
                html.raw("<p class=\"model-note\">")
                html.text(note.before)
                html.raw("<a")
                html.link(layout.root, SitePaths.navigationBarModel)
                html.raw(">")
                html.text(note.link)
                html.raw("</a>")
                html.text(note.beforeRules)
                ruleLinks(rules, layout: layout, into: &html)
                html.text(note.after)
                html.raw("</p>\n")
            }
        }
        if let scenario = item.scenario {
            html.raw("<h3 id=\"scenario-file\"><code>")
            html.text(scenario.name)
            html.raw("</code>")
            Fragments.headingAnchor("scenario-file", words: words, into: &html)
            html.raw("</h3>\n")
            ScenarioRenderer.render(scenario.text, into: &html)
        }
        html.raw("</section>\n")
    }

    /// A row per record checked: its heading (a link to it), what the verdict means for what
    /// was recorded, the message and the model rules. A row's anchor the page lacks is shown as
    /// the report names it; a scenario linked to no record says so.
    func checkTable(_ item: SiteEntry, _ check: SiteCheckReport.EntryResult, layout: PageLayout, strings: SiteStrings, words: CheckWords,
                    into html: inout HTMLBuffer) {
        let entry = item.entry
        var records: [String: (title: String, recordedFailure: Bool)] = [:]
        for attempt in entry.attempts {
            records[attempt.anchor.fragment] = (attempt.heading, [.failed, .partial, .rejected].contains(attempt.outcome))
        }
        if let fix = entry.fix {
            let heading = fix.headingBlock?.plainText ?? ""
            records[RecordAnchor.fix.fragment] = (heading.isEmpty ? strings.fix : heading, false)
        }
        // The roles keep the table a table for assistive technology when a narrow screen shows
        // each row as a block (style.css).
        html.raw("<table class=\"check-table\" role=\"table\">\n<thead role=\"rowgroup\"><tr role=\"row\"><th scope=\"col\" role=\"columnheader\">")
        html.text(words.recordColumn)
        html.raw("</th><th scope=\"col\" role=\"columnheader\">")
        html.text(words.resultColumn)
        html.raw("</th><th scope=\"col\" role=\"columnheader\">")
        html.text(words.detailsColumn)
        html.raw("</th></tr></thead>\n<tbody role=\"rowgroup\">\n")
        for attempt in check.attempts {
            let record = records[attempt.anchor]
            html.raw("<tr role=\"row\"><th scope=\"row\" role=\"rowheader\">")
            if let record {
                html.raw("<a")
                html.href("#" + attempt.anchor)
                html.raw(">")
                html.text(record.title)
                html.raw("</a>")
            } else if attempt.anchor.isEmpty {
                html.raw("<span class=\"muted\">")
                html.text(words.noRecord)
                html.raw("</span>")
            } else {
                html.text(attempt.anchor)
            }
            html.raw("</th><td role=\"cell\">")
            Fragments.checkBadge(attempt.verdict, recordedFailure: record?.recordedFailure, words: words, into: &html)
            html.raw("</td><td role=\"cell\">")
            html.text(attempt.message ?? "")
            if !attempt.rules.isEmpty {
                html.raw(" <span class=\"rules\">")
                html.text(words.rules)
                html.text(PageWords.forLanguage(item.lang).colon)
                ruleLinks(attempt.rules, layout: layout, into: &html)
                html.raw("</span>")
            }
            html.raw("</td></tr>\n")
        }
        html.raw("</tbody>\n</table>\n")
    }
}
