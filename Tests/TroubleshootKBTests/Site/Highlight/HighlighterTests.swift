import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

/// The build-time highlighter: golden HTML per language (inputs and outputs in
/// Golden/highlight; `KB_RECORD=1 swift test --filter HighlighterTests` re-records the outputs),
/// tricky input with the expected HTML written out, and the code block cmark's HTML becomes.
@Suite struct HighlighterTests {
    /// Each golden input: its file's base name and the fence word that selects the grammar.
    struct GoldenCase: CustomTestStringConvertible, Sendable {
        let file: String
        let fence: String
        var testDescription: String { file }
    }

    static let goldenCases: [GoldenCase] = [
        .init(file: "swift", fence: "swift"),
        .init(file: "shell", fence: "sh"),
        .init(file: "console", fence: "console"),
        .init(file: "json", fence: "json"),
        .init(file: "yaml", fence: "yaml"),
        .init(file: "gherkin", fence: "gherkin"),
        .init(file: "diff", fence: "diff"),
        .init(file: "python", fence: "python"),
        .init(file: "javascript", fence: "js"),
        .init(file: "text", fence: "text"),
    ]

    @Test(arguments: goldenCases)
    func matchesGoldenHTML(_ c: GoldenCase) throws {
        let folder = TestSupport.goldenDirectory + "/highlight/"
        let input = try String(contentsOfFile: folder + c.file + ".input", encoding: .utf8)
        let highlighter = try #require(HighlightLanguages.highlighter(for: c.fence))
        let html = highlighter.html(input)
        let golden = folder + c.file + ".html"
        if TestSupport.isRecording {
            TestSupport.write(html, to: golden)
            return
        }
        let expected = try? String(contentsOfFile: golden, encoding: .utf8)
        #expect(html == expected, "\(c.file): re-record with KB_RECORD=1 if the change is meant")
        // Whatever the language, the text is the input's, escaped: no markup of the code's own.
        #expect(Self.textOf(html) == input)
        #expect(!html.contains("<&>"))
    }

    /// A tricky input, the fence word, and the whole HTML expected.
    struct TrickyCase: CustomTestStringConvertible, Sendable {
        let name: String
        let fence: String
        let code: String
        let html: String
        var testDescription: String { name }
    }

