import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

@Suite struct SiteBuildTests {
    typealias Support = SiteTestSupport

    @Test func buildsTheRealEntries() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(dir) }
        let out = dir + "/site"
        let result = Support.build(["--out", out], in: TestSupport.repositoryRoot)
        #expect(result.code == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("Built \(TestSupport.entryIDs.count) entries"), "\(result.stdout)")
        #expect(!result.stderr.contains("\u{1B}["), "no progress or colour when stderr is not a terminal")

        let files = Support.snapshot(out)
        for path in ["index.html", "404.html", "sitemap.xml", "feed.xml", "symptoms/index.html",
                     "assets/style.css", "assets/app.js", SitePaths.marker] {
            #expect(files[path] != nil, "missing \(path)")
        }
        let kb = try KnowledgeBaseLoader(workingDirectory: TestSupport.repositoryRoot).load(paths: [TestSupport.entriesDirectory])
        #expect(kb.entries.count == TestSupport.entryIDs.count)
        var tags = Set<String>()
        for entry in kb.entries {
            let html = Support.text(files["entries/\(entry.id).html"])
            #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"\(entry.metadata.lang)\">"), "\(entry.id)")
            let ids = Support.ids(in: html)
            for attempt in entry.attempts {
                #expect(ids.contains(attempt.anchor.fragment), "\(entry.id) lacks #\(attempt.anchor)")
                #expect(html.contains("class=\"attempt attempt-\(attempt.outcome.rawValue)\" id=\"\(attempt.anchor)\""))
            }
            #expect(ids.contains("fix") == (entry.fix != nil), "\(entry.id) #fix")
            for number in entry.metadata.symptoms.indices { #expect(ids.contains("symptom-\(number + 1)")) }
            tags.formUnion(entry.metadata.tags)
        }
        for tag in tags { #expect(files["tags/\(SitePaths.tagSlug(tag))/index.html"] != nil, "tag page \(tag)") }

        let home = Support.text(files["index.html"])
        #expect(home.contains("<input id=\"search\" name=\"q\" type=\"search\""))
        #expect(home.contains("<ol id=\"results\""))
        #expect(home.contains("src=\"assets/search.js\""))
        #expect(home.range(of: "id=\"search\"")!.lowerBound < home.range(of: "By language")!.lowerBound, "the search box comes first")
        let symptoms = Support.text(files["symptoms/index.html"])
        for group in ["symptoms-zh", "symptoms-ko", "symptoms-ja", "symptoms-en"] {
            #expect(symptoms.contains("id=\"\(group)\""), "symptom group \(group)")
        }
        #expect(Support.text(files["feed.xml"]).contains("<updated>\(kb.entries.map(\.metadata.updated).max()!)T00:00:00Z</updated>"))
        #expect(!home.contains("rel=\"canonical\""), "no canonical links without --base-url")
    }

    @Test func everyInternalLinkResolves() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(dir) }
        let out = dir + "/site"
        let result = Support.build(["--out", out], in: TestSupport.repositoryRoot)
        #expect(result.code == 0, "\(result.stderr)")
        let problems = Support.brokenLinks(in: out)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        // The checker does see attempt fragments: the symptom index and tables of contents use them.
        let files = Support.snapshot(out)
        let linkCount = files.filter { $0.key.hasSuffix(".html") }.map { Support.links(in: Support.text($0.value)).count }.reduce(0, +)
        #expect(linkCount > 100)
    }

    /// Lists of hundreds of entries are split into pages, the home page shows the newest few
    /// per language, and every page — every entry in particular — is still reachable from the
    /// home page within a few clicks.
    @Test func largeListsHavePagesAndEverythingIsReachable() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(dir) }
        let count = 230
        for n in 1...count {
            let id = String(format: "bulk-%04d", n)
            let entry = """
            ---
            id: \(id)
            title: 批量条目 \(n)
            lang: zh-Hans
            summary: 第 \(n) 条。
            symptoms: ["大家都有的症状", "症状 \(n) 甲", "症状 \(n) 乙"]
            tags: [shared]
            status: open
            updated: 2026-\(String(format: "%02d", n % 12 + 1))-\(String(format: "%02d", n % 28 + 1))
            ---

            ## 问题

            坏了。

            """
            TestSupport.write(entry, to: dir + "/entries/\(id)/entry.md")
        }
        let result = Support.build([], in: dir)
        #expect(result.code == 0, "\(result.stderr)")
        let files = Support.snapshot(dir + "/_site")
        #expect(Support.brokenLinks(in: dir + "/_site").isEmpty, "\(Support.brokenLinks(in: dir + "/_site").prefix(5))")

        let pages = (count + SiteIndex.listPageSize - 1) / SiteIndex.listPageSize
        for folder in ["tags/shared", "languages/zh-hans"] {
            for page in 1...pages {
                let path = SitePaths.listPage(folder, page: page)
                let html = Support.text(files[path])
                let shown = html.components(separatedBy: "<li><a href=\"../../entries/").count - 1
                #expect(shown == min(SiteIndex.listPageSize, count - (page - 1) * SiteIndex.listPageSize), "\(path) lists \(shown)")
                for other in 1...pages { #expect(html.contains("href=\"\(SitePaths.listPage(folder, page: other).split(separator: "/").last!)\""), "\(path) → page \(other)") }
            }
            #expect(files[SitePaths.listPage(folder, page: pages + 1)] == nil)
        }
        let home = Support.text(files["index.html"])
        #expect(home.components(separatedBy: "<li><a href=\"entries/").count - 1 == SiteIndex.homeListSize)
        #expect(home.contains("All \(count) entries in"))

        // Each phrase once per symptom page: the shared one heads the list of its entries.
        let symptomLinks = 3 * count
        let symptomPages = (symptomLinks + SiteIndex.symptomPageSize - 1) / SiteIndex.symptomPageSize
        let overview = Support.text(files[SitePaths.symptoms])
        for page in 1...symptomPages {
            #expect(overview.contains("href=\"zh-\(page).html\""))
            let html = Support.text(files[SitePaths.symptomPage("zh", page: page)])
            #expect(html.components(separatedBy: "大家都有的症状").count - 1 <= 1)
        }
        #expect(files[SitePaths.symptomPage("zh", page: symptomPages + 1)] == nil)

        // Breadth-first from the home page: every page within four clicks, every entry within three.
        var depth: [String: Int] = ["index.html": 0]
        var queue = ["index.html"]
        while !queue.isEmpty {
            let page = queue.removeFirst()
            for link in Support.links(in: Support.text(files[page])) {
                var url = link.url
                if let hash = url.firstIndex(of: "#") { url = String(url[..<hash]) }
                guard !url.isEmpty, url.hasSuffix(".html"), !url.contains(":") else { continue }
                let folder = (page as NSString).deletingLastPathComponent
                let target = Support.normalize(folder.isEmpty ? url : folder + "/" + url)
                if depth[target] == nil, files[target] != nil {
                    depth[target] = depth[page]! + 1
                    queue.append(target)
                }
            }
        }
        // (The model page is linked from the entries checked against the model; these have no checks.)
        for path in files.keys where path.hasSuffix(".html") && path != "404.html" && path != SitePaths.navigationBarModel {
            #expect((depth[path] ?? 99) <= (path.hasPrefix("entries/") ? 3 : 4), "\(path) is \(depth[path].map(String.init) ?? "not") reachable")
        }
        let sitemap = Support.text(files["sitemap.xml"])
        for path in files.keys where path.hasSuffix(".html") && path != "404.html" {
            #expect(sitemap.contains("<loc>/\(path)</loc>"), "sitemap lacks \(path)")
        }
    }

    @Test func linkCheckerCatchesBrokenLinks() {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(dir) }
        TestSupport.write("<a href=\"b/index.html#attempt-2\">x</a><a href=\"missing.html\">y</a><a href=\"b/\">z</a>", to: dir + "/index.html")
        TestSupport.write("<li id=\"attempt-1\"></li>", to: dir + "/b/index.html")
        let problems = Support.brokenLinks(in: dir)
        #expect(problems.count == 3, "\(problems)")
    }

    @Test func entryTextIsEscapedEverywhere() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(dir) }
        TestSupport.write(Support.hostileEntry, to: dir + "/entries/hostile-entry/entry.md")
        TestSupport.write(Support.hostileScenario, to: dir + "/entries/hostile-entry/scenario.feature")
        TestSupport.write(TestSupport.entry(id: "calm-entry", related: ["hostile-entry"], body: "## 问题\n\n坏了。\n"), to: dir + "/entries/calm-entry/entry.md")
        // Verdicts are a closed set (`CheckVerdict`); the report's free text is its date, anchors and messages.
        let report = SiteCheckReport(entries: [.init(id: "hostile-entry", verdict: .stale, checkedAt: "\"><img src=x onerror=alert(1)>",
                                                 attempts: [.init(anchor: "attempt-1", verdict: .stale, message: "<script>alert(1)</script>"),
                                                            .init(anchor: "<div onclick=alert(1)>", verdict: .broken)])])
        TestSupport.write(String(decoding: try JSONEncoder().encode(report), as: UTF8.self), to: dir + "/.kb/check-report.json")
        let result = Support.build([], in: dir)
        #expect(result.code == 0, "\(result.stdout)\(result.stderr)")

        let files = Support.snapshot(dir + "/_site")
        #expect(files.count > 8)
        let dangerousAttribute = try NSRegularExpression(pattern: "(href|src|action)\\s*=\\s*[\"']?\\s*(javascript|vbscript|data):", options: .caseInsensitive)
        // The build manifest is kb's binary cache (no extension, not a page; docs/deploy.md says
        // it need not be published): it holds the entries' text as written.
        for (path, data) in files where path != BuildManifest.fileName {
            let text = Support.text(data)
            for payload in ["<script>alert(1)</script>", "<img src=x", "\"><img", "<div onclick"] {
                #expect(!text.contains(payload), "\(path) contains \(payload)")
            }
            #expect(dangerousAttribute.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) == nil, "\(path) links to a script URL")
            #expect(!path.contains("<") && !path.contains("\""), "file name \(path)")
        }
        let page = Support.text(files["entries/hostile-entry.html"])
        // Shown as text, not dropped.
        #expect(page.contains("<h1>&lt;script&gt;alert(1)&lt;/script&gt; &quot;&gt;&lt;img src=x onerror=alert(1)&gt; [x](javascript:alert(1))</h1>"))
        #expect(page.contains("<li id=\"symptom-1\">&lt;script&gt;alert(1)&lt;/script&gt;</li>"))
        #expect(page.contains("<code>&lt;script&gt;alert(1)&lt;/script&gt;</code>"), "APIs as code")
        #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;\n&quot;&gt;&lt;img"), "code block")
        #expect(page.contains("<span class=\"g-keyword\">Feature</span>: &lt;script&gt;"), "scenario")
        #expect(page.contains("raw HTML omitted"))
        #expect(page.contains("href=\"https://example.com/?a=1&amp;b=2\""))
        #expect(Support.brokenLinks(in: dir + "/_site").isEmpty, "\(Support.brokenLinks(in: dir + "/_site"))")
        #expect(Support.text(files["feed.xml"]).contains("<title>&lt;script&gt;alert(1)&lt;/script&gt;"))

        // --unsafe-html keeps raw HTML written in the body (the author's choice), never in front matter.
        let unsafe = Support.build(["--unsafe-html", "--out", "unsafe"], in: dir)
        #expect(unsafe.code == 0)
        let unsafePage = Support.text(Support.snapshot(dir + "/unsafe")["entries/hostile-entry.html"])
        #expect(unsafePage.contains("<div onclick=\"alert(1)\">"))
        #expect(unsafePage.contains("<h1>&lt;script&gt;alert(1)&lt;/script&gt;"))
    }

    @Test func buildsAreByteIdentical() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(dir) }
        let first = Support.build(["--out", dir + "/a", "--base-url", "https://example.com/kb/"], in: TestSupport.repositoryRoot)
        let second = Support.build(["--out", dir + "/b", "--base-url", "https://example.com/kb/"], in: TestSupport.repositoryRoot)
        #expect(first.code == 0 && second.code == 0)
        let a = Support.snapshot(dir + "/a"), b = Support.snapshot(dir + "/b")
        #expect(a.count > 10)
        #expect(a.keys.sorted() == b.keys.sorted())
        for (path, data) in a { #expect(b[path] == data, "\(path) differs") }
        // Rebuilding over the same folder gives the same bytes too.
        let third = Support.build(["--out", dir + "/a", "--base-url", "https://example.com/kb/"], in: TestSupport.repositoryRoot)
        #expect(third.code == 0)
        #expect(Support.snapshot(dir + "/a") == a)
    }

    @Test func failedBuildKeepsThePreviousSite() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(dir) }
        TestSupport.write(TestSupport.entry(id: "good-one", body: "## 问题\n\n坏了。\n"), to: dir + "/entries/good-one/entry.md")
        let first = Support.build([], in: dir)
        #expect(first.code == 0, "\(first.stderr)")
        let before = Support.snapshot(dir + "/_site")
        #expect(before["entries/good-one.html"] != nil)

        TestSupport.write(TestSupport.entry(id: "bad-one", body: "## 问题\n\n坏了。\n").replacingOccurrences(of: "updated: 2026-11-29", with: "updated: yesterday"),
                          to: dir + "/entries/bad-one/entry.md")
        let failed = Support.build([], in: dir)
        #expect(failed.code == 1)
        #expect(failed.stderr.contains("entries/bad-one/entry.md:"), "diagnostics are printed: \(failed.stderr)")
        #expect(failed.stderr.contains("[invalid-date]"))
        #expect(failed.stderr.contains("build failed at validate: entries/bad-one/entry.md"), "\(failed.stderr)")
        #expect(Support.snapshot(dir + "/_site") == before)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix(".") && $0 != ".kb" }
        #expect(leftovers.isEmpty, "staging folders left behind: \(leftovers)")

        // Warnings alone do not fail the build; they are printed.
        TestSupport.remove(dir + "/entries/bad-one")
        TestSupport.write(TestSupport.entry(id: "warn-one", body: "### 方案 1\n\n没有结果。\n"), to: dir + "/entries/warn-one/entry.md")
        let warned = Support.build([], in: dir)
        #expect(warned.code == 0)
        #expect(warned.stderr.contains("warning:") && warned.stderr.contains("[unknown-outcome]"))
        #expect(Support.snapshot(dir + "/_site")["entries/warn-one.html"] != nil)
    }

    @Test func refusesToReplaceFoldersItDidNotWrite() {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(dir) }
        TestSupport.write(TestSupport.entry(id: "good-one", body: "## 问题\n\n坏了。\n"), to: dir + "/entries/good-one/entry.md")
        TestSupport.write("keep me", to: dir + "/docs/notes.txt")
        let docs = Support.build(["--out", "docs"], in: dir)
        #expect(docs.code == 1)
        #expect(docs.stderr.contains("not written by kb build"), "\(docs.stderr)")
        #expect(FileManager.default.contents(atPath: dir + "/docs/notes.txt") == Data("keep me".utf8))
        for out in [".", "entries", "entries/good-one/site", dir] {
            let result = Support.build(["--out", out], in: dir)
            #expect(result.code == 1, "--out \(out)")
        }
        #expect(FileManager.default.fileExists(atPath: dir + "/entries/good-one/entry.md"))
        #expect(Support.build(["--base-url", "javascript:alert(1)"], in: dir).code == 64)
        #expect(Support.build(["--base-url", "kb"], in: dir).code == 64)
    }

    @Test func baseURLAppearsOnlyInSitemapFeedAndCanonicalLinks() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(dir) }
        let result = Support.build(["--out", dir + "/site", "--base-url", "/kb/"], in: TestSupport.repositoryRoot)
        #expect(result.code == 0)
        let files = Support.snapshot(dir + "/site")
        let id = try #require(TestSupport.entryIDs.first)
        let sitemap = Support.text(files["sitemap.xml"])
        #expect(sitemap.contains("<loc>/kb/entries/\(id).html</loc>"))
        #expect(sitemap.contains("<loc>/kb/index.html</loc>"))
        let feed = Support.text(files["feed.xml"])
        #expect(feed.contains("href=\"/kb/entries/\(id).html\""))
        #expect(feed.contains("<link rel=\"self\" type=\"application/atom+xml\" href=\"/kb/feed.xml\"/>"))
        for (path, data) in files where path.hasSuffix(".html") {
            let html = Support.text(data)
            // Links that start at the base URL (an entry may cite an outside page whose path has /kb/).
            for link in Support.links(in: html) where link.url.hasPrefix("/kb/") {
                let allowed = link.tag.hasPrefix("<link rel=\"canonical\"") || (path == "404.html" && link.tag.hasPrefix("<base"))
                #expect(allowed, "\(path): \(link.tag)")
            }
            if path != "404.html" {
                #expect(html.contains("<link rel=\"canonical\" href=\"/kb/\(path)\">"), "\(path) canonical")
            }
        }
        #expect(Support.brokenLinks(in: dir + "/site").isEmpty)

        // Without --base-url nothing mentions /kb/.
        let plain = Support.build(["--out", dir + "/plain"], in: TestSupport.repositoryRoot)
        #expect(plain.code == 0)
        for (path, data) in Support.snapshot(dir + "/plain") where path.hasSuffix(".html") || path.hasSuffix(".xml") {
            let text = Support.text(data)
            #expect(!text.contains("\"/kb/") && !text.contains(">/kb/"), "\(path)")
        }
    }

    @Test func showsScenarioAndCheckResults() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(dir) }
        let body = """
        ## 问题

        坏了。

        ### 方案 1：先试试

        结果：失败。没用。

        ### 方案 2：再试试

        结果：成功。

        ## 最终方案

        就这样。
        """
        TestSupport.write(TestSupport.entry(id: "checked", status: "resolved", body: body), to: dir + "/entries/checked/entry.md")
        TestSupport.write("# comment\n@smoke\nFeature: 检查\n  Scenario: 一\n    When I run \"echo a\"\n    Then the exit status is 0\n", to: dir + "/entries/checked/scenario.feature")
        TestSupport.write(TestSupport.entry(id: "unchecked", body: "## 问题\n\n坏了。\n"), to: dir + "/entries/unchecked/entry.md")
        let report = """
        {"entries": [
          {"id": "checked", "verdict": "fail", "checkedAt": "2026-11-01T00:00:00Z", "attempts": [{"anchor": "attempt-1", "verdict": "pass"}]},
          {"id": "checked", "verdict": "pass", "checkedAt": "2026-11-30T08:00:00Z",
           "attempts": [{"anchor": "attempt-1", "verdict": "fail", "message": "still broken"}, {"anchor": "attempt-2", "verdict": "pass"},
                        {"anchor": "attempt-9", "verdict": "pass"}]}
        ], "extra": true}
        """
        TestSupport.write(report, to: dir + "/.kb/check-report.json")
        let result = Support.build([], in: dir)
        #expect(result.code == 0, "\(result.stderr)")
        let files = Support.snapshot(dir + "/_site")
        let page = Support.text(files["entries/checked.html"])
        #expect(page.contains("id=\"checks\""))
        #expect(page.contains("<span class=\"g-keyword\">Feature</span>: 检查"))
        #expect(page.contains("<span class=\"g-comment\"># comment</span>"))
        #expect(page.contains("<span class=\"g-tag\">@smoke</span>"))
        #expect(page.contains("2026-11-30T08:00:00Z"), "the latest report wins")
        let attempt1 = try #require(page.range(of: "id=\"attempt-1\""))
        let attempt2 = try #require(page.range(of: "id=\"attempt-2\""))
        let card1 = String(page[attempt1.upperBound..<attempt2.lowerBound])
        #expect(card1.contains("check-fail") && card1.contains("still broken"))
        // A verdict says what it means for the record, in the page's language: the failed
        // attempt 1 no longer fails as recorded; the worked attempt 2 still works.
        #expect(card1.contains(">与记录不符</span>"), "\(card1)")
        let card2 = String(page[attempt2.upperBound...].prefix(600))
        // `pass` is an older spelling of `reproduces` (docs/site.md): the title is the verdict as kb check writes it.
        #expect(card2.contains("<span class=\"badge check-pass\" title=\"reproduces\">有效</span>"), "\(card2)")
        #expect(page.contains("<th scope=\"row\" role=\"rowheader\">attempt-9</th>"), "unknown anchors are listed, not linked")
        #expect(Support.text(files["index.html"]).contains("check-pass"))
        let unchecked = Support.text(files["entries/unchecked.html"])
        #expect(!unchecked.contains("id=\"checks\"") && !unchecked.contains("check-"), "nothing without a report or scenario")
        #expect(Support.brokenLinks(in: dir + "/_site").isEmpty)

        // A failed attempt whose failure reproduces: "failure confirmed", never a green ✓.
        TestSupport.write("""
        {"entries": [{"id": "checked", "verdict": "pass", "checkedAt": "2026-12-01T08:00:00Z",
           "attempts": [{"anchor": "attempt-1", "verdict": "reproduces"}, {"anchor": "attempt-2", "verdict": "reproduces"}]}]}
        """, to: dir + "/.kb/check-report.json")
        #expect(Support.build([], in: dir).code == 0)
        let confirmed = Support.text(Support.snapshot(dir + "/_site")["entries/checked.html"])
        let first = try #require(confirmed.range(of: "id=\"attempt-1\""))
        let second = try #require(confirmed.range(of: "id=\"attempt-2\""))
        let failedCard = String(confirmed[first.upperBound..<second.lowerBound])
        #expect(failedCard.contains("<span class=\"badge check-confirmed\" title=\"reproduces\">失败已复现</span>"), "\(failedCard)")
        #expect(!failedCard.contains("check-pass"))
        #expect(String(confirmed[second.upperBound...].prefix(600)).contains("check-pass\" title=\"reproduces\">有效<"))

        TestSupport.write("{\"entries\": [{\"verdict\": 1}]}", to: dir + "/.kb/check-report.json")
        let broken = Support.build([], in: dir)
        #expect(broken.code == 1)
        #expect(broken.stderr.contains("build failed at load: .kb/check-report.json"), "\(broken.stderr)")
    }
}

