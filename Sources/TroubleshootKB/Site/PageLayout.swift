import Foundation

/// The frame every HTML page shares: head, skip link, site header, main, footer.
struct PageLayout {
    /// Where the page is, relative to the site root (`entries/x.html`).
    let path: String
    /// The page's language (`<html lang>`).
    let lang: String
    let strings: SiteStrings
    let base: BaseURL

    /// A link from this page to another page of the site.
    func link(_ target: String) -> String { SitePaths.relative(target, from: path) }

    /// The whole document. `title` and `description` are plain text (escaped here);
    /// `main` is HTML built by a renderer. `headExtra` goes right after the charset (a `<base>` must
    /// precede every URL in the head).
    func document(title: String, description: String, main: String, bodyClass: String,
                  canonical: Bool = true, headExtra: String = "", scripts: [String] = []) -> String {
        var out = "<!DOCTYPE html>\n"
        out += "<html \(HTML.attribute("lang", lang))>\n<head>\n"
        out += "<meta charset=\"utf-8\">\n"
        out += headExtra
        out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        out += "<meta name=\"color-scheme\" content=\"light dark\">\n"
        out += "<title>\(HTML.escape(title))</title>\n"
        if !description.isEmpty {
            out += "<meta name=\"description\" \(HTML.attribute("content", description))>\n"
        }
        if canonical && base.isExplicit {
            out += "<link rel=\"canonical\" \(HTML.href(base.url(path)))>\n"
        }
        out += "<link rel=\"stylesheet\" \(HTML.href(link(SitePaths.stylesheet)))>\n"
        out += "<link rel=\"alternate\" type=\"application/atom+xml\" title=\"TroubleshootKB\" \(HTML.href(link(SitePaths.feed)))>\n"
        out += "<script \(HTML.attribute("src", link(SitePaths.script))) defer></script>\n"
        for script in scripts { out += script }
        out += "</head>\n"
        out += "<body \(HTML.attribute("class", bodyClass))>\n"
        out += "<a class=\"skip-link\" href=\"#main\">\(HTML.escape(strings.skipToContent))</a>\n"
        out += "<header class=\"site-header\">\n<nav \(HTML.attribute("aria-label", "TroubleshootKB"))>\n"
        out += "<a class=\"site-name\" \(HTML.href(link(SitePaths.home)))>TroubleshootKB</a>\n"
        out += "<ul>\n"
        out += "<li><a \(HTML.href(link(SitePaths.home)))>\(HTML.escape(strings.home))</a></li>\n"
        out += "<li><a \(HTML.href(link(SitePaths.symptoms)))>\(HTML.escape(strings.symptomIndex))</a></li>\n"
        out += "<li><a \(HTML.href(link(SitePaths.feed)))>\(HTML.escape(strings.feed))</a></li>\n"
        out += "</ul>\n</nav>\n</header>\n"
        out += "<main id=\"main\" tabindex=\"-1\">\n"
        out += main
        out += "</main>\n"
        out += "<footer class=\"site-footer\"><p><a \(HTML.href(link(SitePaths.home)))>TroubleshootKB</a> · <a \(HTML.href(link(SitePaths.sitemap)))>sitemap.xml</a> · <a \(HTML.href(link(SitePaths.feed)))>feed.xml</a></p></footer>\n"
        out += "</body>\n</html>\n"
        return out
    }
}

/// Small pieces several pages share.
enum Fragments {
    /// The inner HTML of a heading block cmark rendered (`<h3>方案 <code>x</code></h3>` →
    /// `方案 <code>x</code>`), or the escaped plain text.
    static func headingContent(_ block: MarkdownNode?) -> String {
        guard let block else { return "" }
        if let html = block.html?.trimmingCharacters(in: .whitespacesAndNewlines),
           html.hasPrefix("<h"), html.hasSuffix(">"),
           let open = html.firstIndex(of: ">"), let close = html.range(of: "</h", options: .backwards) {
            let inner = html[html.index(after: open)..<close.lowerBound]
            return String(inner)
        }
        return HTML.escape(block.plainText)
    }