    static let trickyCases: [TrickyCase] = [
        .init(name: "Swift: an unterminated string ends at its line's end", fence: "swift",
              code: "let s = \"abc\nlet t = 1",
              html: #"<span class="hl-keyword">let</span> s = <span class="hl-string">&quot;abc</span>"# + "\n"
                + #"<span class="hl-keyword">let</span> t = <span class="hl-number">1</span>"#),
        .init(name: "Swift: nested comments /* /* */ */ are one comment", fence: "swift",
              code: "/* a /* b */ c */ let x",
              html: #"<span class="hl-comment">/* a /* b */ c */</span> <span class="hl-keyword">let</span> x"#),
        .init(name: "Swift: an unterminated comment runs to the end", fence: "swift",
              code: "/* open\nlet x",
              html: "<span class=\"hl-comment\">/* open\nlet x</span>"),
        .init(name: "Swift: a multi-line string is one token", fence: "swift",
              code: "\"\"\"\nsay \"hi\" // not a comment\n\"\"\"",
              html: "<span class=\"hl-string\">&quot;&quot;&quot;\nsay &quot;hi&quot; // not a comment\n&quot;&quot;&quot;</span>"),
        .init(name: "Swift: quotes inside an interpolation do not end the string", fence: "swift",
              code: #""a \(f("x")) b" + c"#,
              html: #"<span class="hl-string">&quot;a \(f(&quot;x&quot;)) b&quot;</span> + c"#),
        .init(name: "Swift: <&> is escaped in code, strings and comments", fence: "swift",
              code: "a <&> \"<b>&amp;\" // </code>",
              html: #"a &lt;&amp;&gt; <span class="hl-string">&quot;&lt;b&gt;&amp;amp;&quot;</span> <span class="hl-comment">// &lt;/code&gt;</span>"#),
        .init(name: "shell: # inside strings and words is not a comment", fence: "sh",
              code: "echo \"a # b\" 'c # d' e#f $# # real",
              html: #"<span class="hl-keyword">echo</span> <span class="hl-string">&quot;a # b&quot;</span> <span class="hl-string">&#39;c # d&#39;</span> e#f <span class="hl-variable">$#</span> <span class="hl-comment"># real</span>"#),
        .init(name: "shell: an unterminated quote keeps the rest as string", fence: "bash",
              code: "echo \"open\nfi",
              html: "<span class=\"hl-keyword\">echo</span> <span class=\"hl-string\">&quot;open\nfi</span>"),
        .init(name: "shell: a keyword inside a longer word is not a keyword", fence: "sh",
              code: "run-if done.txt",
              html: "run-if done.txt"),
        .init(name: "JSON: keys and string values differ", fence: "json",
              code: #"{"k" : "v"}"#,
              html: #"{<span class="hl-attribute">&quot;k&quot;</span> : <span class="hl-string">&quot;v&quot;</span>}"#),
        .init(name: "Gherkin: Korean and Japanese keywords from the dialect table", fence: "gherkin",
              code: "기능: 검색\n  시나리오: 찾기\n    만약 검색한다\n  前提ファイルがある",
              html: "<span class=\"hl-keyword\">기능:</span> 검색\n  <span class=\"hl-keyword\">시나리오:</span> 찾기\n    <span class=\"hl-keyword\">만약 </span>검색한다\n  <span class=\"hl-keyword\">前提</span>ファイルがある"),
        .init(name: "Gherkin: a keyword mid-line is text", fence: "gherkin",
              code: "  Given the Feature: is named",
              html: "  <span class=\"hl-keyword\">Given </span>the Feature: is named"),
        .init(name: "diff: added and removed lines, headers", fence: "diff",
              code: "@@ -1 +1 @@\n-a <b>\n+c & d\n same",
              html: "<span class=\"hl-meta\">@@ -1 +1 @@</span>\n<span class=\"hl-removed\">-a &lt;b&gt;</span>\n<span class=\"hl-added\">+c &amp; d</span>\n same"),
        .init(name: "text: escaped, never coloured", fence: "text",
              code: "let \"x\" # <&>",
              html: "let &quot;x&quot; # &lt;&amp;&gt;"),
        .init(name: "an empty block", fence: "swift", code: "", html: ""),
    ]

    @Test(arguments: trickyCases)
    func highlightsTrickyInput(_ c: TrickyCase) throws {
        let highlighter = try #require(HighlightLanguages.highlighter(for: c.fence))
        #expect(highlighter.html(c.code) == c.html)
    }

    /// cmark's HTML of a code block, and the site's block made from it.
    struct BlockCase: CustomTestStringConvertible, Sendable {
        let name: String
        let cmark: String
        let site: String
        var testDescription: String { name }
    }

    static let blockCases: [BlockCase] = [
        .init(name: "a known language: label and colours",
              cmark: "<pre><code class=\"language-swift\">let a = &quot;&lt;&amp;&gt;&quot;\n</code></pre>\n",
              site: "<div class=\"code-block\"><div class=\"code-head\"><span class=\"code-lang\">Swift</span></div><pre tabindex=\"0\"><code class=\"language-swift\"><span class=\"hl-keyword\">let</span> a = <span class=\"hl-string\">&quot;&lt;&amp;&gt;&quot;</span>\n</code></pre></div>\n"),
        .init(name: "the fence word in any case",
              cmark: "<pre><code class=\"language-Bash\">exit\n</code></pre>\n",
              site: "<div class=\"code-block\"><div class=\"code-head\"><span class=\"code-lang\">Shell</span></div><pre tabindex=\"0\"><code class=\"language-Bash\"><span class=\"hl-keyword\">exit</span>\n</code></pre></div>\n"),
        .init(name: "an unknown language: its word as label, the code as cmark escaped it",
              cmark: "<pre><code class=\"language-cobol&amp;x\">MOVE &lt;A&gt; TO B.\n</code></pre>\n",
              site: "<div class=\"code-block\"><div class=\"code-head\"><span class=\"code-lang\">cobol&amp;x</span></div><pre tabindex=\"0\"><code class=\"language-cobol&amp;x\">MOVE &lt;A&gt; TO B.\n</code></pre></div>\n"),
        .init(name: "a language labelled but not coloured",
              cmark: "<pre><code class=\"language-sql\">SELECT 1;\n</code></pre>\n",
              site: "<div class=\"code-block\"><div class=\"code-head\"><span class=\"code-lang\">SQL</span></div><pre tabindex=\"0\"><code class=\"language-sql\">SELECT 1;\n</code></pre></div>\n"),
        .init(name: "no language: a head for the copy button, no label",
              cmark: "<p>x</p>\n<pre><code>plain &amp; simple\n</code></pre>\n",
              site: "<p>x</p>\n<div class=\"code-block\"><div class=\"code-head\"></div><pre tabindex=\"0\"><code>plain &amp; simple\n</code></pre></div>\n"),
        .init(name: "not cmark's shape: only made scrollable",
              cmark: "<pre><code class=\"language-swift\">never closed",
              site: "<pre tabindex=\"0\"><code class=\"language-swift\">never closed"),
    ]

    @Test(arguments: blockCases)
    func makesTheSiteCodeBlock(_ c: BlockCase) {
        var html = HTMLBuffer()
        html.block(c.cmark)
        #expect(String(decoding: html.bytes, as: UTF8.self) == c.site)
    }

    @Test func gherkinKeywordsComeFromTheDialectTable() {
        let dialects = GherkinDialects.builtIn.dialects.values
        for dialect in dialects {
            for keyword in dialect.stepKeywords { #expect(HighlightGrammar.gherkinKeywords.contains(keyword), "\(keyword)") }
            for title in dialect.feature + dialect.scenario { #expect(HighlightGrammar.gherkinKeywords.contains(title + ":"), "\(title)") }
        }
    }

    /// The text of highlighted HTML: spans removed, the five escapes undone.
    static func textOf(_ html: String) -> String {
        var text = html.replacingOccurrences(of: "</span>", with: "")
        while let open = text.range(of: "<span class=\"") {
            let end = text.range(of: "\">", range: open.upperBound..<text.endIndex)!
            text.removeSubrange(open.lowerBound..<end.upperBound)
        }
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
            text = text.replacingOccurrences(of: entity, with: character)
        }
        return text
    }
}
