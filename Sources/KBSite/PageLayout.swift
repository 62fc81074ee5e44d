import KBCore
import KBSearch
import KBScenarios
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The frame every HTML page shares: head, skip link, site header, main, footer.
struct PageLayout {
    /// Where the page is, relative to the site root (`entries/x.html`).
    let path: String
    /// The page's language (`<html lang>`).
    let lang: String
    let strings: SiteStrings
    let base: BaseURL
    /// The way back to the site root from this page: `../` once per folder.
    let root: String
    /// The site's name (kb.yaml's title).
    let settings: SiteSettings

    init(path: String, lang: String, strings: SiteStrings, base: BaseURL, settings: SiteSettings = .init()) {
        self.path = path
        self.lang = lang
        self.strings = strings
        self.base = base
        self.settings = settings
        root = SitePaths.rootPrefix(from: path)
    }

    /// A link from this page to another page of the site.
    func link(_ target: String) -> String { SitePaths.relative(target, from: path) }

    /// Writes everything up to and including `<main>`. `title` and `description` are plain text
    /// (escaped here); ` · ` and the site's title follow the title unless `siteTitle` is false.
    /// `headExtra` goes right after the charset (a `<base>` must precede every URL in the head);
    /// `scripts` are site paths of the page's scripts (the home page's search, the entry pages'
    /// copy buttons). `copyWords`: the body carries the copy button's words in the page's
    /// language (`data-copy`, `data-copied`) for assets/app.js. `inlineStyle` (a `<style>`
    /// element) takes the place of the stylesheet link (404.html).
    func open(_ html: inout HTMLBuffer, title: String, siteTitle: Bool = true, description: String, bodyClass: StaticString,
              canonical: Bool = true, headExtra: String = "", scripts: [String] = [], copyWords: Bool = false, inlineStyle: String? = nil) {
        html.raw("<!DOCTYPE html>\n<html")
        html.attribute("lang", lang)
        html.raw(">\n<head>\n<meta charset=\"utf-8\">\n")
        html.raw(headExtra)
        html.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<meta name=\"color-scheme\" content=\"light dark\">\n<title>")
        html.text(title)
        if siteTitle {
            html.raw(" · ")
            html.text(settings.title)
        }
        html.raw("</title>\n")
        if !description.isEmpty {
            html.raw("<meta name=\"description\"")
            html.attribute("content", description)
            html.raw(">\n")
        }
        if canonical && base.isExplicit {
            html.raw("<link rel=\"canonical\"")
            html.href(base.url(path))
            html.raw(">\n")
        }
        if let inlineStyle {
            html.raw(inlineStyle)
            html.raw("\n<link rel=\"icon\" type=\"image/svg+xml\"")
        } else {
            html.raw("<link rel=\"stylesheet\"")
            html.link(root, SitePaths.stylesheet)
            html.raw(">\n<link rel=\"icon\" type=\"image/svg+xml\"")
        }
        html.link(root, SitePaths.favicon)
        html.raw(">\n<link rel=\"alternate\" type=\"application/atom+xml\"")
        html.attribute("title", settings.title)
        html.link(root, SitePaths.feed)
        html.raw(">\n")
        // Every page but the home page has the header's search box; app.js gives it the "/" key.
        let headerSearch = path != SitePaths.home
        let scripts = headerSearch && !scripts.contains(SitePaths.script) ? [SitePaths.script] + scripts : scripts
        for script in scripts {
            html.raw("<script src=\"")
            html.raw(root)
            html.text(script)
            html.raw("\" defer></script>\n")
        }
        html.raw("</head>\n<body class=\"")
        html.raw(bodyClass)
        html.raw("\"")
        if copyWords {
            html.attribute("data-copy", strings.copy)
            html.attribute("data-copied", strings.copied)
        }
        html.raw(">\n<a class=\"skip-link\" href=\"#main\">")
        html.text(strings.skipToContent)
        html.raw("</a>\n<header class=\"site-header\"><nav")
        html.attribute("aria-label", settings.title)
        html.raw("><a class=\"site-name\"")
        html.link(root, SitePaths.home)
        html.raw(">")
        html.text(settings.title)
        html.raw("</a>\n<ul><li><a")
        html.link(root, SitePaths.symptoms)
        html.raw(">")
        html.text(strings.symptomIndex)
        html.raw("</a></li><li><a")
        html.link(root, SitePaths.feed)
        html.raw(">")
        html.text(strings.feed)
        html.raw("</a></li></ul></nav>")
        if headerSearch { searchForm(&html) }
        html.raw("</header>\n<main id=\"main\" tabindex=\"-1\">\n")
    }

    /// The header's search box: a plain GET form to the home page, whose search runs `?q=` on
    /// load (from `file://` too); its label is read by screen readers only.
    func searchForm(_ html: inout HTMLBuffer) {
        html.raw("\n<form class=\"header-search\" role=\"search\" method=\"get\"")
        html.raw(" action=\"")
        html.raw(root)
        html.raw(SitePaths.home)
        html.raw("\"><label class=\"visually-hidden\" for=\"header-search\">")
        html.text(strings.search.label)
        html.raw("</label><input id=\"header-search\" name=\"q\" type=\"search\" autocomplete=\"off\" spellcheck=\"false\" enterkeyhint=\"search\"")
        html.attribute("placeholder", strings.search.button)
        html.raw("><button type=\"submit\">")
        html.text(strings.search.button)
        html.raw("</button></form>")
    }

    /// Closes `<main>` and writes the footer.
    func close(_ html: inout HTMLBuffer) {
        html.raw("</main>\n<footer class=\"site-footer\"><p><a")
        html.link(root, SitePaths.sitemap)
        html.raw(">sitemap.xml</a></p></footer>\n</body>\n</html>\n")
    }

    /// The whole document around `main` (HTML built by a renderer), as a string.
    func document(title: String, siteTitle: Bool = true, description: String, main: String, bodyClass: StaticString,
                  canonical: Bool = true, headExtra: String = "") -> String {
        var html = HTMLBuffer(capacity: main.utf8.count + 2048)
        open(&html, title: title, siteTitle: siteTitle, description: description, bodyClass: bodyClass, canonical: canonical, headExtra: headExtra)
        html.raw(main)
        close(&html)
        return String(decoding: html.bytes, as: UTF8.self)
    }
}

