import Foundation
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

/// Helpers for the site tests: building, reading the output, checking links.
enum SiteTestSupport {
    static let assetsDirectory = TestSupport.repositoryRoot + "/site"

    /// Runs `kb build` in `directory` with the repository's static assets.
    static func build(_ arguments: [String], in directory: String, entries: String? = nil) -> (code: Int32, stdout: String, stderr: String) {
        var environment = ["KB_SITE": assetsDirectory]
        if let entries { environment["KB_ENTRIES"] = entries }
        return TestSupport.kb(["build"] + arguments, in: directory, environment: environment)
    }

    /// Every file under `root` (hidden ones included), by site-relative path.
    static func snapshot(_ root: String) -> [String: Data] {
        var result: [String: Data] = [:]
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return result }
        while let path = enumerator.nextObject() as? String {
            let full = root + "/" + path
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue {
                result[path] = FileManager.default.contents(atPath: full)
            }
        }
        return result
    }

    static func text(_ data: Data?) -> String { data.map { String(decoding: $0, as: UTF8.self) } ?? "" }

    /// `href` and `src` values of a page, with whether the element is marked `data-optional`
    /// and the tag they sit in.
    static func links(in html: String) -> [(url: String, optional: Bool, tag: String)] {
        let tagPattern = try! NSRegularExpression(pattern: "<[a-zA-Z][^>]*>")
        let attributePattern = try! NSRegularExpression(pattern: "\\s(?:href|src)=\"([^\"]*)\"")
        var result: [(String, Bool, String)] = []
        let range = NSRange(html.startIndex..., in: html)
        for match in tagPattern.matches(in: html, range: range) {
            // Substrings by UTF-16 range: a match may end inside a grapheme (a quote followed by a
            // combining mark), where a String range cannot.
            let tag = (html as NSString).substring(with: match.range)
            let tagRange = NSRange(tag.startIndex..., in: tag)
            for attribute in attributePattern.matches(in: tag, range: tagRange) {
                let value = (tag as NSString).substring(with: attribute.range(at: 1))
                result.append((unescape(value), tag.contains("data-optional"), tag))
            }
        }
        return result
    }

    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// The ids a page defines.
    static func ids(in html: String) -> Set<String> {
        let pattern = try! NSRegularExpression(pattern: "\\sid=\"([^\"]*)\"")
        return Set(pattern.matches(in: html, range: NSRange(html.startIndex..., in: html)).map {
            unescape((html as NSString).substring(with: $0.range(at: 1)))
        })
    }

    /// Checks every internal link of every HTML page: the file exists and the fragment is an
    /// id of the target page. Returns the problems (empty when all is well).
    static func brokenLinks(in root: String) -> [String] {
        let files = snapshot(root)
        var idsByPage: [String: Set<String>] = [:]
        for (path, data) in files where path.hasSuffix(".html") { idsByPage[path] = ids(in: text(data)) }
        var problems: [String] = []
        for (page, data) in files.sorted(by: { $0.key < $1.key }) where page.hasSuffix(".html") {
            let html = text(data)
            for link in links(in: html) {
                var url = link.url
                // cmark writes `href=""` where it dropped an unsafe URL: a link to the page itself.
                if url.isEmpty { continue }
                if url.range(of: "^[a-zA-Z][a-zA-Z0-9+.-]*:", options: .regularExpression) != nil { continue } // external
                if link.tag.hasPrefix("<link rel=\"canonical\"") || link.tag.hasPrefix("<base") { continue }
                if url.hasPrefix("/") { problems.append("\(page): root-relative link \(url)"); continue }
                var fragment = ""
                if let hash = url.firstIndex(of: "#") {
                    fragment = String(url[url.index(after: hash)...])
                    url = String(url[..<hash])
                }
                if let question = url.firstIndex(of: "?") { url = String(url[..<question]) }
                let target: String
                if url.isEmpty {
                    target = page
                } else {
                    let folder = (page as NSString).deletingLastPathComponent
                    let joined = folder.isEmpty ? url : folder + "/" + url
                    target = normalize(joined)
                }
                if url.hasSuffix("/") { problems.append("\(page): link to a folder \(link.url) (file:// needs index.html)"); continue }
                guard files[target] != nil else {
                    if !link.optional { problems.append("\(page): \(link.url) → \(target) does not exist") }
                    continue
                }
                if !fragment.isEmpty {
                    guard let ids = idsByPage[target] else {
                        problems.append("\(page): fragment on a non-HTML file \(link.url)")
                        continue
                    }
                    if !ids.contains(fragment.removingPercentEncoding ?? fragment) {
                        problems.append("\(page): \(link.url) → no id '\(fragment)' in \(target)")
                    }
                }
            }
        }
        return problems
    }

    static func normalize(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == ".." { if !parts.isEmpty { parts.removeLast() } else { return "../" + path } ; continue }
            parts.append(part)
        }
        return parts.joined(separator: "/")
    }

    /// A fixture entry with attacker-controlled text everywhere.
    static let payloads = ["<script>alert(1)</script>", "\"><img src=x onerror=alert(1)>", "[x](javascript:alert(1))"]

    static let hostileEntry = """
    ---
    id: hostile-entry
    title: '<script>alert(1)</script> "><img src=x onerror=alert(1)> [x](javascript:alert(1))'
    lang: en
    summary: '<script>alert(1)</script> and "><img src=x onerror=alert(1)>'
    symptoms:
      - '<script>alert(1)</script>'
      - '"><img src=x onerror=alert(1)>'
      - '[x](javascript:alert(1))'
    platforms: ['"><img src=x onerror=alert(1)>']
    apis: ['<script>alert(1)</script>', '[x](javascript:alert(1))']
    tags: ['<script>alert(1)</script>', 'plain']
    status: open
    updated: 2026-11-30
    ---

    # <script>alert(1)</script>

    ## Problem

    Body text <script>alert(1)</script> and "><img src=x onerror=alert(1)> and [x](javascript:alert(1)).

    <div onclick="alert(1)"><script>alert(1)</script></div>

    [vb](vbscript:alert(1)) [data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==) [ok](https://example.com/?a=1&b=2)

    ## Attempts

    ### Attempt 1: <script>alert(1)</script>

    - **Idea:** try "><img src=x onerror=alert(1)>
    - **Result:** failed. [x](javascript:alert(1)) <img src=x onerror=alert(1)>
    - **Cause:** <script>alert(1)</script>

    ```html
    <script>alert(1)</script>
    "><img src=x onerror=alert(1)>
    [x](javascript:alert(1))
    ```

    ## Fix

    Nothing yet: <script>alert(1)</script>

    ## Weird heading "><img src=x onerror=alert(1)>

    A note.

    """

    static let hostileScenario = """
    Feature: <script>alert(1)</script>
      Scenario: "><img src=x onerror=alert(1)>
        When I run "echo [x](javascript:alert(1)) <script>alert(1)</script>"

    """
}
