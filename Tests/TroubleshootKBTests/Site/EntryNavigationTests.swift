import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

/// What an entry page and the lists show in one language, written out as a reader of that
/// language expects it (not read from the tables the site is made from).
struct PageLanguageCase: CustomTestStringConvertible, Sendable {
    let lang: String
    let languageName: String
    let title: String
    let body: String
    let attempt1: String
    let attempt2: String
    let toc: String
    let breadcrumbs: String
    let home: String
    let failed: String
    let worked: String
    let resolved: String
    let checkedDate: String
    let updatedDate: String
    let columns: [String]
    let rulesLabel: String
    let noRecord: String
    let backToTop: String
    let linkToSection: String

    var testDescription: String { lang }

    static let all: [PageLanguageCase] = [
        PageLanguageCase(
            lang: "zh-Hans", languageName: "简体中文", title: "导航测试",
            body: "## 问题\n\n坏了。\n\n## 尝试过的方案\n\n### 方案 1：先试试\n\n结果：失败。没用。\n\n### 方案 2：再试试\n\n结果：成功。\n\n## 最终方案\n\n就这样。\n",
            attempt1: "方案 1：先试试", attempt2: "方案 2：再试试", toc: "本页内容", breadcrumbs: "导航路径", home: "首页",
            failed: "失败", worked: "成功", resolved: "已解决", checkedDate: "2026年12月2日", updatedDate: "2026年11月29日",
            columns: ["记录", "结果", "说明"], rulesLabel: "规则：", noRecord: "未关联记录", backToTop: "回到顶部", linkToSection: "链接到本节"),
        PageLanguageCase(
            lang: "ko", languageName: "한국어", title: "탐색 시험",
            body: "## 문제\n\n고장 났다.\n\n## 시도한 방법\n\n### 시도 1: 먼저 해 보기\n\n결과: 실패. 소용없었다.\n\n### 시도 2: 다시 해 보기\n\n결과: 성공.\n\n## 해결 방법\n\n이렇게 했다.\n",
            attempt1: "시도 1: 먼저 해 보기", attempt2: "시도 2: 다시 해 보기", toc: "이 페이지", breadcrumbs: "이동 경로", home: "홈",
            failed: "실패", worked: "성공", resolved: "해결됨", checkedDate: "2026년 12월 2일", updatedDate: "2026년 11월 29일",
            columns: ["기록", "결과", "설명"], rulesLabel: "규칙: ", noRecord: "연결된 기록 없음", backToTop: "맨 위로",
            linkToSection: "이 섹션으로 연결되는 링크"),
        PageLanguageCase(
            lang: "ja", languageName: "日本語", title: "ナビゲーションの試験",
            body: "## 問題\n\n壊れた。\n\n## 試したこと\n\n### 試行 1：まず試す\n\n結果：失敗。効かなかった。\n\n### 試行 2：もう一度試す\n\n結果：成功。\n\n## 解決策\n\nこうした。\n",
            attempt1: "試行 1：まず試す", attempt2: "試行 2：もう一度試す", toc: "このページの内容", breadcrumbs: "パンくずリスト", home: "ホーム",
            failed: "失敗", worked: "成功", resolved: "解決済み", checkedDate: "2026年12月2日", updatedDate: "2026年11月29日",
            columns: ["記録", "結果", "詳細"], rulesLabel: "ルール：", noRecord: "対応する記録なし", backToTop: "ページの先頭へ",
            linkToSection: "このセクションへのリンク"),
        PageLanguageCase(
            lang: "en", languageName: "English", title: "Navigation test",
            body: "## Problem\n\nBroken.\n\n## Attempts\n\n### Attempt 1: try first\n\nResult: failed. No effect.\n\n### Attempt 2: try again\n\nResult: worked.\n\n## Fix\n\nThis.\n",
            attempt1: "Attempt 1: try first", attempt2: "Attempt 2: try again", toc: "On this page", breadcrumbs: "Breadcrumb", home: "Home",
            failed: "failed", worked: "worked", resolved: "resolved", checkedDate: "2 Dec 2026", updatedDate: "29 Nov 2026",
            columns: ["Record", "Result", "Details"], rulesLabel: "Rules: ", noRecord: "no linked record", backToTop: "Back to top",
            linkToSection: "Link to this section"),
    ]
}

