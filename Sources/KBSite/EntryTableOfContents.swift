import KBCore
import KBSearch
import KBScenarios
/// An entry page's table of contents: every section the page has, in page order, each attempt
/// (its outcome mark, then its heading) under the attempts, linking to the anchors the page
/// writes. Written twice: a `<nav class="toc toc-side">` the style sheet shows
/// sticky beside the content on wide screens, and a collapsed `<details class="toc-fold">` it
/// shows on narrow ones (the other hidden), so neither needs a script.
struct EntryTableOfContents {
    struct Link {
        /// The anchor (`problem`, `attempt-4-1`), an `id` the page writes.
        let anchor: String
        /// Plain text (headings may hold links, which cannot nest in the TOC's own).
        let title: String
        /// The attempt's outcome, shown as its mark; nil for a section.
        let outcome: Outcome?
        var children: [Link] = []
    }

    let links: [Link]

    init(links: [Link]) { self.links = links }

    /// The sections `EntryPageRenderer` writes, in the order it writes them.
    init(_ item: SiteEntry, strings: SiteStrings) {
        let entry = item.entry
        let meta = entry.metadata
        func title(_ section: Section?, _ fallback: String) -> String {
            let heading = section?.headingBlock?.plainText ?? ""
            return heading.isEmpty ? fallback : heading
        }
        var links: [Link] = []
        if !meta.symptoms.isEmpty { links.append(Link(anchor: SectionAnchor.symptoms, title: strings.symptoms, outcome: nil)) }
        if !meta.apis.isEmpty { links.append(Link(anchor: "apis", title: strings.apis, outcome: nil)) }
        if let problem = entry.problem { links.append(Link(anchor: SectionAnchor.problem, title: title(problem, strings.problem), outcome: nil)) }
        if !entry.attempts.isEmpty || entry.attemptsIntro != nil {
            var attempts = Link(anchor: "attempts", title: title(entry.attemptsIntro, strings.attempts), outcome: nil)
            attempts.children = entry.attempts.map { Link(anchor: $0.anchor.fragment, title: $0.heading, outcome: $0.outcome) }
            links.append(attempts)
        }
        if let fix = entry.fix { links.append(Link(anchor: RecordAnchor.fix.fragment, title: title(fix, strings.fix), outcome: nil)) }
        if let section = entry.sideEffects { links.append(Link(anchor: SectionAnchor.sideEffects, title: title(section, strings.sideEffects), outcome: nil)) }
        if let section = entry.lessons { links.append(Link(anchor: SectionAnchor.lessons, title: title(section, strings.lessons), outcome: nil)) }
        if let section = entry.references { links.append(Link(anchor: SectionAnchor.references, title: title(section, strings.references), outcome: nil)) }
        if !meta.related.isEmpty { links.append(Link(anchor: "related", title: strings.related, outcome: nil)) }
        for number in entry.notes.indices {
            links.append(Link(anchor: SectionAnchor.notes(number), title: title(entry.notes[number], strings.notes), outcome: nil))
        }
        if item.scenario != nil || item.check != nil { links.append(Link(anchor: "checks", title: strings.scenario, outcome: nil)) }
        self.links = links
    }

    /// Where the contents go: beside the entry, or folded after its header.
    enum Form { case side, fold }

    /// One form, when the page has more than one section (one needs no contents).
    func render(strings: SiteStrings, form: Form, into html: inout HTMLBuffer) {
        guard links.count + links.reduce(0, { $0 + $1.children.count }) > 1 else { return }
        switch form {
        case .side:
            html.raw("<nav class=\"toc toc-side\"")
            html.attribute("aria-label", strings.onThisPage)
            html.raw("><p class=\"toc-heading\" aria-hidden=\"true\">")
            html.text(strings.onThisPage)
            html.raw("</p>\n")
            Self.list(links, strings: strings, into: &html)
            html.raw("</nav>\n")
        case .fold:
            html.raw("<details class=\"toc toc-fold\"><summary>")
            html.text(strings.onThisPage)
            html.raw("</summary>\n<nav")
            html.attribute("aria-label", strings.onThisPage)
            html.raw(">\n")
            Self.list(links, strings: strings, into: &html)
            html.raw("</nav>\n</details>\n")
        }
    }

    static func list(_ links: [Link], strings: SiteStrings, into html: inout HTMLBuffer) {
        html.raw("<ol>\n")
        for link in links {
            html.raw("<li><a")
            html.href("#" + link.anchor)
            html.raw(">")
            if let outcome = link.outcome {
                // The mark is told by its word, to the eye (title) and to a screen reader (aria-label).
                html.raw("<span class=\"toc-mark outcome-")
                html.raw(outcome.rawValue)
                html.raw("\" role=\"img\"")
                html.attribute("aria-label", strings.outcome(outcome))
                html.attribute("title", strings.outcome(outcome))
                html.raw(">")
                html.raw(outcome.symbol)
                html.raw("</span> ")
            }
            html.text(link.title)
            html.raw("</a>")
            if !link.children.isEmpty {
                html.raw("\n")
                list(link.children, strings: strings, into: &html)
            }
            html.raw("</li>\n")
        }
        html.raw("</ol>\n")
    }
}
