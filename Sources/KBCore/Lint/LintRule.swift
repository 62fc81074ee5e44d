/// A rule of `kb lint`: every diagnostic names one (`[missing-key]`). The cases are the one
/// registry of rules; what each means (severity, summary, documentation) is in
/// `LintRule+Catalogue.swift`, and `docs/lint-rules.md` is generated from it.
public enum LintRule: String, CaseIterable, Sendable, Codable, CustomStringConvertible {
    // The entry file
    case invalidUTF8 = "invalid-utf8"
    case bom
    case nulByte = "nul-byte"
    case fileTooLarge = "file-too-large"
    case io
    // Front matter
    case frontMatter = "front-matter"
    case frontMatterType = "front-matter-type"
    case duplicateKey = "duplicate-key"
    case unknownKey = "unknown-key"
    case missingKey = "missing-key"
    case invalidID = "invalid-id"
    case idMismatch = "id-mismatch"
    case invalidLang = "invalid-lang"
    case invalidStatus = "invalid-status"
    case invalidDate = "invalid-date"
    case noSymptoms = "no-symptoms"
    case unknownRelated = "unknown-related"
    // The body
    case resolvedWithoutAttempts = "resolved-without-attempts"
    case resolvedWithoutFix = "resolved-without-fix"
    case duplicateAttempt = "duplicate-attempt"
    case unknownOutcome = "unknown-outcome"
    case cjkEmphasis = "cjk-emphasis"
    case importTodo = "import-todo"
    case draftTodo = "draft-todo"
    // The check scenario
    case missingScenario = "missing-scenario"
    case pathOutside = "path-outside"
    case scenarioUnreadable = "scenario-unreadable"
    case scenarioParseError = "scenario-parse-error"
    case unknownRecordTag = "unknown-record-tag"
    case unknownWorld = "unknown-world"
    case undefinedStep = "undefined-step"
    case ambiguousStep = "ambiguous-step"
    case attemptWithoutScenario = "attempt-without-scenario"
    // The entries folder
    case missingEntryFile = "missing-entry-file"
    case duplicateID = "duplicate-id"
    // kb.yaml
    case config
    case configDuplicate = "config-duplicate"
    case configUnknownKey = "config-unknown-key"
    // The glossary
    case glossary
    case glossaryLanguage = "glossary-language"
    case glossaryDuplicate = "glossary-duplicate"
    case glossaryTermConflict = "glossary-term-conflict"

    /// Every rule, in the order the documentation lists them.
    public static var all: [LintRule] { allCases }

    /// The id shown in brackets and in `--format json` (`missing-key`).
    public var id: String { rawValue }

    /// The rule with this id, if there is one.
    public init?(id: String) { self.init(rawValue: id) }

    public var description: String { id }

    /// What the rule looks at, for grouping the documentation.
    public enum Area: String, CaseIterable, Sendable {
        case file = "The entry file"
        case frontMatter = "Front matter"
        case body = "The body"
        case scenario = "The check scenario"
        case entriesFolder = "The entries folder"
        case configuration = "kb.yaml"
        case glossary = "The glossary"
    }
}