@Suite struct SitePartsTests {
    @Test(arguments: [
        ("SwiftUI 네비게이션 바 그림자", ScriptLanguage.ko),
        ("ナビゲーションバー 外観", .ja),
        ("大标题 背景图", .zh),
        ("漢字だけ", .ja),
        ("navigation bar shadow", .en),
        ("UINavigationBar.appearance()", .en),
    ])
    func detectsPhraseLanguageByScript(phrase: String, language: ScriptLanguage) {
        #expect(ScriptLanguage.detect(phrase) == language)
    }

    /// A phrase of kanji alone is Japanese in a Japanese entry, Chinese elsewhere; kana and
    /// Hangul decide whatever the entry.
    @Test(arguments: [
        ("NFKD 濁点 分離 U+3099", "ja", ScriptLanguage.ja),
        ("SwiftUI navigationItem 取得 EnvironmentKey", "ja-JP", .ja),
        ("NFKD 濁点 分離 U+3099", "zh-Hans", .zh),
        ("大标题 背景图", "ko", .zh),
        ("ナビゲーションバー", "zh-Hans", .ja),
        ("네비게이션 바", "ja", .ko),
        ("navigation bar shadow", "ja", .en),
    ])
    func hanOnlyPhraseTakesTheEntrysJapanese(phrase: String, entryLang: String, language: ScriptLanguage) {
        #expect(ScriptLanguage.detect(phrase, entryLang: entryLang) == language)
    }

