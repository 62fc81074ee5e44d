/// What a lint rule means: where it looks, its severity, a one-line summary, a short
/// explanation and, where it helps, what is wrong and what to write instead.
public struct LintRuleDocumentation: Sendable {
    public let area: LintRule.Area
    public let severity: Diagnostic.Severity
    public let summary: String
    public let details: String
    /// Markdown of the entry (or file) as reported, and as it passes; empty when there is none.
    public let bad: String
    public let good: String

    /// The fence language of the examples: settings and front-matter lines are YAML, whole
    /// entries Markdown.
    public var exampleLanguage: String {
        switch area {
        case .configuration, .glossary: "yaml"
        case .frontMatter: bad.hasPrefix("#") ? "markdown" : "yaml"
        default: "markdown"
        }
    }

    init(_ area: LintRule.Area, _ severity: Diagnostic.Severity, _ summary: String, _ details: String,
         bad: String = "", good: String = "") {
        self.area = area
        self.severity = severity
        self.summary = summary
        self.details = details
        self.bad = bad
        self.good = good
    }
}

extension LintRule {
    /// The severity a diagnostic of this rule has (`--strict` makes every one an error).
    public var severity: Diagnostic.Severity { documentation.severity }
    public var summary: String { documentation.summary }
    public var area: Area { documentation.area }

