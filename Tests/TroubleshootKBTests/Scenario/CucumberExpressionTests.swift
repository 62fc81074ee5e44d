import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

@Suite struct CucumberExpressionTests {
    func values(_ expression: String, _ text: String, registry: ParameterTypeRegistry = ParameterTypeRegistry()) throws -> [any Sendable]? {
        try CucumberExpression(expression, registry: registry).match(text)
    }

    @Test func intParameter() throws {
        #expect(try values("I have {int} cukes", "I have 42 cukes")?.first as? Int == 42)
        #expect(try values("I have {int} cukes", "I have -7 cukes")?.first as? Int == -7)
        #expect(try values("I have {int} cukes", "I have +3 cukes")?.first as? Int == 3)
        #expect(try values("I have {int} cukes", "I have 4.5 cukes") == nil)
        #expect(try values("退出码为{int}", "退出码为0")?.first as? Int == 0)
    }

    @Test func floatParameter() throws {
        #expect(try values("it costs {float}", "it costs 3.25")?.first as? Double == 3.25)
        #expect(try values("it costs {float}", "it costs .5")?.first as? Double == 0.5)
        #expect(try values("it costs {float}", "it costs -2")?.first as? Double == -2)
        #expect(try values("it costs {float}", "it costs 1e3")?.first as? Double == 1000)
        #expect(try values("it costs {float}", "it costs abc") == nil)
    }

    @Test func wordAndAnonymousParameters() throws {
        #expect(try values("the {word} bar", "the navigation bar")?.first as? String == "navigation")
        #expect(try values("the {word} bar", "the navigation tab bar") == nil)
        #expect(try values("then {} happens", "then anything at all happens")?.first as? String == "anything at all")
    }

    @Test(arguments: [
        ("a file \"notes.md\" here", "notes.md"),
        ("a file 'notes.md' here", "notes.md"),
        ("a file 「notes.md」 here", "notes.md"),
        ("a file “notes.md” here", "notes.md"),
        ("a file \"say \\\"hi\\\"\" here", "say \"hi\""),
        ("a file 'it\\'s' here", "it's"),
        ("a file \"\" here", ""),
        ("a file 「<p>**「強調」**した</p>」 here", "<p>**「強調」**した</p>"),
    ])
    func stringParameterQuotes(text: String, expected: String) throws {
        #expect(try values("a file {string} here", text)?.first as? String == expected)
    }

    @Test func stringWithoutSpaceAfterCJKKeyword() throws {
        // Chinese and Japanese step keywords take no space: the text starts right at the word.
        #expect(try values("文件{string}的内容为：", "文件「zh.md」的内容为：")?.first as? String == "zh.md")
        #expect(try values("ファイル{string}の内容：", "ファイル「a.md」の内容：")?.first as? String == "a.md")
        #expect(try values("파일 {string}의 내용:", "파일 \"a.md\"의 내용:")?.first as? String == "a.md")
    }

    @Test func optionalText() throws {
        let expression = try CucumberExpression("I have {int} cucumber(s)")
        #expect(try expression.match("I have 1 cucumber") != nil)
        #expect(try expression.match("I have 2 cucumbers") != nil)
        #expect(try expression.match("I have 2 cucumberss") == nil)
    }

    @Test func alternatives() throws {
        let english = try CucumberExpression("the output/stdout contains {string}")
        #expect(try english.match("the output contains \"x\"") != nil)
        #expect(try english.match("the stdout contains \"x\"") != nil)
        #expect(try english.match("the stderr contains \"x\"") == nil)
        // Alternatives reach to the parameter: 运行 or 执行.
        let chinese = try CucumberExpression("运行/执行{string}")
        #expect(try chinese.match("运行「ls」")?.first as? String == "ls")
        #expect(try chinese.match("执行「ls」")?.first as? String == "ls")
        // A Korean particle after a parameter.
        let korean = try CucumberExpression("{string}을/를 실행한다")
        #expect(try korean.match("\"ls\"를 실행한다") != nil)
        #expect(try korean.match("\"ls\"을 실행한다") != nil)
        // Optional text inside an alternative.
        let mixed = try CucumberExpression("I eat/drink(s) it")
        #expect(try mixed.match("I drinks it") != nil)
        #expect(try mixed.match("I eat it") != nil)
    }