    /// A file written in pieces holds them in order, empty ones and more than one `writev`
    /// takes (1,024) included.
    @Test(arguments: [1, 2, 1023, 1024, 1025, 3000])
    func writerJoinsPieces(count: Int) throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(dir) }
        let writer = try SiteWriter(output: dir + "/site", protected: [], sources: [])
        var expected: [UInt8] = []
        var storage: [[UInt8]] = []
        for k in 0..<count {
            let piece = k % 5 == 3 ? [] : Array("piece \(k);".utf8)
            storage.append(piece)
            expected += piece
        }
        let pointers = storage.map { piece in
            let p = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, piece.count), alignment: 1)
            p.copyBytes(from: piece)
            return (p, piece.count)
        }
        defer { for (p, _) in pointers { p.deallocate() } }
        try writer.write("joined.txt", pieces: pointers.map { UnsafeRawBufferPointer(rebasing: $0.0[0..<$0.1]) })
        #expect(writer.writtenBytes == expected.count)
        try writer.commit()
        let written = try #require(FileManager.default.contents(atPath: dir + "/site/joined.txt"))
        #expect([UInt8](written) == expected)
    }

    @Test func tagSlugsAreSafeAndDistinct() {
        #expect(SitePaths.tagSlug("swiftui") == "swiftui")
        #expect(SitePaths.tagSlug("navigation-bar") == "navigation-bar")
        for tag in ["../etc", "a/b", "Swift", "内存", "<script>", ".", "..", "", "a--b", "-a"] {
            let slug = SitePaths.tagSlug(tag)
            #expect(slug.hasPrefix("_") && slug.count == 17, "\(tag) → \(slug)")
        }
        #expect(SitePaths.tagSlug("Swift") != SitePaths.tagSlug("SWIFT"))
    }

    @Test func relativePaths() {
        #expect(SitePaths.relative("index.html", from: "index.html") == "index.html")
        #expect(SitePaths.relative("tags/x/index.html", from: "entries/a/index.html") == "../../tags/x/index.html")
        #expect(SitePaths.relative("assets/style.css", from: "symptoms/index.html") == "../assets/style.css")
    }

    @Test func unsafeURLsAreRefused() {
        for url in ["javascript:alert(1)", "JavaScript:alert(1)", " javascript:x", "java\tscript:x", "vbscript:x", "data:text/html,x", "\u{1}javascript:x"] {
            #expect(!HTML.isSafeURL(url), "\(url)")
        }
        for url in ["../../index.html", "#attempt-2", "https://example.com/", "/kb/feed.xml", "a/b:c"] {
            #expect(HTML.isSafeURL(url), "\(url)")
        }
        #expect(HTML.href("javascript:alert(1)") == "href=\"#\"")
        #expect(HTML.escape("<a href=\"x\">'&'</a>") == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
    }

    @Test func baseURLParsing() {
        #expect(BaseURL(parsing: "/kb")?.value == "/kb/")
        #expect(BaseURL(parsing: "https://example.com/kb/")?.value == "https://example.com/kb/")
        for bad in ["kb/", "//evil.example/", "javascript:alert(1)", "/k b/", "/kb/\"x", "/kb/?q=1"] {
            #expect(BaseURL(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test func gherkinIsEscapedAndHighlighted() {
        let html = ScenarioRenderer.render("Feature: <b>x</b>\n  Scenario Outline: y\n    假如 一\n    그리고 둘\n    もし 三\n    Givenness is not a keyword\n")
        #expect(html.contains("<span class=\"g-keyword\">Feature</span>: &lt;b&gt;x&lt;/b&gt;"))
        #expect(html.contains("<span class=\"g-keyword\">Scenario Outline</span>: y"))
        #expect(html.contains("<span class=\"g-keyword\">假如</span> 一"))
        #expect(html.contains("<span class=\"g-keyword\">그리고</span> 둘"))
        #expect(html.contains("<span class=\"g-keyword\">もし</span> 三"))
        #expect(html.contains("    Givenness is not a keyword"))
    }
}

