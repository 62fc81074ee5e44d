import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

@Suite struct GherkinParserTests {
    private func parse(_ source: String, dialects: GherkinDialects = .builtIn) throws -> GherkinDocument {
        try GherkinParser(dialects: dialects).parse(source: source, uri: "test.feature")
    }

    private func errors(_ source: String) -> [GherkinError] {
        do {
            _ = try parse(source)
            return []
        } catch let failure as GherkinParseErrors {
            return failure.errors
        } catch {
            return []
        }
    }

    private func pickles(_ source: String) throws -> [Pickle] {
        PickleCompiler().compile(try parse(source))
    }

    // MARK: Dialects

    @Test func builtInDialectsHaveTheCJKKeywords() throws {
        let dialects = GherkinDialects.builtIn
        #expect(dialects.languages == ["en", "ja", "ko", "zh-CN", "zh-TW"])
        let zh = try #require(dialects["zh-CN"])
        #expect(zh.given.contains("假如"))
        #expect(zh.rule == ["Rule", "规则"])
        #expect(dialects["en"]?.given == ["* ", "Given "])
        #expect(dialects["ko"]?.when == ["* ", "만일 ", "만약 "])
        #expect(dialects["ja"]?.native == "日本語")
        for dialect in dialects.dialects.values {
            for kind in [dialect.given, dialect.when, dialect.then, dialect.and, dialect.but] {
                #expect(kind.first == "* ", "\(dialect.code)")
            }
            #expect(dialect.keywordType(of: "* ") == .unknown)
        }
        #expect(zh.keywordType(of: "而且") == .conjunction)
        #expect(zh.keywordType(of: "当") == .action)
    }

    @Test(.enabled(if: GherkinConformance.isAvailable, Comment(rawValue: GherkinConformance.skipReason)))
    func builtInTableMatchesTheOfficialJSON() throws {
        let directory = try #require(GherkinConformance.directory)
        let official = try GherkinDialects.load(jsonAt: directory + "/gherkin-languages.json")
        #expect(official.languages.count > 70)
        for code in GherkinDialects.builtIn.languages {
            #expect(GherkinDialects.builtIn[code] == official[code], "\(code)")
        }
    }

    @Test func stepKeywordsAreTriedLongestFirst() throws {
        let ht = GherkinDialect(
            code: "x", name: "x", native: "x", feature: ["F"], background: [], rule: [], scenario: ["S"],
            scenarioOutline: [], examples: [], given: ["* ", "Le "], when: [], then: ["Le sa a "], and: [], but: []
        )
        #expect(ht.stepKeywords == ["Le sa a ", "Le ", "* "])
    }