    @Test func escapes() throws {
        let expression = try CucumberExpression("a \\(literal\\) \\{int\\} with a\\/b and \\\\")
        #expect(try expression.match("a (literal) {int} with a/b and \\") != nil)
        #expect(try expression.match("a literal 3 with a and b") == nil)
        // Regular-expression characters are literal.
        #expect(try values("cost is $5.00 [sic]?", "cost is $5.00 [sic]?") != nil)
        #expect(try values("cost is $5.00 [sic]?", "cost is $5x00 [sic]") == nil)
    }

    @Test func customParameterType() throws {
        enum Color: String, Sendable { case red, green }
        var registry = ParameterTypeRegistry()
        try registry.register(ParameterType(name: "color", regexp: "red|green") { groups in Color(rawValue: groups[0] ?? "")! })
        try registry.register(ParameterType(name: "size", regexp: "(\\d+)x(\\d+)") { groups in
            (Int(groups[0] ?? "") ?? 0) * (Int(groups[1] ?? "") ?? 0)
        })
        let result = try values("a {color} box of {size} and {int}", "a green box of 3x4 and 7", registry: registry)
        #expect(result?[0] as? Color == .green)
        #expect(result?[1] as? Int == 12)
        #expect(result?[2] as? Int == 7, "groups of a custom type do not shift later parameters")
        #expect(throws: CucumberExpressionError.self) { try registry.register(.int) }
    }

    @Test(arguments: [
        "a {nope} thing", "a {int thing", "a } thing", "a (thing", "a ) thing", "a (b{int}) thing", "a /b thing", "a b/ thing", "ends with \\",
    ])
    func invalidExpressionsAreRejected(expression: String) {
        #expect(throws: CucumberExpressionError.self) { try CucumberExpression(expression) }
    }

    @Test func snippetsForUndefinedSteps() {
        #expect(StepSnippet.expression(for: "I run \"kb lint\" 3 times") == "I run {string} {int} times")
        #expect(StepSnippet.expression(for: "文件「a.md」有2.5行") == "文件{string}有{float}行")
        #expect(StepSnippet.expression(for: "a/b (c) {d}") == "a\\/b \\(c\\) \\{d\\}")
        let snippet = StepSnippet.make(for: "the output has <\\/p> \"x\"", worldName: "ShellWorld")
        #expect(snippet.contains("StepDefinition<ShellWorld>(phrases: [\"the output has <\\\\\\\\\\\\/p> {string}\"])"), "\(snippet)")
    }
}

/// A world for runner tests: a counter, a pending step, an ambiguous pair, a requirement.
final class CounterWorld: World {
    static let worldName = "counter"
    var total = 0
    var rules: [String] = []

    init(settings: WorldSettings) throws {}

    static func missingRequirement(tags: [String], settings: WorldSettings) -> String? {
        tags.contains("@requires:unicorn") ? "requires unicorn, which is not installed" : nil
    }

    var exercisedRules: [String] { rules }

    static let library = try! StepLibrary<CounterWorld>(definitions: [
        StepDefinition(phrases: ["I add {int}", "加{int}", "{int}을/를 더한다", "{int}を足す"]) { world, arguments in
            world.total += try arguments.int(0)
            world.rules.append("counter.add")
        },
        StepDefinition(phrases: ["the total is {int}", "合计为{int}"]) { world, arguments in
            let expected = try arguments.int(0)
            guard world.total == expected else { throw StepFailure("the total is \(world.total), not \(expected)") }
        },
        StepDefinition(phrases: ["it is not written yet"]) { _, _ in throw StepPending("not written yet") },
        StepDefinition(phrases: ["a {word} light"]) { _, _ in },
        StepDefinition(phrases: ["a red light"]) { _, _ in },
    ])
}

@Suite struct ScenarioRunnerTests {
    static func pickles(_ source: String) throws -> (GherkinDocument, [Pickle]) {
        let document = try GherkinParser().parse(source: source, uri: "test.feature")
        return (document, PickleCompiler().compile(document))
    }

