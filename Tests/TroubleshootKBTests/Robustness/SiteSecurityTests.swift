import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

/// Hostile text planted in every place an entry can hold text; the built site, its web search
/// index and search results must carry it only escaped.
@Suite("Security: hostile entries, paths and scenarios")
struct SiteSecurityTests {
    /// The scenario file's name is itself a payload.
    static let hostileFileName = "\"><img src=x onerror=alert(kb-xss-file)>.feature"

    static let hostileEntry = #"""
        ---
        id: hostile-entry
        title: 'Title <script>alert("kb-xss-title")</script> "><img src=x onerror=alert("kb-xss-title2")>'
        lang: en
        summary: '</script><script>alert("kb-xss-summary")</script> <!-- kb-xss-comment'
        symptoms:
          - '<script>alert("kb-xss-symptom")</script>'
          - '"><img src=x onerror=alert("kb-xss-symptom2")>'
        platforms: ['<script>alert("kb-xss-platform")</script>']
        apis: ['"><svg onload=alert("kb-xss-api")>']
        tags: ['<script>alert("kb-xss-tag")</script>', 'x" onmouseover="alert(kb-xss-tag2)']
        status: resolved
        scenario: '"><img src=x onerror=alert(kb-xss-file)>.feature'
        updated: 2026-11-29
        ---

        # Heading <script>alert("kb-xss-heading")</script>

        ## Problem

        Raw HTML: <script>alert("kb-xss-raw")</script> and <img src=x onerror=alert("kb-xss-rawimg")>

        <div onclick="alert('kb-xss-block')">block html</div>

        [click](javascript:alert("kb-xss-js")) [vb](vbscript:msgbox("kb-xss-vb"))
        [data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==) [spaced](<  JaVaScRiPt:alert("kb-xss-js2")>)
        ![img](javascript:alert("kb-xss-img")) <javascript:alert("kb-xss-autolink")>

        <a href="javascript:alert('kb-xss-a')">raw link</a>

        ```html
        </script><script>alert("kb-xss-code")</script>
        ```

        ## Attempts

        ### Attempt 1: <script>alert("kb-xss-attempt")</script>

        Result: failed, "><img src=x onerror=alert("kb-xss-result")>

        ## Fix

        Use `</script><script>alert("kb-xss-inline")</script>` and "><img src=x onerror=alert("kb-xss-fix")>.

        """#

    static let hostileScenario = #"""
        Feature: <script>alert("kb-xss-feature")</script>
          @attempt-1
          Scenario: "><img src=x onerror=alert("kb-xss-scenario")>
            When I run "echo '</script><script>alert(kb-xss-step)</script>'"
            Then the exit status is 1

          @fix
          Scenario: fix </script><script>alert("kb-xss-fix-scenario")</script>
            When I run "echo '\"><img src=x onerror=alert(kb-xss-output)>'"
            Then stdout contains "kb-xss-output"

