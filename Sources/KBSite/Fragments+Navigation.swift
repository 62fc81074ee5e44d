import KBCore
import KBSearch
import KBScenarios
/// The pieces of an entry page's navigation and of its check results that other pages share.
extension Fragments {
    /// The `#` link to a heading's section, shown (by the style sheet) on hover and on focus.
    static func headingAnchor(_ anchor: String, words: PageWords, into html: inout HTMLBuffer) {
        html.raw(" <a class=\"heading-anchor\"")
        html.href("#" + anchor)
        html.attribute("aria-label", words.linkToSection)
        html.raw(">#</a>")
    }

    /// Home › language › entry title, the last the current page.
    static func breadcrumbs(_ item: SiteEntry, root: String, strings: SiteStrings, words: PageWords, into html: inout HTMLBuffer) {
        html.raw("<nav class=\"breadcrumbs\"")
        html.attribute("aria-label", words.breadcrumbs)
        html.raw("><ol>\n<li><a")
        html.link(root, SitePaths.home)
        html.raw(">")
        html.text(strings.home)
        html.raw("</a></li>\n")
        if !item.lang.isEmpty {
            html.raw("<li><a")
            html.link(root, SitePaths.listPage(SitePaths.languageFolder(item.lang), page: 1))
            html.raw(">")
            html.text(IndexPageRenderer.languageNames[item.lang] ?? item.lang)
            html.raw("</a></li>\n")
        }
        html.raw("<li><span aria-current=\"page\">")
        html.text(item.title)
        html.raw("</span></li>\n</ol></nav>\n")
    }

    /// The link back to the top of the page (`#main`), at the end of the content.
    static func backToTop(words: PageWords, into html: inout HTMLBuffer) {
        html.raw("<p class=\"back-to-top\"><a href=\"#main\"><span aria-hidden=\"true\">↑ </span>")
        html.text(words.backToTop)
        html.raw("</a></p>\n")
    }

    /// A check verdict badge in the page's language (`CheckWords`): the mark from the style
    /// sheet, the words for what the verdict means; the verdict as the report says it, and when
    /// it was checked, as the title.
    static func checkBadge(_ verdict: CheckVerdict, recordedFailure: Bool?, words: CheckWords, title: String? = nil, lang: String? = nil,
                           into html: inout HTMLBuffer) {
        let (className, text) = words.describe(verdict, recordedFailure: recordedFailure)
        html.raw("<span class=\"badge check-")
        html.raw(className)
        html.raw("\"")
        if let lang { html.attribute("lang", lang) }
        html.attribute("title", title ?? verdict.rawValue)
        html.raw(">")
        html.text(text)
        html.raw("</span>")
    }

    /// `<time datetime="2026-12-02T05:33:21Z">2026年12月2日</time>` (`ReadableDate`).
    static func time(_ value: String, lang: String, into html: inout HTMLBuffer) {
        html.raw("<time")
        html.attribute("datetime", value)
        html.raw(">")
        html.text(ReadableDate.format(value, lang: lang))
        html.raw("</time>")
    }
}
