import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

/// A body in some language and style, with the attempts it must yield.
struct ParsingCase: CustomTestStringConvertible, Sendable {
    let name: String
    let body: String
    let attempts: [(number: String, outcome: Outcome)]
    let hasFix: Bool
    var testDescription: String { name }
}

@Suite struct EntryParserTests {
    static let cases: [ParsingCase] = [
        ParsingCase(name: "zh labelled paragraphs, full-width colons", body: """
            ## 问题背景

            大标题看不见。

            ## 尝试过的方案

            ### 方案 0：亮度采样

            **思路：** 自己算亮度。

            **结果：** 放弃，不是原生行为。

            ### 方案 1：toolbarColorScheme

            想法：用浅色方案。

            ```swift
            .toolbarColorScheme(.light, for: .navigationBar)
            ```

            结果：失败，标题还是白色。

            原因：背景隐藏时不生效。

            ## 最终方案

            沿响应链找到导航栏。
            """, attempts: [("0", .rejected), ("1", .failed)], hasFix: true),
        ParsingCase(name: "ko list labels with ASCII colons and sub-numbers", body: """
            ## 문제 정의

            그림자를 없애고 싶다.

            ## 시도한 방법

            ### 시도 4: 스크롤 추적

            - **결과:** 부분 성공 — 하위 시도로 나뉨.

            ### 시도 4-1 (superview 체인 탐색)

            - **아이디어:** superview를 따라 올라간다.
            - **결과:** 실패. 스크롤 뷰 밖에 있다.
            - **원인:** background는 형제 뷰다.

            ### 시도 4-2: sibling 탐색

            - 결과: 성공

            ## 해결 방법

            KVO로 추적한다.
            """, attempts: [("4", .partial), ("4-1", .failed), ("4-2", .worked)], hasFix: true),
        ParsingCase(name: "ja sub-headings", body: """
            ## 問題

            太字にならない。

            ## 試したこと

            ### 試行 1：そのまま書く

            #### 考え方

            普通に書く。

            #### 結果

            失敗。アスタリスクが残る。

            #### 原因

            flanking の規則。

            ### 試み 2 — スペース

            **結果：** 部分的。空白が残る。

            ## 解決策

            句読点を外に出す。
            """, attempts: [("1", .failed), ("2", .partial)], hasFix: true),
        ParsingCase(name: "en headings and labels", body: """
            ## Problem

            It breaks.

            ### Attempt 1: the obvious one

            Idea: try it.

            Result: Failed. Nothing changed.

            ### Attempt 2. Dotted title

            Result: worked

            ## Solution

            Do the second thing.
            """, attempts: [("1", .failed), ("2", .worked)], hasFix: true),
        ParsingCase(name: "unknown outcome is never guessed", body: """
            ### 方案 1：看看

            结果：标题颜色还是不对。

            ### 做法 2

            没有结果标签。
            """, attempts: [("1", .unknown), ("2", .unknown)], hasFix: false),
    ]

    @Test(arguments: cases)
    func recognisesAttemptsAndOutcomes(_ testCase: ParsingCase) throws {
        let result = TestSupport.parse(TestSupport.entry(body: testCase.body))
        let entry = try #require(result.entry)
        #expect(entry.attempts.map(\.number.description) == testCase.attempts.map(\.number))
        #expect(entry.attempts.map(\.outcome) == testCase.attempts.map(\.outcome))
        #expect((entry.fix != nil) == testCase.hasFix)
        #expect(result.diagnostics.filter { $0.severity == .error }.isEmpty)
    }