    static func run(_ source: String) throws -> [ScenarioResult] {
        let (document, pickles) = try pickles(source)
        let info = ScenarioRunner.stepInfo(document)
        return pickles.map { ScenarioRunner.run($0, in: CounterWorld.self, stepInfo: info, settings: WorldSettings()) }
    }

    @Test func freshWorldPerScenarioAndStatuses() throws {
        let results = try Self.run("""
            Feature: counting
              Scenario: first
                Given I add 2
                Then the total is 2
              Scenario: second, in a new world
                Given I add 3
                Then the total is 3
              Scenario: failing then skipped
                Given I add 1
                Then the total is 5
                And I add 1
              Scenario: undefined and ambiguous
                Given I add 1
                When I frobnicate "the thing" 3 times
                Then a red light
              Scenario: pending
                Given it is not written yet
                Then the total is 0
              @requires:unicorn
              Scenario: needs a unicorn
                Given I add 1
            """)
        #expect(results.map(\.status) == [.passed, .passed, .failed, .undefined, .pending, .skipped])
        #expect(results[0].rules == ["counter.add"])
        #expect(results[2].message == "the total is 1, not 5")
        #expect(results[2].steps.map(\.status) == [.passed, .failed, .skipped])
        #expect(results[3].steps.map(\.status) == [.passed, .undefined, .ambiguous])
        let suggestion = try #require(results[3].steps[1].message)
        #expect(suggestion.contains("phrases: [\"I frobnicate {string} {int} times\"]"), "\(suggestion)")
        #expect(results[3].steps[2].message?.contains("'a {word} light'") == true)
        #expect(results[3].steps[2].message?.contains("'a red light'") == true)
        #expect(results[4].steps.map(\.status) == [.pending, .skipped])
        #expect(results[5].message == "requires unicorn, which is not installed")
        #expect(results[5].steps.map(\.status) == [.skipped])
        #expect(results[5].steps[0].message == "requires unicorn, which is not installed", "skipped steps say why")
        #expect(results[0].steps[0].keyword == "Given" && results[0].steps[0].line == 3)
    }

    @Test func stepsInEveryLanguage() throws {
        let chinese = try Self.run("""
            # language: zh-CN
            功能: 计数
              场景: 加法
                假如加2
                而且加3
                那么合计为5
            """)
        #expect(chinese.map(\.status) == [.passed])
        let korean = try Self.run("""
            # language: ko
            기능: 계산
              시나리오: 더하기
                조건 2를 더한다
                그리고 3을 더한다
                그러면 the total is 5
            """)
        #expect(korean.map(\.status) == [.passed])
        let japanese = try Self.run("""
            # language: ja
            機能: 計算
              シナリオ: 足し算
                前提2を足す
                ならばthe total is 2
            """)
        #expect(japanese.map(\.status) == [.passed])
    }

    @Test func verdictsFollowScenarioResults() throws {
        let results = try Self.run("""
            Feature: f
              Scenario: a
                Given I add 1
              Scenario: b
                Then the total is 9
              Scenario: c
                Given nothing defined
              @requires:unicorn
              Scenario: d
                Given I add 1
              Scenario: e
                Given it is not written yet
            """)
        #expect(results.map { EntryChecker.verdict(for: $0).0 } == [.reproduces, .stale, .broken, .skipped, .broken])
        func check(_ anchor: String, _ verdict: CheckVerdict) -> AttemptCheck {
            AttemptCheck(anchor: anchor, scenario: anchor, verdict: verdict, message: "why \(anchor)", line: 1, steps: [], rules: [])
        }
        #expect(EntryChecker.entryVerdict([check("attempt-1", .reproduces), check("fix", .reproduces)]).0 == .reproduces)
        let stale = EntryChecker.entryVerdict([check("attempt-1", .reproduces), check("attempt-2", .stale)])
        #expect(stale.0 == .stale && stale.1?.contains("attempt-2") == true)
        #expect(EntryChecker.entryVerdict([check("attempt-1", .skipped), check("fix", .reproduces)]).0 == .skipped)
        #expect(EntryChecker.entryVerdict([check("attempt-1", .stale), check("fix", .broken)]).0 == .broken)
    }
}
