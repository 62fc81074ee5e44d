import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

@Suite struct MarkdownParserTests {
    @Test func convertsBlocksWithSourcePositions() {
        let text = SourceText("# 标题\n\n段落**强调**。\n\n```swift\nlet x = 1\n```\n")
        let document = MarkdownParser().parse(text)
        #expect(document.blocks.count == 3)
        #expect(document.blocks[0].kind == .heading(level: 1))
        #expect(document.blocks[0].plainText == "标题")
        #expect(document.blocks[1].range.start == SourceLocation(line: 3, column: 1))
        #expect(document.blocks[2].kind == .codeBlock(info: "swift"))
        #expect(document.blocks[2].literal == "let x = 1\n")
    }

    @Test func scalarColumnsCountCharactersNotBytes() {
        let text = SourceText("一二三 `x`\n")
        #expect(text.scalarColumn(line: 1, byteColumn: 11) == 5)
    }

    @Test func lineOffsetShiftsRanges() {
        let text = SourceText("---\nid: x\n---\nhello\n")
        let document = MarkdownParser().parse(text, byteRange: 14..<20, firstLine: 4)
        #expect(document.blocks.first?.range.start.line == 4)
    }

    @Test(arguments: [
        ("中文\n换行", "<p>中文换行</p>\n"),
        ("日本語の\n文章", "<p>日本語の文章</p>\n"),
        ("한국어\n줄바꿈", "<p>한국어\n줄바꿈</p>\n"),
        ("English\nwords", "<p>English\nwords</p>\n"),
        ("中文\nEnglish", "<p>中文\nEnglish</p>\n"),
        ("句号。\n下一句", "<p>句号。下一句</p>\n"),
    ])
    func cjkSoftBreaks(input: String, expected: String) {
        #expect(MarkdownParser.renderHTML(input) == expected)
    }

    @Test func rawHTMLIsOmittedUnlessUnsafe() {
        let hostile = "<script>alert(1)</script>\n\n[x](javascript:alert(1))"
        let safe = MarkdownParser.renderHTML(hostile)
        #expect(!safe.contains("<script>"))
        #expect(!safe.contains("javascript:"))
        #expect(MarkdownParser.renderHTML(hostile, unsafe: true).contains("<script>"))
    }

    @Test func rendersTopLevelBlocksAndListItems() {
        let text = SourceText("para\n\n- a\n- b\n")
        let document = MarkdownParser(options: .init(renderHTML: true)).parse(text)
        #expect(document.blocks[0].html == "<p>para</p>\n")
        #expect(document.blocks[1].children[0].html?.contains("<li>a</li>") == true)
    }
}
