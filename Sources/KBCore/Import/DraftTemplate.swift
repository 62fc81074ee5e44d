/// The skeleton `kb new` writes: an entry.md with every front-matter key and the section
/// headings and labels of its language's vocabulary, and a scenario.feature in the same
/// language. Every part still to write carries a `TODO(kb-new)` comment saying what belongs
/// there with a short example; `kb lint` reports each as a warning until it is replaced.
public struct DraftTemplate: Sendable {
    /// The marker `kb lint` looks for (rule `draft-todo`).
    public static let marker = "TODO(kb-new)"

    /// What a template says in one language: the hints for each part, and the Gherkin dialect.
    struct Phrases: Sendable {
        let gherkinLanguage: String
        let summary: String
        let symptoms: String
        let environment: String
        let problem: String
        let idea: String
        let result: String
        let cause: String
        let fix: String
        let fixStep: String
        let lessons: String
        let references: String
        /// The scenario skeleton's comment, keywords and steps (steps of the shell world).
        let scenarioComment: String
        let feature: String, scenario: String
        let given: String, when: String, then: String
        let attemptTitle: String, fixTitle: String
        let fileStep: String, runStep: String, containsStep: String
        /// What the fix scenario expects instead, and the sample input's placeholder line.
        let fixContainsStep: String, sampleInput: String
    }