        """#

    static func makeKnowledgeBase() throws -> String {
        let root = TestSupport.temporaryDirectory()
        try BrokenInputCorpus.write(hostileEntry, root + "/entries/hostile-entry/entry.md")
        try BrokenInputCorpus.write(hostileScenario, root + "/entries/hostile-entry/" + hostileFileName)
        return root
    }

    static func kb(_ arguments: [String], root: String) -> (code: Int32, stdout: String, stderr: String) {
        TestSupport.kb(arguments, in: root, environment: ["KB_SITE": SiteTestSupport.assetsDirectory, "NO_COLOR": "1"])
    }

    /// Unescaped forms of the payloads: markup a browser would run.
    static let forbidden: [NSRegularExpression] = [
        "<script>alert", "</script><script>", "<img src=x", "<svg onload", "<div onclick", "<!-- kb-xss",
        // Links and sources with a script-running scheme.
        "(href|src|action)\\s*=\\s*[\"']?\\s*(javascript|vbscript|data):",
    ].map { try! NSRegularExpression(pattern: $0, options: [.caseInsensitive]) }

    static let tagPattern = try! NSRegularExpression(pattern: "<[a-zA-Z][^>]*>")
    static let quotedValue = try! NSRegularExpression(pattern: "\"[^\"]*\"|'[^']*'")
    static let handlerAttribute = try! NSRegularExpression(pattern: "\\son[a-zA-Z]+\\s*=", options: [.caseInsensitive])

    static func unescapedPayloads(in text: String) -> [String] {
        let range = NSRange(text.startIndex..., in: text)
        // Any element with an event-handler attribute (outside quoted attribute values).
        var found: [String] = []
        for match in tagPattern.matches(in: text, range: range) {
            let tag = String(text[Range(match.range, in: text)!])
            let bare = quotedValue.stringByReplacingMatches(in: tag, range: NSRange(tag.startIndex..., in: tag), withTemplate: "\"\"")
            if handlerAttribute.firstMatch(in: bare, range: NSRange(bare.startIndex..., in: bare)) != nil { found.append("event handler in \(tag)") }
        }
        return found + forbidden.compactMap { regex in
            regex.firstMatch(in: text, range: range).map { match in
                let at = Range(match.range, in: text)!
                return "\(regex.pattern): …\(text[text.index(at.lowerBound, offsetBy: -min(60, text.distance(from: text.startIndex, to: at.lowerBound)))..<at.upperBound])"
            }
        }
    }

    @Test("hostile text in every field is escaped in every file of the site")
    func siteIsSafe() throws {
        let root = try Self.makeKnowledgeBase()
        defer { TestSupport.remove(root) }
        let lint = Self.kb(["lint"], root: root)
        try #require(lint.code == 0, "\(lint.stdout)\(lint.stderr)")
        // The check report (scenario names, step text and output) reaches the site too.
        _ = Self.kb(["check", "--timeout", "20"], root: root)
        #expect(FileManager.default.fileExists(atPath: root + "/.kb/check-report.json"))
        let build = Self.kb(["build"], root: root)
        try #require(build.code == 0, "\(build.stdout)\(build.stderr)")

        let files = SiteTestSupport.snapshot(root + "/_site")
        #expect(files.keys.contains("entries/hostile-entry.html"))
        var checked = 0
        // The build manifest is kb's binary cache, not a page (no extension; docs/deploy.md: it
        // need not be published). It holds the entries' text as written; it starts with its magic
        // line, so a browser sniffing a file served without a type never takes it for HTML.
        let manifest = try #require(files[BuildManifest.fileName])
        #expect(manifest.starts(with: Array("\(BuildManifest.magic) ".utf8)))
        for (path, data) in files.sorted(by: { $0.key < $1.key }) where path != BuildManifest.fileName {
            let text = String(decoding: data, as: UTF8.self)
            #expect(Self.unescapedPayloads(in: text).isEmpty, "\(path): \(Self.unescapedPayloads(in: text))")
            checked += 1
        }
        #expect(checked >= 6)
        // The payloads did reach the pages, escaped.
        let page = SiteTestSupport.text(files["entries/hostile-entry.html"])
        #expect(page.contains("&lt;script&gt;alert(&quot;kb-xss-title&quot;)&lt;/script&gt;"))
        #expect(page.contains("kb-xss-symptom2"))
        #expect(page.contains("kb-xss-code"))
        #expect(!page.contains("<script>alert(\"kb-xss-raw\")"), "raw HTML must be omitted without --unsafe-html")
        #expect(page.contains("raw HTML omitted"))
        #expect(!page.contains("kb-xss-js\""), "javascript: links must be dropped")
        let everything = files.values.map { String(decoding: $0, as: UTF8.self) }.joined()
        #expect(everything.contains("kb-xss-feature") || everything.contains("kb-xss-scenario"), "the scenario is shown on the site")
        for scheme in ["javascript:", "vbscript:", "data:text"] {
            for (path, data) in files where path.hasSuffix(".html") || path.hasSuffix(".xml") {
                let text = String(decoding: data, as: UTF8.self).lowercased()
                for link in SiteTestSupport.links(in: text) {
                    #expect(!link.url.trimmingCharacters(in: .whitespaces).hasPrefix(scheme), "\(path): \(link.url)")
                }
            }
        }
    }

    @Test("raw HTML is kept only with --unsafe-html")
    func unsafeHTMLFlag() throws {
        let root = try Self.makeKnowledgeBase()
        defer { TestSupport.remove(root) }
        let build = Self.kb(["build", "--unsafe-html"], root: root)
        try #require(build.code == 0, "\(build.stdout)\(build.stderr)")
        let page = SiteTestSupport.text(FileManager.default.contents(atPath: root + "/_site/entries/hostile-entry.html"))
        #expect(page.contains("<div onclick=\"alert('kb-xss-block')\">"))
        // Front matter values are text, escaped even then.
        #expect(!page.contains("<script>alert(\"kb-xss-title\")"))
    }

    @Test("the web search index and search results carry the payloads only escaped")
    func searchIndexIsSafe() throws {
        let root = try Self.makeKnowledgeBase()
        defer { TestSupport.remove(root) }
        let kb = try KnowledgeBaseLoader(workingDirectory: root).load(paths: [root + "/entries"])
        let export = SearchWebExport.build(documents: kb.entries.map { SearchDocument(entry: $0) }, shardCount: 4, ownFileRecords: 0)
        let files = [("search-meta.json", export.meta), ("search-filters.json", export.filters)]
            + export.shards.enumerated().map({ ("search-shard-\($0.offset).json", $0.element) })
            + export.tokenFiles.enumerated().map({ ("search-token-\($0.offset).json", $0.element) })
            + export.docs.enumerated().map({ ("search-doc-\($0.offset).json", $0.element) })
        for (name, data) in files {
            let text = String(decoding: data, as: UTF8.self)
            #expect(!text.contains("<") && !text.contains(">"), "\(name) holds an unescaped < or >")
            #expect(Self.unescapedPayloads(in: text).isEmpty, "\(name)")
            #expect((try? JSONSerialization.jsonObject(with: data)) != nil, "\(name) is not JSON")
        }
        #expect(export.docs.contains { String(decoding: $0, as: UTF8.self).contains("\\u003cscript\\u003e") })
        // Terminal and JSON search results.
        let json = Self.kb(["search", "kb-xss-symptom", "--format", "json"], root: root)
        #expect(json.code == 0, "\(json.stderr)")
        #expect(json.stdout.contains("hostile-entry"))
        #expect((try? JSONSerialization.jsonObject(with: Data(json.stdout.utf8))) != nil)
    }

    @Test("scenarios never run during build, search, index or lint")
    func scenariosDoNotRunOutsideCheck() throws {
        let root = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(root) }
        let marker = root + "/scenario-ran"
        try BrokenInputCorpus.write(BrokenInputCorpus.frontMatter("marker-entry") + "# Marker\n\n## Attempts\n\n### Attempt 1: touch\n\nResult: failed.\n",
                                    root + "/entries/marker-entry/entry.md")
        try BrokenInputCorpus.write("Feature: marker\n  @attempt-1\n  Scenario: touch\n    When I run \"touch \(marker)\"\n    Then the exit status is 0\n",
                                    root + "/entries/marker-entry/scenario.feature")
        for arguments in [["lint"], ["build"], ["index"], ["search", "marker"], ["show", "marker-entry"], ["list"], ["export"]] {
            _ = Self.kb(arguments, root: root)
            #expect(!FileManager.default.fileExists(atPath: marker), "kb \(arguments.joined(separator: " ")) ran a scenario")
        }
        let check = Self.kb(["check"], root: root)
        #expect(check.code == 0, "\(check.stdout)\(check.stderr)")
        #expect(FileManager.default.fileExists(atPath: marker), "kb check should have run the scenario")
    }

    @Test("a scenario command gets a scrubbed environment, a temporary folder and only the program it names")
    func sandboxedCommand() throws {
        let root = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(root) }
        try BrokenInputCorpus.write(BrokenInputCorpus.frontMatter("env-entry") + "# Env\n\n## Attempts\n\n### Attempt 1: env\n\nResult: failed.\n",
                                    root + "/entries/env-entry/entry.md")
        try BrokenInputCorpus.write("""
            Feature: environment
              @attempt-1
              Scenario: env
                When I run "env"
                Then the exit status is 0
                And stdout does not contain "KB_SECRET_TOKEN"
                And stdout matches "^TMPDIR=/.*kb-check-"
                When I run "pwd"
                Then stdout does not contain "\(root)"
                When I run "echo hi; touch \(root)/injected"
                Then stdout contains "hi; touch"