@Suite struct SiteModelPageTests {
    typealias Support = SiteTestSupport

    /// The rule catalogue is a page of the site; model-checked entry pages say so and link each
    /// rule their scenarios exercised to it.
    @Test func ruleCatalogueAndRuleLinks() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(dir) }
        let ids = ["large-title-custom-background", "title-attributes-pop-timing"]
        let checker = EntryChecker(settings: CheckTestSupport.settings)
        let checks = try ids.map { checker.check(try CheckTestSupport.item(TestSupport.entriesDirectory, $0)) }
        let report = CheckReport(checkedAt: CheckReport.timestamp(), entries: checks)
        try FileManager.default.createDirectory(atPath: dir + "/.kb", withIntermediateDirectories: true)
        try report.jsonData().write(to: URL(fileURLWithPath: dir + "/.kb/check-report.json"))
        let result = Support.build(["--out", dir + "/site"], in: dir, entries: TestSupport.entriesDirectory)
        #expect(result.code == 0, "\(result.stderr)")
        let files = Support.snapshot(dir + "/site")
        let model = Support.text(files[SitePaths.navigationBarModel])
        for rule in NavigationBarRules.catalogue {
            #expect(model.contains("id=\"\(rule.id)\""), "the model page lacks \(rule.id)")
        }
        #expect(model.contains("../../entries/large-title-custom-background.html#checks"))
        let page = Support.text(files["entries/large-title-custom-background.html"])
        // The note on the model is in the page's language (the entry is in Chinese).
        #expect(page.contains(">导航栏模型</a>检查（规则 ") && page.contains("），并非在真机上。</p>"))
        let exercised = NavigationBarRules.sortIDs(checks[0].attempts.flatMap(\.rules))
        #expect(!exercised.isEmpty)
        for rule in exercised { #expect(page.contains("href=\"../model/navigation-bar/index.html#\(rule)\""), "no link to \(rule)") }
        #expect(Support.text(files["sitemap.xml"]).contains("model/navigation-bar/index.html"))
        let problems = Support.brokenLinks(in: dir + "/site")
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }
}