    static let phrases: [String: Phrases] = [
        "zh-Hans": Phrases(
            gherkinLanguage: "zh-CN",
            summary: "一两句话：出了什么问题、最后怎么解决的",
            symptoms: "写成大家会搜的样子：报错原文、API 名、关键词，例如「toolbarColorScheme 不生效」",
            environment: "**环境**：<!-- TODO(kb-new): 系统和工具的版本，例如「iOS 17.5，Xcode 15.4」；原始记录没写就写「未记录」 -->",
            problem: "现象是什么、在哪里出现、怎么复现；有报错就原样贴出来",
            idea: "当时为什么觉得这样能行",
            result: "先写结论词（失败／部分有效／成功／放弃），再写看到了什么，例如「失败。深色模式下标题还是白字。」",
            cause: "为什么会这样；没确认的地方写明是推测",
            fix: "最后的做法：先一句话总结，再分步骤写，附上代码",
            fixStep: "第一步做什么",
            lessons: "下次遇到类似问题，先查什么、别再踩什么坑",
            references: "真实存在的文档或源码链接，例如 Apple 文档、规范、issue",
            scenarioComment: "把下面的步骤换成能复现各个方案的命令；每个方案一个场景（@attempt-N），最终方案一个（@fix）",
            feature: "功能", scenario: "场景", given: "假如", when: "当", then: "那么",
            attemptTitle: "方案 1 —— 写下这个方案观察到的现象", fixTitle: "最终方案 —— 写下修好之后的样子",
            fileStep: "文件「example.txt」的内容为：", runStep: "运行「cat example.txt」", containsStep: "标准输出包含「把这里换成失败时的输出」",
            fixContainsStep: "标准输出包含「把这里换成修好之后的输出」", sampleInput: "把这里换成复现用的输入"),
        "ko": Phrases(
            gherkinLanguage: "ko",
            summary: "한두 문장: 무엇이 문제였고 결국 어떻게 해결했는지",
            symptoms: "사람들이 검색하는 말 그대로: 에러 메시지 원문, API 이름, 키워드. 예: \"네비게이션바 하단 라인 제거\"",
            environment: "**환경:** <!-- TODO(kb-new): OS와 도구 버전. 예: iOS 17.5, Xcode 15.4. 기록이 없으면 \"기록 없음\" -->",
            problem: "어떤 증상이 어디서 나타나는지, 어떻게 재현하는지. 에러 메시지는 그대로 붙인다",
            idea: "그때 왜 이 방법이 통할 거라고 생각했는지",
            result: "결론 단어(실패 / 부분 성공 / 성공 / 기각)를 먼저 쓰고, 무엇을 봤는지 쓴다. 예: \"실패. 스크롤하면 선이 다시 보인다.\"",
            cause: "왜 그렇게 되는지. 확인하지 못한 부분은 추정이라고 밝힌다",
            fix: "최종 해결: 한 문장 요약, 단계별 설명, 코드",
            fixStep: "첫 번째로 할 일",
            lessons: "비슷한 문제를 만났을 때 먼저 확인할 것, 다시 하지 말아야 할 것",
            references: "실제로 있는 문서나 소스 링크. 예: Apple 문서, 명세, 이슈",
            scenarioComment: "아래 단계를 각 시도를 재현하는 명령으로 바꾼다. 시도마다 시나리오 하나(@attempt-N), 최종 해결에 하나(@fix)",
            feature: "기능", scenario: "시나리오", given: "조건 ", when: "만일 ", then: "그러면 ",
            attemptTitle: "시도 1 — 이 시도에서 관찰한 현상을 쓴다", fixTitle: "해결 — 고친 뒤의 모습을 쓴다",
            fileStep: "파일 \"example.txt\"의 내용:", runStep: "\"cat example.txt\"를 실행하면", containsStep: "표준 출력에 \"실패할 때의 출력으로 바꾼다\"이 포함된다",
            fixContainsStep: "표준 출력에 \"고친 뒤의 출력으로 바꾼다\"이 포함된다", sampleInput: "재현에 쓸 입력으로 바꾼다"),
        "ja": Phrases(
            gherkinLanguage: "ja",
            summary: "一、二文で：何が起きて、最終的にどう解決したか",
            symptoms: "検索されるとおりの言葉で：エラーメッセージそのもの、API 名、キーワード。例：「ナビバー 下線 消えない」",
            environment: "**環境**：<!-- TODO(kb-new): OS やツールのバージョン。例：iOS 17.5、Xcode 15.4。記録がなければ「記録なし」 -->",
            problem: "どんな症状がどこで起きるか、どう再現するか。エラーメッセージはそのまま貼る",
            idea: "そのとき、なぜこの方法でうまくいくと考えたか",
            result: "まず結論の語（失敗／部分的／成功／却下）、次に見えたこと。例：「失敗。スクロールすると線が戻る。」",
            cause: "なぜそうなるか。確かめていない部分は推測だと書く",
            fix: "最終的な解決：一文の要約、手順、コード",
            fixStep: "最初にすること",
            lessons: "似た問題に出会ったら最初に確かめること、もう踏まない落とし穴",
            references: "実在するドキュメントやソースへのリンク。例：Apple のドキュメント、仕様、issue",
            scenarioComment: "下の手順を、各試行を再現するコマンドに書き換える。試行ごとにシナリオを一つ（@attempt-N）、解決策に一つ（@fix）",
            feature: "機能", scenario: "シナリオ", given: "前提", when: "もし", then: "ならば",
            attemptTitle: "試行 1 — この試行で観察したことを書く", fixTitle: "解決策 — 直したあとの様子を書く",
            fileStep: "ファイル「example.txt」の内容：", runStep: "「cat example.txt」を実行する", containsStep: "標準出力に「失敗したときの出力に書き換える」が含まれる",
            fixContainsStep: "標準出力に「直したあとの出力に書き換える」が含まれる", sampleInput: "再現に使う入力に書き換える"),
        "en": Phrases(
            gherkinLanguage: "en",
            summary: "One or two sentences: what went wrong and how it was fixed in the end",
            symptoms: "Write them the way people search: the error message verbatim, API names, keywords, e.g. \"toolbarColorScheme not working\"",
            environment: "**Environment:** <!-- TODO(kb-new): versions of the OS and tools, e.g. iOS 17.5, Xcode 15.4; \"not recorded\" when unknown -->",
            problem: "What the symptom is, where it shows, how to reproduce it; paste error messages as they are",
            idea: "Why this looked like it would work at the time",
            result: "Start with the outcome word (failed / partial / worked / rejected), then what you saw, e.g. \"failed. The title is still white in dark mode.\"",
            cause: "Why it behaves this way; say which parts are a guess",
            fix: "What finally worked: a one-sentence summary, the steps, the code",
            fixStep: "The first thing to do",
            lessons: "What to check first next time, which trap not to fall into again",
            references: "Links to real documents or source: vendor documentation, specifications, issues",
            scenarioComment: "Replace the steps below with commands that reproduce each attempt: one scenario per attempt (@attempt-N) and one for the fix (@fix)",
            feature: "Feature", scenario: "Scenario", given: "Given ", when: "When ", then: "Then ",
            attemptTitle: "Attempt 1 — what this attempt showed", fixTitle: "Fix — what it looks like once fixed",
            fileStep: "a file \"example.txt\" containing:", runStep: "I run \"cat example.txt\"", containsStep: "standard output contains \"replace with what the failure prints\"",
            fixContainsStep: "standard output contains \"replace with what the fixed version prints\"", sampleInput: "replace with the input that reproduces the problem"),
    ]