    @Test func loadingMalformedTablesFails() {
        #expect(throws: GherkinDialectsError.self) {
            try GherkinDialects.load(jsonData: Data("[1]".utf8))
        }
        #expect(throws: GherkinDialectsError.self) {
            try GherkinDialects.load(jsonData: Data(#"{"xx": {"given": 3}}"#.utf8))
        }
        #expect(throws: GherkinDialectsError.self) {
            try GherkinDialects.load(jsonAt: "/nonexistent/gherkin-languages.json")
        }
    }

    // MARK: Parsing

    @Test func fullWidthColonFollowsEveryTitleKeyword() throws {
        let source = """
        # language: zh-CN
        功能：登录
          背景：
            假如系统已启动
          场景： 成功登录
            当用户登录
          规则：锁定
            场景大纲：错误 <次数> 次
              那么账户<状态>
              例子：次数
                | 次数 | 状态 |
                | 3    | 锁定 |
        """
        let document = try parse(source)
        let feature = try #require(document.feature)
        #expect(feature.name == "登录")
        #expect(feature.keyword == "功能")
        #expect(feature.language == "zh-CN")
        #expect(feature.children.count == 3)
        guard case let .scenario(scenario) = feature.children[1] else {
            Issue.record("expected a scenario")
            return
        }
        #expect(scenario.name == "成功登录")
        #expect(scenario.steps[0].keyword == "当")
        #expect(scenario.steps[0].keywordType == .action)
        guard case let .rule(rule) = feature.children[2], case let .scenario(outline) = rule.children[0] else {
            Issue.record("expected a rule with an outline")
            return
        }
        #expect(rule.name == "锁定")
        #expect(outline.examples[0].name == "次数")
        let compiled = PickleCompiler().compile(document)
        #expect(compiled.map(\.name) == ["成功登录", "错误 3 次"])
        #expect(compiled[1].steps.map(\.text) == ["系统已启动", "账户锁定"])
    }

    @Test func locationsAreOneBasedScalarColumns() throws {
        let document = try parse("# language: zh-CN\n@标签 @b\n功能: x\n  场景: y\n    假如 z\n      | 一 | 二 |\n")
        let feature = try #require(document.feature)
        #expect(feature.location == SourceLocation(line: 3, column: 1))
        #expect(feature.tags.map(\.location) == [SourceLocation(line: 2, column: 1), SourceLocation(line: 2, column: 5)])
        guard case let .scenario(scenario) = feature.children.first else {
            Issue.record("expected a scenario")
            return
        }
        #expect(scenario.location == SourceLocation(line: 4, column: 3))
        let step = try #require(scenario.steps.first)
        #expect(step.text == "z")
        #expect(step.location == SourceLocation(line: 5, column: 5))
        let cells = try #require(step.dataTable?.rows.first?.cells)
        #expect(cells.map(\.location) == [SourceLocation(line: 6, column: 9), SourceLocation(line: 6, column: 13)])
        #expect(document.comments.map(\.text) == [])
    }

    @Test func tableCellsAreTrimmedAndUnescaped() throws {
        let source = """
        Feature: t
          Scenario: s
            Given a table
              | a\\|b |  c\\\\d  | e\\nf | \\x |
        """
        let step = try #require(try pickles(source).first?.steps.first)
        #expect(step.dataTable?.rows == [["a|b", "c\\d", "e\nf", "\\x"]])
    }

    @Test func docStringsRemoveIndentationAndEscapes() throws {
        let source = """
        Feature: t
          Scenario: s
            Given a doc
              ```markdown
                indented
              plain
              \\`\\`\\`
              ```
        """
        let doc = try #require(try pickles(source).first?.steps.first?.docString)
        #expect(doc.content == "  indented\nplain\n```")
        #expect(doc.mediaType == "markdown")
    }

    @Test func crlfLineEndingsParseLikeLF() throws {
        let lf = "Feature: t\n  Scenario: s\n    Given a\n      \"\"\"\n      x\n      \"\"\"\n"
        let crlf = lf.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(try pickles(crlf) == pickles(lf))
        #expect(try pickles(crlf).first?.steps.first?.docString?.content == "x")
    }

    @Test func conjunctionsTakeThePreviousStepType() throws {
        let source = """
        Feature: t
          Scenario: s
            Given a
            And b
            When c
            But d
            Then e
            * f
            And g
        """
        let types = try pickles(source).first?.steps.map(\.type)
        #expect(types == [.context, .context, .action, .action, .outcome, .unknown, .unknown])
    }

    @Test func stepWithTableThenDocStringNumbersItsArguments() throws {
        let source = """
        Feature: t
          Scenario: s
            Given both
              | a |
              \"\"\"
              doc
              \"\"\"
        """
        let step = try #require(try pickles(source).first?.steps.first)
        #expect(step.dataTable?.argumentIndex == 1)
        #expect(step.docString?.argumentIndex == 2)
    }

    @Test func tagsAreInheritedFeatureRuleScenarioExamples() throws {
        let source = """
        @f
        Feature: t
          @r
          Rule: r
            @s
            Scenario Outline: o <x>
              Given <x>
              @e
              Examples:
                | x |
                | 1 |
        """
        let pickle = try #require(try pickles(source).first)
        #expect(pickle.tags.map(\.name) == ["@f", "@r", "@s", "@e"])
        #expect(pickle.name == "o 1")
        #expect(pickle.location == SourceLocation(line: 11, column: 9))
    }

    @Test func placeholdersAreReplacedScalarByScalar() throws {
        // A combining accent after `>` must not hide the placeholder, and `$` is literal.
        let source = "Feature: t\n  Scenario Outline: <x>\u{301} <y>\n    Given <y>\n    Examples:\n      | x | y  |\n      | e | $1 |\n"
        let pickle = try #require(try pickles(source).first)
        #expect(pickle.name.unicodeScalars.elementsEqual("e\u{301} $1".unicodeScalars))
        #expect(pickle.steps.first?.text == "$1")
    }

    // MARK: Errors

    @Test func unexpectedLineReportsExpectedTokens() {
        let source = """
        Feature: t

          Background:
            Given a


        Foo
        """
        let found = errors(source)
        #expect(found.map(\.message) == [
            "(7:1): expected: #EOF, #TableRow, #DocStringSeparator, #StepLine, #TagLine, #ScenarioLine, #RuleLine, #Comment, #Empty, got 'Foo'",
        ])
        #expect(found.first?.description == "test.feature:7:1: expected: #EOF, #TableRow, #DocStringSeparator, #StepLine, #TagLine, #ScenarioLine, #RuleLine, #Comment, #Empty, got 'Foo'")
    }

    @Test func parserRecoversAndCollectsErrors() {
        let found = errors("Feature: t\n  Scenario: s\n    Given a\n      | a | b |\n      | c |\nx\ny\n")
        #expect(found.map { "\($0.line):\($0.column)" } == ["6:1", "7:1", "5:7"])
        #expect(found.last?.reason == "inconsistent cell count within the table")
    }

    @Test func errorsStopAfterEleven() {
        let source = "Feature: t\n  Scenario: s\n    Given a\n" + (1...20).map { "x\($0)" }.joined(separator: "\n")
        #expect(errors(source).count == 11)
    }

    @Test func unexpectedEndOfFileHasColumnZero() {
        let found = errors("Feature: t\n  Scenario: s\n    Given a\n      \"\"\"\n      x\n")
        #expect(found.map(\.message) == ["(6:0): unexpected end of file, expected: #DocStringSeparator, #Other"])
        #expect(PickleJSON.line(found[0]) == #"{"parseError":{"message":"(6:0): unexpected end of file, expected: #DocStringSeparator, #Other","source":{"location":{"line":6},"uri":"test.feature"}}}"#)
    }

    @Test func unknownLanguageAndBadTagsAreErrors() {
        #expect(errors("# language: xx\nFeature: t\n").map(\.message) == ["(1:1): Language not supported: xx"])
        #expect(errors("Feature: t\n  @a b\n  Scenario: s\n").first?.message == "(2:3): A tag may not contain whitespace")
    }

    // MARK: Output

    @Test func pickleJSONHasCucumbersShape() throws {
        let pickle = try #require(try pickles("Feature: t\n  Scenario: s\n    Given a\n").first)
        #expect(PickleJSON.line(pickle) == #"{"pickle":{"astNodeIds":["1"],"id":"3","language":"en","location":{"column":3,"line":2},"name":"s","steps":[{"astNodeIds":["0"],"id":"2","text":"a","type":"Context"}],"tags":[],"uri":"test.feature"}}"#)
    }

    @Test func parseCommandWritesPicklesOrErrors() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gherkin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = directory.appendingPathComponent("good.feature").path
        let bad = directory.appendingPathComponent("bad.feature").path
        try "# language: ko\n기능: t\n  시나리오: s\n    조건 a\n    그리고 b\n".write(toFile: good, atomically: true, encoding: .utf8)
        try "not gherkin\n".write(toFile: bad, atomically: true, encoding: .utf8)

        let ok = ScenarioParseCommandCore.run(path: good)
        #expect(ok.exitCode == 0)
        #expect(ok.lines.count == 1)
        #expect(ok.lines.first?.hasPrefix(#"{"pickle":{"#) == true)

        let failed = ScenarioParseCommandCore.run(path: bad)
        #expect(failed.exitCode == 1)
        #expect(failed.lines.first?.contains(#""parseError""#) == true)
        #expect(failed.diagnostics.first?.hasPrefix(bad + ":1:1: expected:") == true)

        #expect(ScenarioParseCommandCore.run(path: directory.appendingPathComponent("missing.feature").path).exitCode == 1)
        #expect(ScenarioParseCommandCore.run(path: good, dialectsPath: "/nonexistent.json").exitCode == 1)

        if let conformance = GherkinConformance.directory {
            let fr = directory.appendingPathComponent("fr.feature").path
            try "# language: fr\nFonctionnalité: t\n  Scénario: s\n    Soit a\n".write(toFile: fr, atomically: true, encoding: .utf8)
            #expect(ScenarioParseCommandCore.run(path: fr).exitCode == 1)
            let withTable = ScenarioParseCommandCore.run(path: fr, dialectsPath: conformance + "/gherkin-languages.json")
            #expect(withTable.exitCode == 0)
            #expect(withTable.lines.first?.contains(#""language":"fr""#) == true)
        }
    }
}
