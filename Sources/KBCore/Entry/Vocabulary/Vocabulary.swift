/// Kinds of body sections recognised from their headings.
public enum SectionKind: String, Sendable, Codable {
    case problem, attempts, fix, sideEffects, lessons, references, notes
}

/// Labels inside an attempt (`结果：`, `원인:`) or the fix.
public enum LabelKind: String, Sendable, Codable {
    case idea, result, failure, cause, fixStep, code
}

/// The words one language uses for an entry's structure. Adding a language is adding a
/// `Vocabulary` value to `Vocabulary.all`; the parser has no words of its own.
public struct Vocabulary: Sendable {
    /// BCP 47 tag of the language these words belong to.
    public let language: String
    /// Heading words per section kind.
    public let sections: [SectionKind: [String]]
    /// Words that, followed by a number, start an attempt heading (`方案`, `시도`, `Attempt`).
    public let attemptWords: [String]
    /// Label words for attempt parts and fix steps.
    public let labels: [LabelKind: [String]]
    /// Words that state an outcome after the result label.
    public let outcomes: [Outcome: [String]]
    /// Phrases that describe what happened without naming an outcome (`基本失效`, `적용 안 됨`,
    /// `still stops`). Only the importer reads them, to draft an outcome it then asks about.
    public let evidence: [OutcomeEvidence: [String]]
    /// What a reader of this language calls a text its writer gave no label: a symptom, or an
    /// attempt's part by its role (`증상`, `코드`). Search results show it beside the text.
    public let names: [TextName: String]
    /// `names` for a script of the language that writes them otherwise, by tag (`zh-Hant`:
    /// 症狀 and 程式碼 where `zh-Hans` has 症状 and 代码).
    public var namesByScript: [String: [TextName: String]] = [:]

    /// A kind of text that `names` names.
    public enum TextName: Hashable, Sendable {
        case symptom
        case part(PartRole)
    }

    /// The name of `text` in the language of `lang` (a BCP 47 tag; English for a language
    /// without a vocabulary).
    package static func name(_ text: TextName, forLanguage lang: String) -> String {
        names(forLanguage: lang)[text] ?? english.names[text] ?? ""
    }

    /// All the names of `lang`'s language (its script's, when it has its own).
    package static func names(forLanguage lang: String) -> [TextName: String] {
        let vocabulary = all.first { LanguageTag.matches(lang, range: $0.language) } ?? .english
        for (script, names) in vocabulary.namesByScript where LanguageTag.matches(lang, range: script) { return names }
        return vocabulary.names
    }

    /// Every language's vocabulary. Entries may mix languages, so all tables apply to all entries.
    public static let all: [Vocabulary] = [.chinese, .korean, .japanese, .english]
}