/// The web export's files for tokens with many records (docs/search.md §6).
@Suite struct SiteSearchExportTests {
    @Test func tokensWithManyRecordsGetFilesOfTheirOwn() throws {
        let index = SearchIndex.build(documents: SearchTestCorpus.documents, glossary: SearchTestCorpus.glossary)
        let inline = SearchWebExport.build(documents: SearchTestCorpus.documents, glossary: SearchTestCorpus.glossary, shardCount: 4)
        let split = SearchWebExport.build(documents: SearchTestCorpus.documents, glossary: SearchTestCorpus.glossary, shardCount: 4,
                                          ownFileRecords: 0)
        #expect(inline.tokenFiles.isEmpty || inline.tokenFiles.count < split.tokenFiles.count)
        #expect(split.tokenFiles.count == index.tokenCount)
        #expect(split.meta == inline.meta)
        #expect(split.docs == inline.docs)
        func tokens(_ data: Data) throws -> [String: Any] {
            let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(json["v"] as? Int == SearchWebExport.formatVersion)
            return try #require(json["t"] as? [String: Any])
        }
        for (i, (a, b)) in zip(inline.shards, split.shards).enumerated() {
            let whole = try tokens(a), named = try tokens(b)
            #expect(Set(whole.keys) == Set(named.keys), "shard \(i)")
            for (token, value) in named {
                // The shard names the file; the file holds exactly what the shard held inline.
                let k = try #require(value as? Int, "\(token) is not a file number")
                let file = try tokens(split.tokenFiles[k])
                #expect(Array(file.keys) == [token])
                #expect((file[token] as? NSArray) == (whole[token] as? NSArray), "\(token)")
            }
        }
        // The metadata holds nothing per document.
        let meta = try #require(try JSONSerialization.jsonObject(with: split.meta) as? [String: Any])
        #expect(meta["docs"] == nil)
        #expect(split.meta.count < 4096)
    }
}

