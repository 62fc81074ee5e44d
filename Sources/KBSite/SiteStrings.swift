import KBCore
import KBSearch
import KBScenarios
/// The site's own words (headings, labels, outcome names), in the language of the page.
/// Entry pages speak the entry's language; the home, tag and symptom pages speak English
/// and mark every entry title with its own `lang`, and an entry's line in the lists gives its
/// status and attempts in the entry's own words (`EntryListItems.line`), so an entry has one
/// status word wherever it is shown. A class: pages share the five sets.
final class SiteStrings: Sendable {
    let skipToContent: String
    let home: String
    let symptomIndex: String
    let feed: String
    let symptoms: String
    let platforms: String
    let apis: String
    let tags: String
    let status: String
    let updated: String
    let problem: String
    let attempts: String
    let fix: String
    let sideEffects: String
    let lessons: String
    let references: String
    let related: String
    let notes: String
    let scenario: String
    let checkResults: String
    let lastCheck: String
    let onThisPage: String
    let failed: String
    let partial: String
    let worked: String
    let rejected: String
    let unknown: String
    let resolved: String
    let workaround: String
    let open: String
    /// The copy button of code blocks (assets/app.js) and what it says once the code is copied.
    let copy: String
    let copied: String
    /// Search: the box's label, its button, the result count (`{n}`), no results (`{q}`: the
    /// query) and an index that would not load (`{error}`). search.js reads the last four from
    /// the results list's data attributes.
    let search: SearchStrings

    init(skipToContent: String, home: String, symptomIndex: String, feed: String, symptoms: String, platforms: String, apis: String, tags: String, status: String, updated: String, problem: String, attempts: String, fix: String, sideEffects: String, lessons: String, references: String, related: String, notes: String, scenario: String, checkResults: String, lastCheck: String, onThisPage: String, failed: String, partial: String, worked: String, rejected: String, unknown: String, resolved: String, workaround: String, open: String, copy: String, copied: String, search: SearchStrings) {
        self.skipToContent = skipToContent
        self.home = home
        self.symptomIndex = symptomIndex
        self.feed = feed
        self.symptoms = symptoms
        self.platforms = platforms
        self.apis = apis
        self.tags = tags
        self.status = status
        self.updated = updated
        self.problem = problem
        self.attempts = attempts
        self.fix = fix
        self.sideEffects = sideEffects
        self.lessons = lessons
        self.references = references
        self.related = related
        self.notes = notes
        self.scenario = scenario
        self.checkResults = checkResults
        self.lastCheck = lastCheck
        self.onThisPage = onThisPage
        self.failed = failed
        self.partial = partial
        self.worked = worked
        self.rejected = rejected
        self.unknown = unknown
        self.resolved = resolved
        self.workaround = workaround
        self.open = open
        self.copy = copy
        self.copied = copied
        self.search = search
    }

    /// The words of the search box and the home page's results.
    struct SearchStrings: Sendable {
        let label: String
        let button: String
        let oneResult: String
        let results: String
        let noResults: String
        let unavailable: String
    }

    func outcome(_ outcome: Outcome) -> String {
        switch outcome {
        case .failed: return failed
        case .partial: return partial
        case .worked: return worked
        case .rejected: return rejected
        case .unknown: return unknown
        }
    }

    func status(_ status: EntryMetadata.Status?) -> String {
        switch status {
        case .resolved: return resolved
        case .workaround: return workaround
        case .open: return open
        case nil: return unknown
        }
    }

    /// Strings for a BCP 47 tag: `zh-*`, `ko`, `ja`, anything else English.
    static func forLanguage(_ lang: String) -> SiteStrings {
        if lang == "zh-Hant" || lang.hasPrefix("zh-Hant") { return chineseTraditional }
        if lang.hasPrefix("zh") { return chinese }
        if lang.hasPrefix("ko") { return korean }
        if lang.hasPrefix("ja") { return japanese }
        return english
    }

    static let english = SiteStrings(
        skipToContent: "Skip to content", home: "Home", symptomIndex: "Symptoms", feed: "Feed",
        symptoms: "Symptoms", platforms: "Platforms", apis: "APIs", tags: "Tags", status: "Status", updated: "Updated",
        problem: "Problem", attempts: "Attempts", fix: "Fix", sideEffects: "Side effects", lessons: "Lessons",
        references: "References", related: "Related entries", notes: "Notes", scenario: "Scenario",
        checkResults: "Check results", lastCheck: "Last check", onThisPage: "On this page",
        failed: "failed", partial: "partial", worked: "worked", rejected: "rejected", unknown: "no outcome",
        resolved: "resolved", workaround: "workaround", open: "open", copy: "Copy", copied: "Copied",
        search: .init(label: "Search symptoms, error messages and APIs", button: "Search", oneResult: "1 result", results: "{n} results",
                      noResults: "No entry matches “{q}”. Try other words, or browse the entries below.", unavailable: "Search is unavailable: {error}"))

