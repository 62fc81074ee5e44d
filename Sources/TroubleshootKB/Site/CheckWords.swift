/// What a check result means on an attempt card or the fix, in the page's language: a verdict of
/// the check report ("reproduces", "stale", …) read against what was recorded. A failed attempt
/// whose failure still reproduces is "failure confirmed" (never a green ✓ beside a failed
/// attempt); a worked attempt or the fix that still holds "works". One row per language.
struct CheckWords: Sendable {
    /// The recorded failure still happens.
    let failureConfirmed: String
    /// The recorded success still holds.
    let works: String
    /// The check no longer sees what was recorded.
    let stale: String
    let checkError: String
    let notChecked: String

    static let english = CheckWords(failureConfirmed: "failure confirmed", works: "works", stale: "no longer as recorded",
                                    checkError: "check error", notChecked: "not checked")
    static let rows: [(prefix: String, words: CheckWords)] = [
        ("zh-Hant", CheckWords(failureConfirmed: "失敗已重現", works: "有效", stale: "與記錄不符", checkError: "檢查出錯", notChecked: "未檢查")),
        ("zh", CheckWords(failureConfirmed: "失败已复现", works: "有效", stale: "与记录不符", checkError: "检查出错", notChecked: "未检查")),
        ("ko", CheckWords(failureConfirmed: "실패 재현됨", works: "동작함", stale: "기록과 다름", checkError: "검사 오류", notChecked: "검사 안 함")),
        ("ja", CheckWords(failureConfirmed: "失敗を再現", works: "動作する", stale: "記録と不一致", checkError: "チェックエラー", notChecked: "未チェック")),
        ("en", english),
    ]

    static func forLanguage(_ lang: String) -> CheckWords {
        rows.first { lang.hasPrefix($0.prefix) }?.words ?? english
    }

    /// The class (`check-…`, its mark from the style sheet) and the words for `verdict` on a
    /// record whose outcome was a failure (`recordedFailure`) or a success.
    func describe(_ verdict: String, recordedFailure: Bool) -> (className: String, text: String) {
        switch SiteCheckReport.verdictClass(verdict) {
        case "pass": recordedFailure ? ("confirmed", failureConfirmed) : ("pass", works)
        case "fail": ("fail", stale)
        case "error": ("error", checkError)
        case "skip": ("skip", notChecked)
        default: ("other", verdict)
        }
    }
}