extension SiteBuildTests {
    /// One entry in `c`'s language with two attempts, a fix and a check report (a row for each
    /// attempt, the fix and a scenario of no record), built into a site.
    static func buildNavigationSite(_ c: PageLanguageCase) -> (dir: String, files: [String: Data]) {
        let dir = TestSupport.temporaryDirectory()
        let entry = """
        ---
        id: nav-\(c.lang.lowercased())
        title: \(c.title)
        lang: \(c.lang)
        summary: \(c.title)
        symptoms:
          - \(c.title)
        tags: [nav-test]
        status: resolved
        updated: 2026-11-29
        ---
        \(c.body)
        """
        TestSupport.write(entry, to: dir + "/entries/nav-\(c.lang.lowercased())/entry.md")
        TestSupport.write("""
        {"entries": [{"id": "nav-\(c.lang.lowercased())", "verdict": "reproduces", "checkedAt": "2026-12-02T05:33:21Z",
          "attempts": [{"anchor": "attempt-1", "verdict": "reproduces"}, {"anchor": "attempt-2", "verdict": "reproduces", "rules": ["NB-1"]},
                       {"anchor": "fix", "verdict": "reproduces"}, {"anchor": "", "verdict": "reproduces"}]}]}
        """, to: dir + "/.kb/check-report.json")
        let result = SiteTestSupport.build([], in: dir)
        #expect(result.code == 0, "\(result.stderr)")
        return (dir, SiteTestSupport.snapshot(dir + "/_site"))
    }