    /// A block's HTML as cmark rendered it (code blocks made keyboard-scrollable), or its
    /// escaped text in a paragraph when it has none.
    static func blockHTML(_ block: MarkdownNode) -> String {
        guard let html = block.html else {
            return "<p>" + HTML.escape(block.plainText) + "</p>\n"
        }
        return focusableCode(html)
    }

    /// Lets keyboard users scroll wide code blocks: `<pre>` gets `tabindex="0"`.
    static func focusableCode(_ html: String) -> String {
        ByteText.replacing(html, "<pre><code", with: "<pre tabindex=\"0\"><code")
    }

    /// A status badge: mark and word, so it does not rely on colour.
    static func statusBadge(_ status: EntryMetadata.Status?, strings: SiteStrings) -> String {
        let name = status?.rawValue ?? "unknown"
        let mark: String
        switch status {
        case .resolved: mark = "✓"
        case .workaround: mark = "↻"
        case .open: mark = "○"
        case nil: mark = "?"
        }
        return "<span class=\"badge status status-\(HTML.escape(name))\"><span aria-hidden=\"true\">\(mark)</span> \(HTML.escape(strings.status(status)))</span>"
    }

    /// A check verdict badge.
    static func checkBadge(_ verdict: String, title: String? = nil) -> String {
        let kind = SiteCheckReport.verdictClass(verdict)
        let titleAttribute = title.map { " " + HTML.attribute("title", $0) } ?? ""
        return "<span class=\"badge check check-\(kind)\"\(titleAttribute)><span aria-hidden=\"true\">\(SiteCheckReport.verdictMark(verdict))</span> \(HTML.escape(verdict))</span>"
    }

    /// An outcome label: symbol and word.
    static func outcomeLabel(_ outcome: Outcome, strings: SiteStrings) -> String {
        "<span class=\"outcome outcome-\(outcome.rawValue)\"><span class=\"mark\" aria-hidden=\"true\">\(outcome.symbol)</span> \(HTML.escape(strings.outcome(outcome)))</span>"
    }

    /// One entry in a list (home, tag pages): title link, badges, the attempts at a glance, summary.
    static func entryItem(_ item: SiteEntry, layout: PageLayout) -> String {
        let meta = item.meta
        let strings = SiteStrings.english
        var out = "<li class=\"entry-item\">\n"
        out += "<a class=\"entry-link\" \(HTML.href(layout.link(item.path))) \(HTML.attribute("lang", meta.lang))>\(HTML.escape(item.title))</a>\n"
        out += "<span class=\"badges\">" + statusBadge(meta.status, strings: strings)
        if let check = item.check { out += " " + checkBadge(check.verdict, title: check.checkedAt) }
        out += "</span>\n"
        if !item.entry.attempts.isEmpty {
            // Runs of attempts with the same outcome share one span and one phrase of the label
            // ("Attempts: 1–5 failed, 6 worked"): lists of thousands of entries stay small.
            var runs: [(first: Attempt, last: Attempt, count: Int)] = []
            for attempt in item.entry.attempts {
                if let last = runs.last, last.first.outcome == attempt.outcome {
                    runs[runs.count - 1] = (last.first, attempt, last.count + 1)
                } else {
                    runs.append((attempt, attempt, 1))
                }
            }
            let words = runs.map { run in
                let numbers = run.count == 1 ? "\(run.first.number)" : "\(run.first.number)–\(run.last.number)"
                return "\(numbers) \(strings.outcome(run.first.outcome))"
            }.joined(separator: ", ")
            out += "<span class=\"glance\" role=\"img\" \(HTML.attribute("aria-label", "Attempts: " + words))>"
            out += runs.map { run in
                "<span class=\"outcome-\(run.first.outcome.rawValue)\">" + String(repeating: run.first.outcome.symbol, count: run.count) + "</span>"
            }.joined()
            out += "</span>\n"
        }
        if !meta.summary.isEmpty {
            out += "<p class=\"summary\" \(HTML.attribute("lang", meta.lang))>\(HTML.escape(meta.summary))</p>\n"
        }
        out += "</li>\n"
        return out
    }
}