    /// The catalogue: one row per rule.
    public var documentation: LintRuleDocumentation {
        switch self {
        case .invalidUTF8: .init(.file, .error, "The file is not valid UTF-8.",
            "Entries, kb.yaml and the glossary are read as UTF-8; the diagnostic points at the first byte that is not. Convert the file (`iconv -f GB18030 -t UTF-8`) and save it again.")
        case .bom: .init(.file, .warning, "The file starts with a byte order mark.",
            "The mark is ignored, but some tools show it as a stray character. Save the file as UTF-8 without BOM.")
        case .nulByte: .init(.file, .error, "The file contains a NUL byte.",
            "A NUL byte is a sign of a binary or UTF-16 file saved as `entry.md`.")
        case .fileTooLarge: .init(.file, .error, "The entry file is larger than 1 MiB.",
            "Entries are read whole into memory and into the search index; a larger file is not read. Keep the excerpt of a long log or output that matters, not all of it.")
        case .io: .init(.file, .error, "The file cannot be read.",
            "The operating system refused to read it: permissions, or a folder where a file was expected.")
        case .frontMatter: .init(.frontMatter, .error, "The front matter is missing or is not valid YAML.",
            "An entry starts with a `---` line, a YAML mapping of keys, and a closing `---` line. Tabs cannot indent YAML.",
            bad: "# Build fails\n\nThe build fails.", good: "---\nid: build-fails\ntitle: Build fails\n...\n---\n\n# Build fails")
        case .frontMatterType: .init(.frontMatter, .error, "A front-matter key has a value of the wrong type.",
            "`title`, `summary` and the like are strings; `symptoms`, `tags` and `related` are lists of strings.",
            bad: "symptoms: the build fails", good: "symptoms:\n  - the build fails")
        case .duplicateKey: .init(.frontMatter, .error, "A front-matter key is written twice.",
            "YAML keeps only one of the values; say it once.")
        case .unknownKey: .init(.frontMatter, .warning, "The front matter has a key kb does not know.",
            "The key is kept but not used; it is often a misspelling (`sympton:`). See docs/entry-format.md for the keys.")
        case .missingKey: .init(.frontMatter, .error, "A required front-matter key is missing.",
            "Every entry has `id`, `title`, `lang`, `summary`, `status` and `updated`.")
        case .invalidID: .init(.frontMatter, .error, "The id is not lower-case words joined by hyphens.",
            "Ids are URLs and folder names: `[a-z0-9]+(-[a-z0-9]+)*`.",
            bad: "id: Build_Fails", good: "id: build-fails")
        case .idMismatch: .init(.frontMatter, .error, "The id differs from the entry's folder name.",
            "`entries/<id>/entry.md`: the folder is the id, so links and `kb show <id>` find the entry.")
        case .invalidLang: .init(.frontMatter, .error, "`lang` is not a language kb knows.",
            "The language decides the vocabulary of headings and labels: zh-Hans, zh-Hant, ko, ja or en.",
            bad: "lang: chinese", good: "lang: zh-Hans")
        case .invalidStatus: .init(.frontMatter, .error, "`status` is not resolved, workaround or open.",
            "The status is shown on every list and filters `kb list --status`.")
        case .invalidDate: .init(.frontMatter, .error, "`updated` is not a date written YYYY-MM-DD.",
            "Dates sort and compare as text, so they are written in full.",
            bad: "updated: 3/7/2026", good: "updated: 2026-03-07")
        case .noSymptoms: .init(.frontMatter, .error, "The entry has no symptom.",
            "Symptoms are what someone searching for the problem types: the error message, what they see.",
            bad: "symptoms: []", good: "symptoms:\n  - \"error: cannot find 'foo' in scope\"")
        case .unknownRelated: .init(.frontMatter, .error, "`related` names an entry that does not exist.",
            "Each item of `related` is the id (folder name) of another entry of the entries folder.")
        case .resolvedWithoutAttempts: .init(.body, .error, "A resolved entry has no attempts.",
            "A resolved entry records what was tried, as numbered attempt headings ('方案 1', '시도 1', '試行 1', 'Attempt 1').")
        case .resolvedWithoutFix: .init(.body, .error, "A resolved entry has no fix section.",
            "A resolved entry says what worked under a fix heading (最终方案 / 해결 방법 / 解決策 / Fix).")
        case .duplicateAttempt: .init(.body, .error, "Two attempts have the same number.",
            "Attempts are numbered once each; their anchors (`#attempt-2`) and scenario tags (`@attempt-2`) depend on it.",
            bad: "### Attempt 1: clean\n\n### Attempt 1: reinstall", good: "### Attempt 1: clean\n\n### Attempt 2: reinstall")
        case .unknownOutcome: .init(.body, .warning, "An attempt's result does not say how it ended.",
            "The result label starts with an outcome word: 失败/실패/失敗/failed, 部分/부분/部分的/partial, 成功/성공/worked, 放弃/기각/却下/rejected.",
            bad: "Result: still broken", good: "Result: failed, still broken")
        case .cjkEmphasis: .init(.body, .warning, "`**` or `__` next to CJK text stays literal.",
            "CommonMark does not open or close emphasis between punctuation and a letter without a space; cmark prints the asterisks. Move the punctuation outside the delimiters, or use `<strong>`.",
            bad: "**注意:**この設定", good: "**注意**:この設定")
        case .importTodo: .init(.body, .warning, "`kb import` left a question in the draft.",
            "A `<!-- TODO(kb-import): … -->` comment marks what the import could not tell (an outcome, a heading); answer it and remove the comment.")
        case .draftTodo: .init(.body, .warning, "A part of a `kb new` draft is still to write.",
            "`kb new` leaves a `<!-- TODO(kb-new): … -->` comment on each part; write the part and remove the comment.")
        case .missingScenario: .init(.scenario, .error, "The `scenario` key names a file that does not exist.",
            "The path is relative to the entry's folder.")
        case .pathOutside: .init(.scenario, .error, "A path leaves its folder.",
            "A `scenario` path or an entry reached through a symbolic link must stay inside the entry folder (or the entries folder); such files are not read.",
            bad: "scenario: ../other-entry/scenario.feature", good: "scenario: scenario.feature")
        case .scenarioUnreadable: .init(.scenario, .error, "The scenario file cannot be read.",
            "It is not a readable file, or it is larger than 1 MiB.")
        case .scenarioParseError: .init(.scenario, .error, "The scenario file is not valid Gherkin.",
            "See docs/scenario-language.md for the keywords in each language.")
        case .unknownRecordTag: .init(.scenario, .error, "A record tag names no record of the entry.",
            "`@attempt-<n>` links a scenario to attempt n and `@fix` to the fix section; the entry must have them.")
        case .unknownWorld: .init(.scenario, .error, "A `@world:` tag names no world.",
            "The worlds are `shell` (the default) and `navigation-bar-model`.")
        case .undefinedStep: .init(.scenario, .error, "No step definition matches a step.",
            "The steps each world understands are listed in docs/scenario-language.md.")
        case .ambiguousStep: .init(.scenario, .error, "Several step definitions match a step.",
            "A step must mean one thing; reword it so that one definition matches.")
        case .attemptWithoutScenario: .init(.scenario, .warning, "An attempt has no scenario in the entry's scenario file.",
            "When an entry has a scenario file, each attempt is checked by a scenario tagged `@attempt-<n>`.")
        case .missingEntryFile: .init(.entriesFolder, .warning, "A folder of the entries folder has no entry.md.",
            "Every folder under entries/ is an entry; a folder without entry.md is skipped.")
        case .duplicateID: .init(.entriesFolder, .error, "Two entries have the same id.",
            "Ids name pages and links; each entry has its own.")
        case .config: .init(.configuration, .error, "A setting of kb.yaml is not valid.",
            "The value has the wrong type or range, names a folder that does not exist, or the file is not one YAML mapping. See docs/configuration.md.",
            bad: "check:\n  jobs: 0", good: "check:\n  jobs: 2")
        case .configDuplicate: .init(.configuration, .warning, "A language is listed twice in `languages`.",
            "The second one is ignored.")
        case .configUnknownKey: .init(.configuration, .warning, "kb.yaml has a setting kb does not know.",
            "The setting is ignored; it is often a misspelling. The message lists the known ones.",
            bad: "site_name: Team KB", good: "title: Team KB")
        case .glossary: .init(.glossary, .error, "The glossary is not a valid list of concepts.",
            "entries/glossary.yaml is a mapping with a `concepts` list; each concept has an `id` and non-empty terms per language.",
            bad: "concepts:\n  - zh-Hans: [缓存]", good: "concepts:\n  - id: cache\n    zh-Hans: [缓存]\n    en: [cache]")
        case .glossaryLanguage: .init(.glossary, .error, "A concept has terms for a language kb does not know.",
            "Term lists are keyed by language tag: zh-Hans, zh-Hant, ko, ja, en.")
        case .glossaryDuplicate: .init(.glossary, .error, "A concept is defined twice, or a term is listed twice in it.",
            "A concept id used twice is an error; a term repeated within a concept is a warning.")
        case .glossaryTermConflict: .init(.glossary, .error, "A term belongs to two concepts.",
            "Search expands a term to its one concept; a term in two concepts would join unrelated entries.")
        }
    }
}
