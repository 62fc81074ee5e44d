import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

/// A lint case: the input carries `⟦rule-id⟧` markers where each diagnostic must point.
struct LintCase: CustomTestStringConvertible, Sendable {
    let name: String
    let marked: String
    var testDescription: String { name }

    /// The text without markers, and the expected (rule, line, column) of each marker.
    var parsed: (text: String, expected: [(rule: String, location: SourceLocation)]) {
        var text = ""
        var expected: [(String, SourceLocation)] = []
        var line = 1, column = 1
        var rest = Substring(marked)
        while !rest.isEmpty {
            if rest.hasPrefix("⟦"), let close = rest.firstIndex(of: "⟧") {
                expected.append((String(rest[rest.index(after: rest.startIndex)..<close]), SourceLocation(line: line, column: column)))
                rest = rest[rest.index(after: close)...]
                continue
            }
            let scalar = rest.unicodeScalars.first!
            text.unicodeScalars.append(scalar)
            if scalar == "\n" { line += 1; column = 1 } else { column += 1 }
            rest = Substring(rest.unicodeScalars.dropFirst())
        }
        return (text, expected)
    }
}

@Suite struct LinterTests {
    static let cases: [LintCase] = [
        LintCase(name: "broken YAML points at the unclosed quote", marked: """
            ---
            id: test-entry
            title: ⟦front-matter⟧"unclosed
            lang: ja
            ---
            body
            """),
        LintCase(name: "tab indentation", marked: """
            ---
            id: test-entry
            title: x
            ⟦front-matter⟧\tlang: ja
            ---
            """),
        LintCase(name: "metadata values", marked: """
            ---
            id: ⟦id-mismatch⟧other-name
            title: t
            lang: ⟦invalid-lang⟧fr
            summary: s
            symptoms: ⟦no-symptoms⟧[]
            status: ⟦invalid-status⟧done
            updated: ⟦invalid-date⟧yesterday
            related: [test-entry, ⟦unknown-related⟧nowhere]
            ⟦unknown-key⟧colour: blue
            ⟦duplicate-key⟧title: again
            ---
            """),
        LintCase(name: "attempts: duplicates, unknown outcome", marked: """
            ---
            id: test-entry
            title: t
            lang: zh-Hans
            summary: s
            symptoms: [x]
            status: workaround
            updated: 2026-01-01
            ---
            ### 方案 1：a

            结果：失败

            ⟦duplicate-attempt⟧⟦unknown-outcome⟧### 方案 1：b

            结果：还是不对
            """),
        LintCase(name: "CJK emphasis that stays literal", marked: """
            ---
            id: test-entry
            title: t
            lang: ja
            summary: s
            symptoms: [x]
            status: open
            updated: 2026-01-01
            ---
            これは**「強調」⟦cjk-emphasis⟧**した。「**正しい**」書き方と **普通** の強調。

            `**「コード」**は対象外`
            """),
        LintCase(name: "resolved needs attempts and fix", marked: """
            ---
            id: test-entry
            title: t
            lang: en
            summary: s
            symptoms: [x]
            status: ⟦resolved-without-attempts⟧⟦resolved-without-fix⟧resolved
            updated: 2026-01-01
            ---
            Nothing here.
            """),
        LintCase(name: "missing front matter", marked: "⟦front-matter⟧# Just a title\n"),
        LintCase(name: "import todo", marked: """
            ---
            id: test-entry
            title: t
            lang: en
            summary: s
            symptoms: [x]
            status: open
            updated: 2026-01-01
            ---
            <!-- ⟦import-todo⟧TODO(kb-import): no outcome word -->
            """),
    ]

    @Test(arguments: cases)
    func diagnosticsPointAtTheMarkers(_ testCase: LintCase) {
        let (text, expected) = testCase.parsed
        let result = TestSupport.parse(text)
        var diagnostics = result.diagnostics
        if let entry = result.entry {
            diagnostics += Linter().lint(entry, location: nil, knownIDs: ["test-entry"])
        }
        let actual = diagnostics.compactMap { d in d.location.map { (d.rule.id, $0) } }
        for (rule, location) in expected {
            #expect(actual.contains { $0.0 == rule && $0.1 == location },
                    "expected [\(rule)] at \(location); got \(diagnostics.map(\.formatted))")
        }
        for (rule, _) in expected {
            #expect(LintRule(id: rule) != nil, "⟦\(rule)⟧ is not a registered rule")
        }
        let expectedRules = Set(expected.map(\.rule))
        let unexpected = diagnostics.filter { !expectedRules.contains($0.rule.id) && $0.rule != .missingKey }
        #expect(unexpected.isEmpty, "unexpected: \(unexpected.map(\.formatted))")
    }

    @Test func invalidUTF8NamesTheLineAndColumn() {
        var bytes = Array("---\nid: x\n---\n一二".utf8)
        bytes.append(0xFF)
        let result = EntryParser().parse(bytes: bytes, path: "x/entry.md", folderName: "x")
        #expect(result.entry == nil)
        #expect(result.diagnostics.first?.rule == .invalidUTF8)
        #expect(result.diagnostics.first?.location == SourceLocation(line: 4, column: 3))
    }
}
