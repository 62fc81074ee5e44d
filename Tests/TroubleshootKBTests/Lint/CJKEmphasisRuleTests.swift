import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

/// The `cjk-emphasis` rule: a `**`/`__` run that cmark left as text next to a letter is
/// reported, whatever stopped it; emphasis cmark accepts is not.
@Suite struct CJKEmphasisRuleTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let markdown: String
        /// Column of the reported run on line 1 of the paragraph, nil when nothing is reported.
        let column: Int?
        /// Words the message must contain (the case and its fix).
        let says: [String]
        var testDescription: String { markdown }
    }

    static let reported: [Case] = [
        Case(markdown: "**[リンク](url)**を参照", column: 13, says: ["after a link", "'を'", "inside the link text"]),
        Case(markdown: "**`code`**を使う", column: 9, says: ["after a code span", "code span unemphasised"]),
        Case(markdown: "**100%**の確率", column: 7, says: ["after '%'", "move '%' outside"]),
        Case(markdown: "**注意:**この", column: 6, says: ["after ':'", "move ':' outside"]),
        Case(markdown: "これは__強調__した", column: 4, says: ["inside a word", "use '**' instead of '__'"]),
        Case(markdown: "これは**「強調」**した", column: 10, says: ["after '」'", "'し'"]),
        Case(markdown: "**テスト。**です", column: 7, says: ["after '。'"]),
        Case(markdown: "**注意：**この", column: 6, says: ["after '：'"]),
        Case(markdown: "文中の*「強調」*も", column: 9, says: ["after '」'"]),
    ]

    static let silent: [String] = [
        "「**強調**」した",
        "**強調**した",
        "**テスト**。です",
        "これは **「強調」** した",
        "[**リンク**](url)を参照",
        "**`code`** を使う",
        "**100**%の確率",
        "**注意**:この",
        "a**b**c and **bold**",
        "句読点に接した ** が太字にならない",
        "エスケープした \\*\\*を は意図どおり",
        "`**「コード」**は対象外`",
        "2 * 3 = 6",
    ]

    static func entry(_ body: String) -> String {
        "---\nid: test-entry\ntitle: t\nlang: ja\nsummary: s\nsymptoms: [x]\nstatus: open\nupdated: 2026-01-01\n---\n\(body)\n"
    }

    static func warnings(_ body: String) throws -> [Diagnostic] {
        let result = TestSupport.parse(entry(body))
        let entry = try #require(result.entry)
        return Linter().lint(entry, location: nil, knownIDs: ["test-entry"]).filter { $0.rule == .cjkEmphasis }
    }

    /// What cmark (through the project's renderer) makes of the text: is there a literal run left?
    static func cmarkLeavesLiteralRun(_ markdown: String) -> Bool {
        let html = TestSupport.kb(["render", "-"], in: "/", stdin: markdown).stdout
        return html.contains("**") || html.contains("__") || html.range(of: "\\*[^ ]|[^ ]\\*", options: .regularExpression) != nil && markdown.contains("*「")
    }

    @Test(arguments: reported)
    func reportsLiteralRuns(_ testCase: Case) throws {
        #expect(Self.cmarkLeavesLiteralRun(testCase.markdown), "cmark renders \(testCase.markdown) as emphasis; the case is wrong")
        let found = try Self.warnings(testCase.markdown)
        try #require(found.count == 1, "\(found.map(\.formatted))")
        #expect(found[0].location == SourceLocation(line: 10, column: testCase.column!), "\(found[0].formatted)")
        for words in testCase.says { #expect(found[0].message.contains(words), "\(found[0].message)") }
    }

    @Test(arguments: silent)
    func silentWhereCmarkAcceptsOrTheTextMeansIt(_ markdown: String) throws {
        let found = try Self.warnings(markdown)
        #expect(found.isEmpty, "\(found.map(\.formatted))")
    }

    /// Every silent case that has delimiters around text renders as emphasis with cmark.
    @Test(arguments: ["「**強調**」した", "**強調**した", "**テスト**。です", "これは **「強調」** した", "[**リンク**](url)を参照", "**100**%の確率", "**注意**:この"])
    func silentCasesRenderAsStrong(_ markdown: String) {
        let html = TestSupport.kb(["render", "-"], in: "/", stdin: markdown).stdout
        #expect(html.contains("<strong>") && !html.contains("**"), "\(html)")
    }

    /// The byte pre-check never skips an entry the rule would report on.
    @Test(arguments: reported)
    func preCheckLetsReportedCasesThrough(_ testCase: Case) {
        #expect(CJKEmphasisRule.mayContainRun(Array(Self.entry(testCase.markdown).utf8)))
    }

    /// The pre-check says yes exactly where a pair of neighbouring bytes is `**`, `__`, or a `*`
    /// beside a non-ASCII byte (the plain definition, byte pair by byte pair), on random texts
    /// made mostly of `*`, `_`, ASCII and non-ASCII bytes.
    @Test func preCheckMatchesThePairDefinition() {
        func plain(_ bytes: [UInt8]) -> Bool {
            var previous: UInt8 = 0
            for byte in bytes {
                if (byte == 0x2A || byte == 0x5F) && byte == previous { return true }
                if (byte == 0x2A && previous >= 0x80) || (previous == 0x2A && byte >= 0x80) { return true }
                previous = byte
            }
            return false
        }
        var random = SplitMix64(state: 0x2A5F)
        let alphabet: [UInt8] = [0x2A, 0x5F, 0x61, 0x20, 0xE3, 0x81, 0x82]
        var yes = 0
        for length in 0..<400 {
            let bytes = (0..<(length % 40)).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &random)] }
            let expected = plain(bytes)
            if expected { yes += 1 }
            #expect(CJKEmphasisRule.mayContainRun(bytes) == expected, "\(bytes)")
        }
        // Both answers occur.
        #expect(yes > 0 && yes < 400)
    }

    /// Several paragraphs: each report points at its own line.
    @Test func pointsAtEachLine() throws {
        let found = try Self.warnings("前置き\n\n**注意:**この\n\n普通の行\n\nこれは__強調__した")
        #expect(found.map { $0.location?.description ?? "" } == ["12:6", "16:4"])
    }
}
