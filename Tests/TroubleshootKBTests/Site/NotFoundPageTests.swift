import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

/// 404.html works at any depth: the theme's stylesheet is inlined (a link to it breaks where
/// hosts serve the page), and its links are made right by a `<base>` when the base URL is known,
/// else by the root finder script. (Tests/js/not-found.test.mjs opens it in Chromium.)
@Suite struct NotFoundPageTests {
    typealias Support = SiteTestSupport

    @Test(arguments: [
        (name: "without a base URL: the root finder, no <base>", options: [String](), base: nil as String?),
        (name: "with --base-url /kb/: a <base>, no script", options: ["--base-url", "/kb/"], base: "/kb/"),
    ])
    func inlinesTheStylesheet(name: String, options: [String], base: String?) throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(dir) }
        let result = Support.build(["--out", dir + "/site"] + options, in: TestSupport.repositoryRoot)
        #expect(result.code == 0, "\(name): \(result.stderr)")
        let page = try String(contentsOfFile: dir + "/site/404.html", encoding: .utf8)
        let stylesheet = try String(contentsOfFile: Support.assetsDirectory + "/" + SitePaths.stylesheet, encoding: .utf8)
        #expect(page.contains("<style>\n" + stylesheet), "\(name): the theme's stylesheet is not inlined")
        #expect(!page.contains("rel=\"stylesheet\""), "\(name)")
        #expect(page.contains("<base href=\"/kb/\">") == (base != nil), "\(name)")
        #expect(page.contains("data-site-root") == (base == nil), "\(name)")
        #expect(page.contains("<a class=\"site-name\" href=\"index.html\">"), "\(name)")
    }

    @Test(arguments: [
        (name: "a closing style tag in a comment", css: "/* </style><script>alert(1)</script> */\nbody { color: red; }\n"),
        (name: "a closing style tag in a string, upper case", css: "a::after { content: \"</STYLE><img src=x onerror=alert(1)>\"; }\n"),
    ])
    func aThemeCannotCloseTheStyleElement(name: String, css: String) throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(dir) }
        TestSupport.write(css, to: dir + "/theme/" + SitePaths.stylesheet)
        let result = TestSupport.kb(["build", "--out", dir + "/site"], in: TestSupport.repositoryRoot, environment: ["KB_SITE": dir + "/theme"])
        #expect(result.code == 0, "\(name): \(result.stderr)")
        let page = try String(contentsOfFile: dir + "/site/404.html", encoding: .utf8)
        let style = try #require(page.range(of: "<style>\n")?.upperBound)
        let end = try #require(page.range(of: "</style>")?.lowerBound)
        #expect(style < end)
        let inlined = String(page[style..<end])
        #expect(!inlined.lowercased().contains("</"), "\(name): \(inlined)")
        #expect(inlined.replacingOccurrences(of: "<\\/", with: "</") == css, "\(name): the CSS changed beyond the escape")
        #expect(page.components(separatedBy: "<style>").count == 2 && page.components(separatedBy: "</style>").count == 2, "\(name)")
    }
}