/// Small pieces several pages share. Marks (✓ ✗ △ ⊘ …) come from the style sheet by class, so
/// every badge and label is its word in the page and the mark beside it.
enum Fragments {
    /// The inner HTML of a heading block cmark rendered (`<h3>方案 <code>x</code></h3>` →
    /// `方案 <code>x</code>`), or the escaped plain text.
    /// `plain` (the block's `plainText`) is read only when there is no HTML.
    static func headingContent(html source: String?, plain: @autoclosure () -> String, into html: inout HTMLBuffer) {
        if let source {
            var copy = source
            let done = copy.withUTF8 { bytes -> Bool in
                var start = 0, end = bytes.count
                func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D || b == 0x0B || b == 0x0C }
                while start < end && isSpace(bytes[start]) { start += 1 }
                while end > start && isSpace(bytes[end - 1]) { end -= 1 }
                guard end - start >= 2, bytes[start] == UInt8(ascii: "<"), bytes[start + 1] == UInt8(ascii: "h"),
                      bytes[end - 1] == UInt8(ascii: ">") else { return false }
                var open = start
                while open < end && bytes[open] != UInt8(ascii: ">") { open += 1 }
                var close = end - 3
                while close > open && !(bytes[close] == UInt8(ascii: "<") && bytes[close + 1] == UInt8(ascii: "/") && bytes[close + 2] == UInt8(ascii: "h")) {
                    close -= 1
                }
                guard close > open else { return false }
                html.raw(UnsafeBufferPointer(rebasing: bytes[(open + 1)..<close]))
                return true
            }
            if done { return }
        }
        html.text(plain())
    }

    /// A block's HTML as cmark rendered it (code blocks made keyboard-scrollable), or its
    /// escaped text in a paragraph when it has none.
    /// `plain` (the block's `plainText`) is read only when there is no HTML.
    static func block(html source: String?, plain: @autoclosure () -> String, into html: inout HTMLBuffer) {
        guard let source else {
            html.raw("<p>")
            html.text(plain())
            html.raw("</p>\n")
            return
        }
        html.block(source)
    }

    /// A list item's HTML without cmark's `<li>` and `</li>`.
    static func itemContent(html source: String?, plain: @autoclosure () -> String, into html: inout HTMLBuffer) {
        guard var source, source.utf8.starts(with: "<li>".utf8) else {
            Self.block(html: source, plain: plain(), into: &html)
            return
        }
        source.withUTF8 { bytes in
            var end = bytes.count
            while end > 4 && bytes[end - 1] == UInt8(ascii: "\n") { end -= 1 }
            if end >= 9 && memcmp(bytes.baseAddress! + end - 5, "</li>", 5) == 0 { end -= 5 }
            html.block(UnsafeBufferPointer(rebasing: bytes[4..<end]))
        }
    }

    /// The class of a status (`status-resolved`).
    static func statusClass(_ status: EntryMetadata.Status?) -> StaticString {
        switch status {
        case .resolved: return "status-resolved"
        case .workaround: return "status-workaround"
        case .open: return "status-open"
        case nil: return "status-unknown"
        }
    }

    /// A status badge: mark (from the style sheet) and word, so it does not rely on colour;
    /// `lang` when the word's language is not the page's.
    static func statusBadge(_ status: EntryMetadata.Status?, strings: SiteStrings, lang: String? = nil, into html: inout HTMLBuffer) {
        html.raw("<span class=\"badge ")
        html.raw(statusClass(status))
        html.raw("\"")
        if let lang { html.attribute("lang", lang) }
        html.raw(">")
        html.text(strings.status(status))
        html.raw("</span>")
    }
}
