import KBCore
import KBSearch
import KBScenarios
/// The words of an entry page's navigation (breadcrumbs, heading links, the way back to the
/// top) and the punctuation of the short phrases the pages put together, per language. One row
/// per language; the first row whose prefix the BCP 47 tag starts with wins, else English.
struct PageWords: Sendable {
    /// The breadcrumb trail's name (`nav aria-label`).
    let breadcrumbs: String
    /// The accessible name of the `#` link beside a heading.
    let linkToSection: String
    /// The link at the end of an entry page to its top.
    let backToTop: String
    /// Between a label and what it labels ("Attempts: …").
    let colon: String
    /// Between the items of a short list ("1 failed, 2 worked").
    let listSeparator: String
    /// The heading of the legend of the attempt marks (✗ △ ✓ ⊘) on the lists.
    let legend: String

    static let english = PageWords(breadcrumbs: "Breadcrumb", linkToSection: "Link to this section", backToTop: "Back to top",
                                   colon: ": ", listSeparator: ", ", legend: "Attempt marks")
    static let rows: [(prefix: String, words: PageWords)] = [
        ("zh-Hant", PageWords(breadcrumbs: "導覽路徑", linkToSection: "連結到本節", backToTop: "回到頁首",
                              colon: "：", listSeparator: "，", legend: "嘗試結果標記")),
        ("zh", PageWords(breadcrumbs: "导航路径", linkToSection: "链接到本节", backToTop: "回到顶部",
                         colon: "：", listSeparator: "，", legend: "尝试结果标记")),
        ("ko", PageWords(breadcrumbs: "이동 경로", linkToSection: "이 섹션으로 연결되는 링크", backToTop: "맨 위로",
                         colon: ": ", listSeparator: ", ", legend: "시도 결과 표시")),
        ("ja", PageWords(breadcrumbs: "パンくずリスト", linkToSection: "このセクションへのリンク", backToTop: "ページの先頭へ",
                         colon: "：", listSeparator: "、", legend: "試行結果の記号")),
        ("en", english),
    ]

    static func forLanguage(_ lang: String) -> PageWords {
        rows.first { lang.hasPrefix($0.prefix) }?.words ?? english
    }
}