            """, root + "/entries/env-entry/scenario.feature")
        let check = TestSupport.kb(["check", "--explain", "env-entry"], in: root,
                                   environment: ["KB_SECRET_TOKEN": "hunter2", "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"])
        #expect(check.code == 0, "\(check.stdout)\(check.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root + "/injected"), "a ; in a step ran a second command")
    }

    @Test("an id, a scenario path or a link cannot make the build read or write outside its folders")
    func pathsStayInside() throws {
        let root = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(root) }
        try BrokenInputCorpus.write("secret outside\n", root + "/secret.txt")
        for (folder, id, scenario) in [("dots", "../../pwned", "x.feature"), ("abs", "abs", "/etc/passwd"), ("up", "up", "../../secret.txt")] {
            try BrokenInputCorpus.write(BrokenInputCorpus.frontMatter(id).replacingOccurrences(of: "updated:", with: "scenario: '\(scenario)'\nupdated:"),
                                        root + "/entries/\(folder)/entry.md")
        }
        let build = Self.kb(["build"], root: root)
        #expect(build.code == 1)
        #expect(build.stdout.contains("entries/dots/entry.md") || build.stderr.contains("entries/dots/entry.md"))
        #expect(build.stderr.contains("leaves the entry folder"), "\(build.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root + "/_site"))
        #expect(!FileManager.default.fileExists(atPath: root + "/../pwned"))
        // --out may not replace the entries or the working tree.
        for out in [".", "entries", "entries/dots"] {
            let bad = Self.kb(["build", "--out", out], root: root)
            #expect(bad.code != 0, "--out \(out)")
        }
        #expect(FileManager.default.fileExists(atPath: root + "/entries/dots/entry.md"))
        #expect(FileManager.default.fileExists(atPath: root + "/secret.txt"))
    }
}