    /// Languages with a template, in the order `kb new --help` lists them.
    public static let languages = ["zh-Hans", "ko", "ja", "en"]

    public let id: String
    public let title: String
    public let language: String
    /// `YYYY-MM-DD` for `updated`.
    public let date: String

    public init(id: String, title: String, language: String, date: String) {
        self.id = id
        self.title = title
        self.language = language
        self.date = date
    }

    /// The vocabulary table of the template's language (Chinese scripts share one table, `zh`).
    var vocabulary: Vocabulary {
        let tag = language.hasPrefix("zh") ? "zh" : language
        return Vocabulary.all.first { $0.language == tag } ?? .english
    }

    func todo(_ text: String) -> String { "<!-- \(Self.marker): \(text) -->" }

    func first(_ section: SectionKind) -> String { vocabulary.sections[section]?.first ?? section.rawValue }
    func label(_ kind: LabelKind) -> String { vocabulary.labels[kind]?.first ?? kind.rawValue }

    /// `**结果**：` or `**Result:**`: CJK labels keep the full-width colon outside the bold.
    func labelled(_ kind: LabelKind) -> String {
        language == "en" || language == "ko" ? "**\(label(kind)):** " : "**\(label(kind))**："
    }

    public var entry: String {
        let p = Self.phrases[language]!
        let quotedTitle = StarterKnowledgeBase.yamlString(title)
        let attemptWord = vocabulary.attemptWords.first ?? "Attempt"
        let separator = language == "en" || language == "ko" ? ": " : "："
        let lines = [
            "---",
            "id: \(id)",
            "title: \(quotedTitle)",
            "lang: \(language)",
            "summary: \"\"  # \(Self.marker): \(p.summary)",
            "symptoms:  # \(Self.marker): \(p.symptoms)",
            "  - \(quotedTitle)",
            "platforms: []",
            "apis: []",
            "tags: []",
            "related: []",
            "status: open",
            "updated: \(date)",
            "---",
            "",
            "# \(title)",
            "",
            "## \(first(.problem))",
            "",
            p.environment,
            "",
            todo(p.problem),
            "",
            "## \(first(.attempts))",
            "",
            "### \(attemptWord) 1\(separator)…",
            "",
            labelled(.idea) + todo(p.idea),
            "",
            labelled(.result) + todo(p.result),
            "",
            labelled(.cause) + todo(p.cause),
            "",
            "## \(first(.fix))",
            "",
            todo(p.fix),
            "",
            "1. " + todo(p.fixStep),
            "",
            "## \(first(.lessons))",
            "",
            "- " + todo(p.lessons),
            "",
            "## \(first(.references))",
            "",
            "- " + todo(p.references),
            "",
        ]
        return lines.joined(separator: "\n")
    }

    public var scenario: String {
        let p = Self.phrases[language]!
        let docString = ["      \"\"\"", "      " + p.sampleInput, "      \"\"\""]
        func scenario(_ tag: String, _ name: String, _ expectation: String) -> [String] {
            ["  \(tag)", "  \(p.scenario): \(name)", "    \(p.given)\(p.fileStep)"] + docString
                + ["    \(p.when)\(p.runStep)", "    \(p.then)\(expectation)", ""]
        }
        let lines = ["# language: \(p.gherkinLanguage)", "# \(p.scenarioComment)", "\(p.feature): \(title)", ""]
            + scenario(RecordAnchor.attempt(AttemptNumber([1])).tag, p.attemptTitle, p.containsStep)
            + scenario(RecordAnchor.fix.tag, p.fixTitle, p.fixContainsStep)
        return lines.joined(separator: "\n")
    }
}