    /// A comment is a note to whoever edits the file: in no record (kb init's examples start
    /// with one), and text before the first heading joins the problem under its heading.
    @Test func commentsAreNotRecordsAndTheProblemKeepsItsHeading() throws {
        let entry = try #require(TestSupport.parse(TestSupport.entry(body: """
            <!-- An example entry: delete its folder
                 once you have entries of your own. -->

            Seen on every release.

            ## Problem

            The script picks the wrong tag.

            <!-- TODO(kb-new): what did you see? --> <!-- and where? -->

            ## Attempts

            ### Attempt 1: sort -n

            <!-- TODO(kb-new): the idea -->

            Result: failed, 1.10 reads as 1.1.
            """)).entry)
        let problem = try #require(entry.problem)
        #expect(problem.heading == "Problem")
        #expect(problem.text == "Seen on every release.\nThe script picks the wrong tag.", "\(problem.text)")
        #expect(entry.attempts.count == 1)
        #expect(entry.attempts[0].parts.map(\.text) == ["1.10 reads as 1.1."], "\(entry.attempts[0].parts.map(\.text))")
        let search = SearchDocument(entry: entry)
        let texts = search.fields.values.flatMap { $0 }.map(\.text)
        #expect(!texts.contains { $0.contains("<!--") || $0.contains("TODO") }, "\(texts)")
    }

    /// A comment above the title heading does not stop it being the title, and every other
    /// block still lands in one record.
    @Test func titleAfterAComment() throws {
        let entry = try #require(TestSupport.parse(TestSupport.entry(body: """
            <!-- kb init wrote this example -->

            # 测试条目

            ## 问题背景

            文字。
            """)).entry)
        #expect(entry.titleHeading == "测试条目")
        #expect(entry.problem?.text == "文字。")
        #expect(entry.notes.isEmpty)
        try EntryRecordsTests.assertCoverage(entry)
    }

    /// Texts their writer gave no label are named in the entry's language, never with kb's
    /// English role names: a search result reads `증상`, `시도 1 — 코드`.
    @Test(arguments: [("ko", "증상", "코드"), ("ja", "症状", "コード"), ("zh-Hans", "症状", "代码"), ("zh-Hant", "症狀", "程式碼"), ("en", "symptom", "code"), ("fr", "symptom", "code")])
    func unlabelledTextsAreNamedInTheEntrysLanguage(lang: String, symptom: String, code: String) throws {
        let entry = try #require(TestSupport.parse(TestSupport.entry(lang: lang, body: """
            ## Attempts

            ### Attempt 1: sort -n

            ```sh
            sort -n versions.txt
            ```

            Result: failed.
            """)).entry)
        let document = SearchDocument(entry: entry)
        let symptoms = document.fields[.symptoms] ?? []
        #expect(!symptoms.isEmpty && symptoms.allSatisfy { $0.label == symptom }, "\(symptoms.map(\.label))")
        #expect(document.fields[.code]?.first?.label == "Attempt 1 — \(code)", "\(String(describing: document.fields[.code]?.first?.label))")
    }

    @Test(arguments: [
        ("<!-- a -->", true), ("<!-- a -->\n<!-- b -->\n", true), ("  <!--\nmany\nlines\n-->  ", true),
        ("<!-- a --> <div>", false), ("<div><!-- a --></div>", false), ("<!-- unterminated", false),
    ])
    func htmlCommentBlocks(_ html: String, _ isComment: Bool) throws {
        let block = MarkdownNode(kind: .htmlBlock, literal: html, range: SourceRange(start: .init(line: 1, column: 1), end: .init(line: 1, column: 1)))
        #expect(block.isHTMLComment == isComment)
    }

    @Test func attemptPartsKeepTheirRoles() throws {
        let entry = try #require(TestSupport.parse(TestSupport.entry(body: Self.cases[0].body)).entry)
        let attempt = entry.attempts[1]
        #expect(attempt.anchor == .attempt(AttemptNumber([1])))
        #expect(attempt.anchor.fragment == "attempt-1" && attempt.anchor.tag == "@attempt-1")
        #expect(attempt.title == "toolbarColorScheme")
        #expect(attempt.idea == "用浅色方案。")
        #expect(attempt.failure == "标题还是白色。")
        #expect(attempt.cause == "背景隐藏时不生效。")
        #expect(attempt.code.map(\.language) == ["swift"])
        #expect(attempt.outcomeWord == "失败")
        #expect(entry.problem?.text == "大标题看不见。")
    }

    @Test func subHeadingStyleAttributesFollowingBlocks() throws {
        let entry = try #require(TestSupport.parse(TestSupport.entry(body: Self.cases[2].body)).entry)
        #expect(entry.attempts[0].idea == "普通に書く。")
        #expect(entry.attempts[0].cause == "flanking の規則。")
        #expect(entry.attempts[1].title == "スペース")
    }

    @Test func sourceRangesPointIntoTheFile() throws {
        let text = TestSupport.entry(body: "### 方案 3：x\n\n结果：失败\n")
        let entry = try #require(TestSupport.parse(text).entry)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let line = try #require(lines.firstIndex { $0.hasPrefix("### 方案 3") }) + 1
        #expect(entry.attempts[0].headingRange.start == SourceLocation(line: line, column: 1))
    }

    @Test(arguments: [
        ("方案 1：标题", "1", "标题"), ("尝试2", "2", ""), ("시도 4-1 (superview)", "4-1", "(superview)"),
        ("試行 3 — 何か", "3", "何か"), ("Attempt 4.2: deep", "4-2", "deep"), ("方法３：全角数字", "3", "全角数字"),
    ])
    func attemptHeadings(heading: String, number: String, title: String) throws {
        let parsed = try #require(VocabularyMatcher.shared.attemptHeading(heading))
        #expect(parsed.number.description == number)
        #expect(parsed.title == title)
    }

    @Test(arguments: ["最终方案", "解决方案", "尝试过的方案", "方案", "시도한 방법", "Attempts"])
    func sectionWordsAreNotAttempts(heading: String) {
        #expect(VocabularyMatcher.shared.attemptHeading(heading) == nil)
    }

    @Test func frontMatterIsTyped() throws {
        let entry = try #require(TestSupport.parse(TestSupport.entry(related: ["a-b"], body: "")).entry)
        #expect(entry.metadata.symptoms == ["测试症状"])
        #expect(entry.metadata.related == ["a-b"])
        #expect(entry.metadata.status == .workaround)
        #expect(entry.metadata.locations["lang"] == SourceLocation(line: 4, column: 7))
    }
}

extension EntryParserTests {
    /// Nothing is dropped in the parsing fixtures either.
    @Test(arguments: cases)
    func everyBlockOfTheFixtureLandsInOneRecord(_ testCase: ParsingCase) throws {
        let entry = try #require(TestSupport.parse(TestSupport.entry(body: testCase.body)).entry)
        try EntryRecordsTests.assertCoverage(entry)
    }
}
