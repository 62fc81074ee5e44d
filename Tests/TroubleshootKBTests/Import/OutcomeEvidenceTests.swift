import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

/// One attempt of a raw write-up and the outcome its draft must have.
struct OutcomeEvidenceCase: Sendable, CustomTestStringConvertible {
    let name: String
    let lang: String
    let raw: String
    let outcome: Outcome
    /// Whether the outcome is drafted from describing phrases (and so asked about).
    let drafted: Bool
    /// A phrase the question must cite.
    let cites: String?

    var testDescription: String { name }

    static let all: [OutcomeEvidenceCase] = [
        .init(name: "zh failure phrase in the result", lang: "zh-Hans",
              raw: "标题栏颜色不对\n\n问题\n深色背景上标题看不清。\n\n方案 1：改 tintColor\n结果：设置之后完全不生效，标题还是白色。\n",
              outcome: .failed, drafted: true, cites: "不生效"),
        .init(name: "zh rejection beats the success before it", lang: "zh-Hans",
              raw: "标题栏颜色不对\n\n问题\n深色背景上标题看不清。\n\n方案 1：加一层毛玻璃\n结果：标题能看见了，但挡住了背景图，用户不接受。\n",
              outcome: .rejected, drafted: true, cites: "用户不接受"),
        .init(name: "zh success with a limitation is partial", lang: "zh-Hans",
              raw: "标题栏颜色不对\n\n问题\n深色背景上标题看不清。\n\n方案 1：改外观\n结果：浅色模式下能看见了，但系统不支持单独改折叠后的标题。\n",
              outcome: .partial, drafted: true, cites: "不支持"),
        .init(name: "zh outcome word first stays as written", lang: "zh-Hans",
              raw: "标题栏颜色不对\n\n问题\n深色背景上标题看不清。\n\n方案 1：改 tintColor\n结果：失败，标题还是看不见。\n",
              outcome: .failed, drafted: false, cites: nil),
        .init(name: "zh nothing to go on stays unknown", lang: "zh-Hans",
              raw: "标题栏颜色不对\n\n问题\n深色背景上标题看不清。\n\n方案 1：看日志\n结果：打印了视图层级，记下了各层的背景色。\n",
              outcome: .unknown, drafted: false, cites: nil),
        .init(name: "ko failure without a result label", lang: "ko",
              raw: "네비게이션 바 그림자\n\n문제 정의\n하단 경계선을 없애고 싶음.\n\n시도 1: appearance 프록시\n• 프록시에 shadowColor 설정.\n• inline 모드에서는 설정이 무시됨.\n",
              outcome: .failed, drafted: true, cites: "무시됨"),
        .init(name: "ko success with a limitation is partial", lang: "ko",
              raw: "네비게이션 바 그림자\n\n문제 정의\n하단 경계선을 없애고 싶음.\n\n시도 1: toolbarBackground\n결과: 배경색은 변경되나 경계선을 숨기는 modifier가 존재하지 않음.\n",
              outcome: .partial, drafted: true, cites: "존재하지 않음"),
        .init(name: "ja stale value is a failure", lang: "ja",
              raw: "ウィジェットが更新されない\n\n概要\nアプリで保存した値がウィジェットに出ない。\n\n試行 1：リロード\n結果：getTimeline は呼ばれるが値が古いまま。\n",
              outcome: .failed, drafted: true, cites: "古いまま"),
        .init(name: "ja reflected is a success", lang: "ja",
              raw: "ウィジェットが更新されない\n\n概要\nアプリで保存した値がウィジェットに出ない。\n\n試行 1：suiteName を指定\n結果：ウィジェットにも値が反映された。\n",
              outcome: .worked, drafted: true, cites: "反映された"),
        .init(name: "en no effect is a failure", lang: "en",
              raw: "Title colour ignored\n\nProblem\nThe large title stays white on a light image.\n\nTry 1: set the colour scheme\nResult: the modifier has no effect on the large title.\n",
              outcome: .failed, drafted: true, cites: "no effect"),
        .init(name: "en phrases match whole words only", lang: "en",
              raw: "Title colour ignored\n\nProblem\nThe large title stays white on a light image.\n\nTry 1: reinstall\nResult: reinstalled the solvedeps helper and rebuilt.\n",
              outcome: .unknown, drafted: false, cites: nil),
    ]
}

@Suite struct OutcomeEvidenceTests {
    @Test(arguments: OutcomeEvidenceCase.all)
    func draftsTheOutcomeTheTextSupports(_ example: OutcomeEvidenceCase) throws {
        let draft = EntryImporter().draft(example.raw, options: .init(lang: example.lang, id: "sample-entry", today: "2026-04-01"))
        let markdown = try #require(draft.markdown)
        let entry = try #require(TestSupport.parse(markdown, folder: "sample-entry").entry, "\(markdown)")
        let attempt = try #require(entry.attempts.first, "\(markdown)")
        #expect(attempt.outcome == example.outcome, "\(markdown)")
        let question = TestSupport.comments(underAttempt: 0, of: entry).first { $0.contains("TODO(kb-import): attempt 1: outcome") }
        #expect((question != nil) == example.drafted, "\(markdown)")
        if let cites = example.cites { #expect(question?.contains("\"\(cites)\"") == true, "\(markdown)") }
    }

    static let verdicts: [(found: Set<OutcomeEvidence>, outcome: Outcome?)] = [
        ([.failure, .success], .failed),
        ([.rejection, .success, .limitation], .rejected),
        ([.failure, .rejection], .failed),
        ([.success, .limitation], .partial),
        ([.success], .worked),
        ([.limitation], nil),
        ([], nil),
    ]

    @Test func verdictOrder() {
        for (found, outcome) in Self.verdicts {
            #expect(OutcomeEvidence.verdict(found) == outcome, "\(found.map(\.rawValue).sorted())")
        }
    }
}