    @Test(arguments: PageLanguageCase.all)
    func entryPageHasContentsBreadcrumbsAndHeadingLinks(_ c: PageLanguageCase) throws {
        let (dir, files) = Self.buildNavigationSite(c)
        defer { TestSupport.remove(dir) }
        let page = Support.text(files["entries/nav-\(c.lang.lowercased()).html"])
        let ids = Support.ids(in: page)

        // The contents: both forms, every section and each attempt with its mark and word.
        let side = try #require(page.range(of: "<nav class=\"toc toc-side\" aria-label=\"\(c.toc)\">"), "\(page)")
        let sideEnd = try #require(page.range(of: "</nav>", range: side.upperBound..<page.endIndex))
        let toc = String(page[side.upperBound..<sideEnd.lowerBound])
        #expect(page.contains("<details class=\"toc toc-fold\"><summary>\(c.toc)</summary>"))
        #expect(toc.contains("<a href=\"#attempt-1\"><span class=\"toc-mark outcome-failed\" role=\"img\" aria-label=\"\(c.failed)\" title=\"\(c.failed)\">✗</span> \(c.attempt1)</a>"), "\(toc)")
        #expect(toc.contains("<a href=\"#attempt-2\"><span class=\"toc-mark outcome-worked\" role=\"img\" aria-label=\"\(c.worked)\" title=\"\(c.worked)\">✓</span> \(c.attempt2)</a>"), "\(toc)")
        let targets = Support.links(in: toc).map(\.url)
        #expect(targets == ["#symptoms", "#problem", "#attempts", "#attempt-1", "#attempt-2", "#fix", "#checks"], "\(targets)")
        for target in targets { #expect(ids.contains(String(target.dropFirst())), "the contents link to a missing \(target)") }

        // Breadcrumbs: home › language › this page.
        #expect(page.contains("""
        <nav class="breadcrumbs" aria-label="\(c.breadcrumbs)"><ol>
        <li><a href="../index.html">\(c.home)</a></li>
        <li><a href="../languages/\(c.lang.lowercased())/index.html">\(c.languageName)</a></li>
        <li><span aria-current="page">\(c.title)</span></li>
        </ol></nav>
        """), "\(page.prefix(3000))")
        // A "#" link on the headings, and the way back to the top at the end.
        for anchor in ["symptoms", "problem", "attempts", "attempt-1", "fix", "checks", "check-results"] {
            #expect(page.contains("<a class=\"heading-anchor\" href=\"#\(anchor)\" aria-label=\"\(c.linkToSection)\">#</a>"), "no link on \(anchor)")
        }
        #expect(page.contains("<p class=\"back-to-top\"><a href=\"#main\"><span aria-hidden=\"true\">↑ </span>\(c.backToTop)</a></p>\n</article>"))
        #expect(Support.brokenLinks(in: dir + "/_site").isEmpty)
    }

    @Test(arguments: PageLanguageCase.all)
    func checksSectionSpeaksThePageLanguage(_ c: PageLanguageCase) throws {
        let (dir, files) = Self.buildNavigationSite(c)
        defer { TestSupport.remove(dir) }
        let page = Support.text(files["entries/nav-\(c.lang.lowercased()).html"])
        let start = try #require(page.range(of: "<section id=\"checks\""))
        let checks = String(page[start.lowerBound...])

        // Dates as the language writes them; the exact time stays in `datetime` only.
        #expect(checks.contains("<time datetime=\"2026-12-02T05:33:21Z\">\(c.checkedDate)</time>"), "\(checks.prefix(800))")
        #expect(page.contains("<time datetime=\"2026-11-29\">\(c.updatedDate)</time>"))
        #expect(!page.contains(">2026-12-02T05:33:21Z<") && !page.contains(">2026-11-29<"))
        // Column heads with words, rows by the record's title, never an empty header cell.
        #expect(checks.contains("<thead role=\"rowgroup\"><tr role=\"row\"><th scope=\"col\" role=\"columnheader\">\(c.columns[0])</th><th scope=\"col\" role=\"columnheader\">\(c.columns[1])</th><th scope=\"col\" role=\"columnheader\">\(c.columns[2])</th></tr></thead>"))
        #expect(checks.contains("<th scope=\"row\" role=\"rowheader\"><a href=\"#attempt-1\">\(c.attempt1)</a></th>"), "\(checks.prefix(1500))")
        #expect(checks.contains("<th scope=\"row\" role=\"rowheader\"><a href=\"#attempt-2\">\(c.attempt2)</a></th>"))
        #expect(checks.contains("<th scope=\"row\" role=\"rowheader\"><span class=\"muted\">\(c.noRecord)</span></th>"))
        #expect(!checks.contains(">attempt-1<") && !checks.contains(">fix<"), "anchor ids are not titles")
        let emptyHeader = try NSRegularExpression(pattern: "<th[^>]*>\\s*</th>")
        #expect(emptyHeader.firstMatch(in: page, range: NSRange(page.startIndex..., in: page)) == nil, "an empty <th>")
        #expect(checks.contains("<span class=\"rules\">\(c.rulesLabel)<a class=\"rule\""))
        #expect(!checks.contains("rules:") && !checks.contains("lang=\"en\""), "no English labels")
    }

    @Test(arguments: PageLanguageCase.all)
    func listsShowTheEntrysStatusWordAndALegend(_ c: PageLanguageCase) throws {
        let (dir, files) = Self.buildNavigationSite(c)
        defer { TestSupport.remove(dir) }
        let badge = "<span class=\"badge status-resolved\" lang=\"\(c.lang)\">\(c.resolved)</span>"
        for path in ["index.html", "tags/nav-test/index.html", "languages/\(c.lang.lowercased())/index.html"] {
            let list = Support.text(files[path])
            #expect(list.contains(badge), "\(path): \(list)")
            if c.lang != "en" { #expect(!list.contains(">resolved</span>"), "\(path) has the English status word") }
            // The marks are told in the entry's words to a screen reader and on hover, and the
            // legend says what each mark is.
            #expect(list.contains("<span class=\"glance\" role=\"img\" lang=\"\(c.lang)\" aria-label=\""), "\(path)")
            #expect(list.contains("1 \(c.failed)") && list.contains("2 \(c.worked)"), "\(path)")
            #expect(list.contains("<p class=\"legend\">"), "\(path) has no legend")
            for mark in ["✗</span> failed", "△</span> partial", "✓</span> worked", "⊘</span> rejected"] {
                #expect(list.contains(mark), "\(path) legend lacks \(mark)")
            }
        }
        // The entry page's own status word is the same word.
        #expect(Support.text(files["entries/nav-\(c.lang.lowercased()).html"]).contains("<span class=\"badge status-resolved\">\(c.resolved)</span>"))
    }
}

@Suite struct ReadableDateTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let text: String
        let lang: String
        let expected: String
        var testDescription: String { name }
    }

    @Test(arguments: [
        Case(name: "Chinese", text: "2026-12-02T05:33:21Z", lang: "zh-Hans", expected: "2026年12月2日"),
        Case(name: "Traditional Chinese", text: "2026-12-02T05:33:21Z", lang: "zh-Hant", expected: "2026年12月2日"),
        Case(name: "Korean", text: "2026-12-02T05:33:21Z", lang: "ko", expected: "2026년 12월 2일"),
        Case(name: "Japanese", text: "2026-01-09", lang: "ja", expected: "2026年1月9日"),
        Case(name: "English", text: "2026-12-02T05:33:21Z", lang: "en", expected: "2 Dec 2026"),
        Case(name: "unknown language reads as English", text: "2026-05-31", lang: "fr", expected: "31 May 2026"),
        Case(name: "the date of the written offset, not converted", text: "2026-12-31T23:30:00-05:00", lang: "en", expected: "31 Dec 2026"),
        Case(name: "not a date stays as written", text: "yesterday", lang: "ko", expected: "yesterday"),
        Case(name: "month 13 is not a date", text: "2026-13-02", lang: "ja", expected: "2026-13-02"),
    ])
    func formats(_ c: Case) {
        #expect(ReadableDate.format(c.text, lang: c.lang) == c.expected)
    }
}
