import KBCore
import KBSearch
import KBScenarios
/// The language of a short phrase (a symptom), guessed from its script: any Hangul → Korean,
/// any Kana → Japanese, any Han → Chinese (Japanese in a Japanese entry: a phrase of kanji alone,
/// `濁点 分離`, is Japanese there), otherwise English. Good enough for search phrases, which are
/// short and written in one language (with Latin API names mixed in).
enum ScriptLanguage: String, CaseIterable, Sendable {
    case zh, ko, ja, en

    /// `entryLang`: the language tag of the entry the phrase is in (a Han-only phrase takes it
    /// when it is Japanese).
    static func detect(_ text: String, entryLang: String? = nil) -> ScriptLanguage {
        var hasHan = false
        for scalar in text.unicodeScalars {
            if CJKCharacter.isHangul(scalar) { return .ko }
            if CJKCharacter.isKana(scalar) { return .ja }
            if CJKCharacter.isHan(scalar) { hasHan = true }
        }
        guard hasHan else { return .en }
        return entryLang.map { LanguageTag.matches($0, range: "ja") } == true ? .ja : .zh
    }

    /// The `lang` attribute for a phrase of this language found in an entry written in
    /// `entryLang`: the entry's own tag when it is the same language (`zh-Hant` stays
    /// `zh-Hant`), otherwise the usual one.
    func htmlLang(entryLang: String) -> String {
        switch self {
        case .zh: return entryLang.hasPrefix("zh") ? entryLang : "zh-Hans"
        case .ko: return "ko"
        case .ja: return "ja"
        case .en: return "en"
        }
    }

    /// The group's heading, in its own language.
    var name: String {
        switch self {
        case .zh: return "中文"
        case .ko: return "한국어"
        case .ja: return "日本語"
        case .en: return "English"
        }
    }

    /// The order groups are shown in.
    static let displayOrder: [ScriptLanguage] = [.zh, .ko, .ja, .en]
}
