import KBCore
import KBSearch
import KBScenarios
/// Shows a Gherkin scenario file as text: escaped, in a `<pre>`, with keywords, tags and
/// comments wrapped in spans for colour. Nothing in the file is interpreted as markup.
enum ScenarioRenderer {
    /// Keywords that start a line, longest first so `Scenario Outline` wins over `Scenario`.
    static let keywords: [String] = [
        // English
        "Scenario Outline", "Scenario Template", "Feature", "Background", "Scenario", "Example", "Examples",
        "Scenarios", "Rule", "Given", "When", "Then", "And", "But", "*",
        // 中文
        "场景大纲", "剧本大纲", "功能", "背景", "场景", "剧本", "例子", "假如", "假设", "假定", "当", "那么", "而且", "并且", "同时", "但是",
        // 한국어
        "시나리오 개요", "기능", "배경", "시나리오", "예", "조건", "먼저", "만일", "만약", "그러면", "그리고", "하지만", "또는",
        // 日本語
        "シナリオアウトライン", "シナリオテンプレート", "フィーチャ", "機能", "背景", "シナリオ", "例", "サンプル",
        "前提", "もし", "ならば", "かつ", "しかし", "但し", "ただし",
    ].sorted { $0.count > $1.count }

    static func render(_ text: String) -> String {
        var html = HTMLBuffer(capacity: text.utf8.count + 256)
        render(text, into: &html)
        return String(decoding: html.bytes, as: UTF8.self)
    }

    static func render(_ text: String, into html: inout HTMLBuffer) {
        html.raw("<pre class=\"scenario\" tabindex=\"0\"><code>")
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        for (number, rawLine) in lines.enumerated() {
            if number > 0 { html.raw("\n") }
            var line = Substring(rawLine)
            if line.hasSuffix("\r") { line = line.dropLast() }
            let indent = line.prefix { $0 == " " || $0 == "\t" }
            let rest = line.dropFirst(indent.count)
            html.text(String(indent))
            if rest.hasPrefix("#") {
                html.raw("<span class=\"g-comment\">")
                html.text(String(rest))
                html.raw("</span>")
            } else if rest.hasPrefix("@") {
                html.raw("<span class=\"g-tag\">")
                html.text(String(rest))
                html.raw("</span>")
            } else if let keyword = keywords.first(where: { startsWithKeyword(rest, $0) }) {
                html.raw("<span class=\"g-keyword\">")
                html.text(keyword)
                html.raw("</span>")
                html.text(String(rest.dropFirst(keyword.count)))
            } else {
                html.text(String(rest))
            }
        }
        html.raw("</code></pre>\n")
    }

    /// `rest` starts with `keyword`, followed by the end, a space, a colon (ASCII or full-width)
    /// or — for CJK keywords, which need no space — anything.
    static func startsWithKeyword(_ rest: Substring, _ keyword: String) -> Bool {
        guard rest.hasPrefix(keyword) else { return false }
        let after = rest.dropFirst(keyword.count)
        guard let next = after.first else { return true }
        if next == " " || next == ":" || next == "：" || next == "\t" { return true }
        return keyword.unicodeScalars.first.map(CJKCharacter.isLetter) ?? false
    }
}