/// The web export itself (docs/search.md §6): independent of how the documents are split
/// among threads, the same files in both framings, numbers as the format describes them.
@Suite struct SearchWebExportTests {
    static func manyDocuments() -> [SearchDocument] {
        var docs: [SearchDocument] = []
        for i in 0..<40 {
            for var d in SearchTestCorpus.documents {
                d.id = "\(d.id)-\(i)"
                docs.append(d)
            }
        }
        return docs
    }

    /// Files handed over as they are made (documents whole, shards and token files in pieces, a
    /// token file straight from the workers' record streams) are, joined, the files the export
    /// otherwise holds, however many batches there are.
    @Test(arguments: [1, 3, 7])
    func filesHandedOverAreTheFilesHeld(chunks: Int) {
        let docs = Self.manyDocuments()
        let held = SearchWebExport.build(documents: docs, glossary: SearchTestCorpus.glossary, shardCount: 8, ownFileRecords: 4,
                                         framing: .script, chunkCount: 1)
        final class Received: @unchecked Sendable {
            let lock = NSLock()
            var docs: [Int: Data] = [:], shards: [Int: Data] = [:], tokens: [Int: Data] = [:], pieces = 0
        }
        let received = Received()
        let written = SearchWebExport.build(
            count: docs.count, id: { docs[$0].id }, document: { docs[$0] }, glossary: SearchTestCorpus.glossary, shardCount: 8,
            ownFileRecords: 4, framing: .script, chunkCount: chunks,
            documentSink: { d, data in received.lock.lock(); received.docs[d] = data; received.lock.unlock() },
            postingsWriter: { kind, k, pieces in
                var data = Data()
                for piece in pieces { data.append(contentsOf: piece) }
                received.lock.lock(); defer { received.lock.unlock() }
                received.pieces = max(received.pieces, pieces.count)
                switch kind {
                case .shard: received.shards[k] = data
                case .token: received.tokens[k] = data
                }
            })
        #expect(written.docs.isEmpty && written.shards.isEmpty && written.tokenFiles.isEmpty)
        #expect(written.meta == held.meta && written.filters == held.filters)
        #expect(!held.tokenFiles.isEmpty)
        #expect(received.docs.count == held.docs.count && held.docs.indices.allSatisfy { received.docs[$0] == held.docs[$0] })
        #expect(received.shards.count == held.shards.count && held.shards.indices.allSatisfy { received.shards[$0] == held.shards[$0] })
        #expect(received.tokens.count == held.tokenFiles.count
                && held.tokenFiles.indices.allSatisfy { received.tokens[$0] == held.tokenFiles[$0] })
        // A token file is its start, then a head and a stream per batch that has the token, then its end.
        #expect(received.pieces >= 3 && received.pieces <= 2 * chunks + 2)
    }

    @Test func chunkingDoesNotChangeTheFiles() {
        let docs = Self.manyDocuments()
        let one = SearchWebExport.build(documents: docs, glossary: SearchTestCorpus.glossary, chunkCount: 1)
        for chunks in [2, 7, 23] {
            let many = SearchWebExport.build(documents: docs, glossary: SearchTestCorpus.glossary, chunkCount: chunks)
            #expect(one.meta == many.meta)
            #expect(one.shards == many.shards, "\(chunks) chunks")
            #expect(one.tokenFiles == many.tokenFiles, "\(chunks) chunks")
            #expect(one.docs == many.docs)
            #expect(one.filters == many.filters)
        }
    }

    @Test func scriptFilesWrapTheJSON() throws {
        let docs = SearchTestCorpus.documents
        let json = SearchWebExport.build(documents: docs, glossary: SearchTestCorpus.glossary, shardCount: 4, ownFileRecords: 2)
        let script = SearchWebExport.build(documents: docs, glossary: SearchTestCorpus.glossary, shardCount: 4, ownFileRecords: 2,
                                           framing: .script)
        func check(_ kind: String, _ n: Int, _ plain: Data, _ wrapped: Data) {
            let body = String(decoding: plain, as: UTF8.self)
            #expect(String(decoding: wrapped, as: UTF8.self) == "__kbSearchData(\"\(kind)\",\(n),\(body.dropLast()));\n")
        }
        check("meta", 0, json.meta, script.meta)
        check("filters", 0, json.filters, script.filters)
        for i in json.shards.indices { check("shard", i, json.shards[i], script.shards[i]) }
        #expect(!json.tokenFiles.isEmpty)
        for k in json.tokenFiles.indices { check("token", k, json.tokenFiles[k], script.tokenFiles[k]) }
        for d in json.docs.indices { check("doc", d, json.docs[d], script.docs[d]) }
    }

    /// Decodes postings digits as docs/search.md §6 describes them.
    static func decode(_ chars: [UInt8], at i: inout Int, t: Int) -> Int {
        let alphabet = Array((0x20...0x7E).map(UInt8.init).filter { !"\"&<>\\".utf8.contains($0) })
        var v = 0, m = 1
        while true {
            let x = alphabet.firstIndex(of: chars[i])!
            i += 1
            v += x * m
            if x < t { return v }
            m *= 90 - t
        }
    }

    @Test func postingsDigitsFollowTheFormat() {
        #expect(WebDigits.alphabet.count == 90)
        #expect(WebDigits.alphabet.allSatisfy { $0 >= 0x20 && $0 < 0x7F && !"\"&<>\\".utf8.contains($0) })
        let values: [UInt32] = [0, 1, 39, 40, 63, 64, 79, 80, 89, 90, 1000, 1727, 1728, 65_535, 1 << 20, UInt32(Int32.max), .max]
        for t in [WebDigits.headT, WebDigits.lengthT] {
            var out = [UInt8](repeating: 0, count: values.count * WebDigits.maxLength)
            var n = 0
            out.withUnsafeMutableBytes { raw in
                WebDigits.alphabet.withUnsafeBufferPointer { digits in
                    for v in values {
                        let k = WebDigits.write(v, t, to: raw.baseAddress! + n, digits.baseAddress!)
                        #expect(k == WebDigits.length(v, t) && k <= WebDigits.maxLength)
                        n += k
                    }
                }
            }
            var i = 0
            for v in values { #expect(Self.decode(out, at: &i, t: Int(t)) == Int(v)) }
            #expect(i == n)
        }
        // One character below t, two from t on.
        #expect(WebDigits.length(63, 64) == 1 && WebDigits.length(64, 64) == 2)
    }

    @Test func documentFilesLeaveOutWhatTheyRepeat() throws {
        let export = SearchWebExport.build(documents: SearchTestCorpus.documents)
        for data in export.docs {
            let doc = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let texts = try #require(doc["texts"] as? [[Any]])
            // The title only when it is not the first text; no trailing nulls.
            if let title = doc["title"] as? String { #expect(texts.first?[1] as? String != title) }
            for text in texts {
                #expect((2...4).contains(text.count))
                #expect(!(text.last is NSNull))
            }
        }
    }
}

/// The site's scripts lose comment lines and indentation, and nothing else (docs/site.md).
@Suite struct ScriptCompactionTests {
    @Test(arguments: [
        ("comment lines and indentation", "/*\n * Header\n */\n(function () {\n  // note\n  var a = 1; // kept\n\n  return a;\n})();\n",
         "(function () {\nvar a = 1; // kept\nreturn a;\n})();\n"),
        ("a block comment before code on its last line", "  /** doc */ function f() {}\n/* a\n b */ g();\n",
         "function f() {}\ng();\n"),
        ("a template literal keeps the script as it is", "var s = `a\n  // not a comment\n`;\n",
         "var s = `a\n  // not a comment\n`;\n"),
        ("a string continued over lines keeps the script as it is", "var s = 'a\\\n  // b';\n", "var s = 'a\\\n  // b';\n"),
        ("a comment opened after code keeps the script as it is", "x(); /* a\n/* b */ y();\n", "x(); /* a\n/* b */ y();\n"),
        ("an unclosed comment keeps the script as it is", "x();\n/* open\n", "x();\n/* open\n"),
        ("carriage returns keep the script as it is", "// a\r\nx();\r\n", "// a\r\nx();\r\n"),
        ("no newline at the end", "  x();\n  // c", "x();"),
        ("blank and comment-only lines only", "\n  \n// a\n", "\n"),
        ("text after a closing comment mark", "/* a */ x(); // b\n/* c\n d */ y();\n", "x(); // b\ny();\n"),
        ("non-ASCII text is kept", "  var s = \"导航栏 네비게이션 ナビ\";\n", "var s = \"导航栏 네비게이션 ナビ\";\n"),
        ("empty", "", ""),
    ])
    func compaction(name: String, source: String, expected: String) {
        #expect(ScriptCompaction.compact(source) == expected, "\(name)")
    }

    /// The search scripts the site serves are smaller (the browser and node tests run them).
    @Test func siteScriptsShrink() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("site/assets")
        for name in ["search-core.js", "search.js"] {
            let source = try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)
            let compact = ScriptCompaction.compact(source)
            #expect(compact.utf8.count < source.utf8.count, "\(name) was not compacted")
            #expect(!compact.contains("\n//") && !compact.contains("\n "), "\(name)")
        }
    }
}
