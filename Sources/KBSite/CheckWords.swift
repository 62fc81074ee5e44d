import KBCore
import KBSearch
import KBScenarios
/// What a check result means on an attempt card, the fix or the entry, in the page's language: a
/// verdict of the check report (`CheckVerdict`: reproduces, stale, …) read against what was recorded. A failed
/// attempt whose failure still reproduces is "failure confirmed" (never a green ✓ beside a failed
/// attempt); a worked attempt or the fix that still holds "works"; the entry whose records all
/// hold "as recorded". With the labels of the checks section. One row per language.
struct CheckWords: Sendable {
    /// The recorded failure still happens.
    let failureConfirmed: String
    /// The recorded success still holds.
    let works: String
    /// Every record the check looked at still holds (the entry's verdict, a scenario of no record).
    let asRecorded: String
    /// The check no longer sees what was recorded.
    let stale: String
    let checkError: String
    let notChecked: String
    /// The checks table's column heads: the record checked, what the check says, its message.
    let recordColumn: String
    let resultColumn: String
    let detailsColumn: String
    /// The row of a scenario linked to no record.
    let noRecord: String
    /// Before the model rules a scenario exercised.
    let rules: String
    /// "Checked against the <a>navigation-bar model</a> (rules NB-1, NB-3), not a device.":
    /// the text before the link, the link's text, the text before the rules, the text after them.
    let modelNote: (before: String, link: String, beforeRules: String, after: String)

    static let english = CheckWords(
        failureConfirmed: "failure confirmed", works: "works", asRecorded: "as recorded", stale: "no longer as recorded",
        checkError: "check error", notChecked: "not checked",
        recordColumn: "Record", resultColumn: "Result", detailsColumn: "Details", noRecord: "no linked record", rules: "Rules",
        modelNote: ("Checked against the ", "navigation-bar model", " (rules ", "), not a device."))
    static let rows: [(prefix: String, words: CheckWords)] = [
        ("zh-Hant", CheckWords(
            failureConfirmed: "失敗已重現", works: "有效", asRecorded: "與記錄一致", stale: "與記錄不符", checkError: "檢查出錯", notChecked: "未檢查",
            recordColumn: "記錄", resultColumn: "結果", detailsColumn: "說明", noRecord: "未關聯記錄", rules: "規則",
            modelNote: ("依據", "導覽列模型", "檢查（規則 ", "），並非在實機上。"))),
        ("zh", CheckWords(
            failureConfirmed: "失败已复现", works: "有效", asRecorded: "与记录一致", stale: "与记录不符", checkError: "检查出错", notChecked: "未检查",
            recordColumn: "记录", resultColumn: "结果", detailsColumn: "说明", noRecord: "未关联记录", rules: "规则",
            modelNote: ("依据", "导航栏模型", "检查（规则 ", "），并非在真机上。"))),
        ("ko", CheckWords(
            failureConfirmed: "실패 재현됨", works: "동작함", asRecorded: "기록과 같음", stale: "기록과 다름", checkError: "검사 오류", notChecked: "검사 안 함",
            recordColumn: "기록", resultColumn: "결과", detailsColumn: "설명", noRecord: "연결된 기록 없음", rules: "규칙",
            modelNote: ("", "내비게이션 바 모델", "로 검사했습니다(규칙 ", "). 실제 기기에서 검사한 것이 아닙니다."))),
        ("ja", CheckWords(
            failureConfirmed: "失敗を再現", works: "動作する", asRecorded: "記録どおり", stale: "記録と不一致", checkError: "チェックエラー", notChecked: "未チェック",
            recordColumn: "記録", resultColumn: "結果", detailsColumn: "詳細", noRecord: "対応する記録なし", rules: "ルール",
            modelNote: ("", "ナビゲーションバーのモデル", "でチェックしました（ルール ", "）。実機ではありません。"))),
        ("en", english),
    ]

    static func forLanguage(_ lang: String) -> CheckWords {
        rows.first { lang.hasPrefix($0.prefix) }?.words ?? english
    }

    /// The class (`check-…`, its mark from the style sheet) and the words for `verdict` on a
    /// record whose outcome was a failure (`recordedFailure` true) or a success (false), or on
    /// the entry or a scenario of no record (nil).
    func describe(_ verdict: CheckVerdict, recordedFailure: Bool?) -> (className: String, text: String) {
        switch verdict {
        case .reproduces:
            switch recordedFailure {
            case true?: ("confirmed", failureConfirmed)
            case false?: ("pass", works)
            case nil: ("pass", asRecorded)
            }
        case .stale: ("fail", stale)
        case .broken: ("error", checkError)
        case .skipped: ("skip", notChecked)
        }
    }
}