    static let chinese = SiteStrings(
        skipToContent: "跳到正文", home: "首页", symptomIndex: "症状索引", feed: "订阅",
        symptoms: "症状", platforms: "平台", apis: "API", tags: "标签", status: "状态", updated: "更新",
        problem: "问题", attempts: "尝试过的方案", fix: "最终方案", sideEffects: "副作用", lessons: "经验教训",
        references: "参考", related: "相关条目", notes: "备注", scenario: "检查场景",
        checkResults: "检查结果", lastCheck: "最近检查", onThisPage: "本页内容",
        failed: "失败", partial: "部分有效", worked: "成功", rejected: "放弃", unknown: "无结果",
        resolved: "已解决", workaround: "有变通办法", open: "未解决", copy: "复制", copied: "已复制",
        search: .init(label: "搜索症状、错误信息和 API", button: "搜索", oneResult: "1 条结果", results: "{n} 条结果",
                      noResults: "没有与“{q}”匹配的条目。换个说法试试，或浏览下方的条目。", unavailable: "搜索暂时无法使用：{error}"))

    static let chineseTraditional = SiteStrings(
        skipToContent: "跳到正文", home: "首頁", symptomIndex: "症狀索引", feed: "訂閱",
        symptoms: "症狀", platforms: "平台", apis: "API", tags: "標籤", status: "狀態", updated: "更新",
        problem: "問題", attempts: "嘗試過的方案", fix: "最終方案", sideEffects: "副作用", lessons: "經驗教訓",
        references: "參考", related: "相關條目", notes: "備註", scenario: "檢查場景",
        checkResults: "檢查結果", lastCheck: "最近檢查", onThisPage: "本頁內容",
        failed: "失敗", partial: "部分有效", worked: "成功", rejected: "放棄", unknown: "無結果",
        resolved: "已解決", workaround: "有變通辦法", open: "未解決", copy: "複製", copied: "已複製",
        search: .init(label: "搜尋症狀、錯誤訊息和 API", button: "搜尋", oneResult: "1 筆結果", results: "{n} 筆結果",
                      noResults: "沒有符合「{q}」的條目。換個說法試試，或瀏覽下方的條目。", unavailable: "搜尋暫時無法使用：{error}"))

    static let korean = SiteStrings(
        skipToContent: "본문으로 건너뛰기", home: "홈", symptomIndex: "증상 색인", feed: "피드",
        symptoms: "증상", platforms: "플랫폼", apis: "API", tags: "태그", status: "상태", updated: "갱신",
        problem: "문제", attempts: "시도한 방법", fix: "해결 방법", sideEffects: "부작용", lessons: "교훈",
        references: "참고", related: "관련 항목", notes: "메모", scenario: "검사 시나리오",
        checkResults: "검사 결과", lastCheck: "마지막 검사", onThisPage: "이 페이지",
        failed: "실패", partial: "부분 성공", worked: "성공", rejected: "기각", unknown: "결과 없음",
        resolved: "해결됨", workaround: "우회책", open: "미해결", copy: "복사", copied: "복사됨",
        search: .init(label: "증상, 오류 메시지, API 검색", button: "검색", oneResult: "결과 1건", results: "결과 {n}건",
                      noResults: "‘{q}’에 해당하는 항목이 없습니다. 다른 단어로 검색하거나 아래 항목을 둘러보세요.", unavailable: "검색을 사용할 수 없습니다: {error}"))

    static let japanese = SiteStrings(
        skipToContent: "本文へ移動", home: "ホーム", symptomIndex: "症状索引", feed: "フィード",
        symptoms: "症状", platforms: "プラットフォーム", apis: "API", tags: "タグ", status: "状態", updated: "更新",
        problem: "問題", attempts: "試したこと", fix: "解決策", sideEffects: "副作用", lessons: "教訓",
        references: "参考", related: "関連エントリ", notes: "メモ", scenario: "チェックシナリオ",
        checkResults: "チェック結果", lastCheck: "最終チェック", onThisPage: "このページの内容",
        failed: "失敗", partial: "部分的", worked: "成功", rejected: "却下", unknown: "結果なし",
        resolved: "解決済み", workaround: "回避策あり", open: "未解決", copy: "コピー", copied: "コピーしました",
        search: .init(label: "症状・エラーメッセージ・API を検索", button: "検索", oneResult: "1 件", results: "{n} 件",
                      noResults: "「{q}」に一致するエントリはありません。別の言葉で試すか、下の一覧から探してください。", unavailable: "検索を利用できません: {error}"))
}
