import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

/// An input that makes `kb lint` report a rule: the files of a knowledge base root, and how
/// the root is linted.
struct LintRuleTrigger: Sendable {
    /// File contents by path under the root.
    var files: [String: [UInt8]] = [:]
    /// Folders to create (empty ones, or a folder where a file is expected).
    var folders: [String] = []
    /// Arguments after `kb lint --format json` (default: the root's entries folder).
    var arguments: [String] = []
    /// When set, the entries are linted by a `Linter` with these worlds instead of by `kb lint`
    /// (for rules the built-in worlds cannot produce).
    var worlds: [WorldType]? = nil

    /// An entry at `entries/<folder>/entry.md` (plus other files).
    static func entry(_ text: String, folder: String = "some-entry", also other: [String: String] = [:]) -> LintRuleTrigger {
        var files = ["entries/\(folder)/entry.md": Array(text.utf8)]
        for (path, content) in other { files[path] = Array(content.utf8) }
        return LintRuleTrigger(files: files)
    }

    /// A valid entry with extra front-matter lines and a body.
    static func valid(id: String = "some-entry", frontMatter: String = "", body: String = "Nothing here.",
                      scenario: String? = nil, also other: [String: String] = [:]) -> LintRuleTrigger {
        var files = other
        if let scenario { files["entries/\(id)/scenario.feature"] = scenario }
        return entry(validText(id: id, frontMatter: frontMatter, body: body), folder: id, also: files)
    }

    static func validText(id: String = "some-entry", frontMatter: String = "", body: String = "Nothing here.") -> String {
        "---\nid: \(id)\ntitle: Build fails\nlang: en\nsummary: s\nsymptoms: [the build fails]\nstatus: open\nupdated: 2026-01-01\n\(frontMatter)---\n\(body)\n"
    }

    static func configuration(_ yaml: String) -> LintRuleTrigger {
        var trigger = valid()
        trigger.files["kb.yaml"] = Array(yaml.utf8)
        return trigger
    }

    static func glossary(_ yaml: String) -> LintRuleTrigger {
        valid(also: ["entries/glossary.yaml": yaml])
    }

    static let oneMiB = 1 << 20
    static let attempt = "## Attempts\n\n### Attempt 1: clean\n\nResult: failed, still broken\n"
}

/// A world whose two steps both match `a red light`, for `ambiguous-step`.
final class AmbiguousLightWorld: World {
    static let worldName = "ambiguous-light"
    init(settings: WorldSettings) throws {}
    static let library = try! StepLibrary<AmbiguousLightWorld>(definitions: [
        StepDefinition(phrases: ["a {word} light"]) { _, _ in },
        StepDefinition(phrases: ["a red light"]) { _, _ in },
    ])
}

/// Every rule of the registry: documented, in docs/lint-rules.md, and produced by some input.
@Suite struct LintRuleTests {
    /// One input per rule that makes lint report it. A rule missing here fails the test below.
    static let triggers: [LintRule: LintRuleTrigger] = [
        .invalidUTF8: LintRuleTrigger(files: ["entries/some-entry/entry.md": Array(LintRuleTrigger.validText().utf8) + [0xFF]]),
        .bom: .entry("\u{FEFF}" + LintRuleTrigger.validText()),
        .nulByte: .valid(body: "a\u{0}b"),
        .fileTooLarge: .valid(body: String(repeating: "a", count: LintRuleTrigger.oneMiB)),
        .io: LintRuleTrigger(folders: ["entries/some-entry/entry.md"]),
        .frontMatter: .entry("# Build fails\n"),
        .frontMatterType: .entry("---\nid: some-entry\ntitle: [a, b]\nlang: en\nsummary: s\nsymptoms: [x]\nstatus: open\nupdated: 2026-01-01\n---\n"),
        .duplicateKey: .valid(frontMatter: "title: again\n"),
        .unknownKey: .valid(frontMatter: "colour: blue\n"),
        .missingKey: .entry("---\nid: some-entry\ntitle: t\nlang: en\nsymptoms: [x]\nstatus: open\nupdated: 2026-01-01\n---\n"),
        .invalidID: .entry(LintRuleTrigger.validText(id: "Some_Entry")),
        .idMismatch: .entry(LintRuleTrigger.validText(id: "other-entry")),
        .invalidLang: .entry(LintRuleTrigger.validText().replacingOccurrences(of: "lang: en", with: "lang: chinese")),
        .invalidStatus: .entry(LintRuleTrigger.validText().replacingOccurrences(of: "status: open", with: "status: done")),
        .invalidDate: .entry(LintRuleTrigger.validText().replacingOccurrences(of: "updated: 2026-01-01", with: "updated: 3/7/2026")),
        .noSymptoms: .entry(LintRuleTrigger.validText().replacingOccurrences(of: "symptoms: [the build fails]", with: "symptoms: []")),
        .unknownRelated: .valid(frontMatter: "related: [nowhere]\n"),
        .resolvedWithoutAttempts: .entry(LintRuleTrigger.validText(body: "## Fix\n\nClean the cache.")
            .replacingOccurrences(of: "status: open", with: "status: resolved")),
        .resolvedWithoutFix: .entry(LintRuleTrigger.validText(body: LintRuleTrigger.attempt)
            .replacingOccurrences(of: "status: open", with: "status: resolved")),
        .duplicateAttempt: .valid(body: LintRuleTrigger.attempt + "\n### Attempt 1: again\n\nResult: failed\n"),
        .unknownOutcome: .valid(body: "## Attempts\n\n### Attempt 1: clean\n\nResult: still broken\n"),
        .cjkEmphasis: .entry(LintRuleTrigger.validText(body: "**注意:**この設定").replacingOccurrences(of: "lang: en", with: "lang: ja")),
        .importTodo: .valid(body: "<!-- TODO(kb-import): no outcome word -->"),
        .draftTodo: .valid(body: "<!-- \(DraftTemplate.marker): the symptom -->"),
        .missingScenario: .valid(frontMatter: "scenario: missing.feature\n"),
        .pathOutside: .valid(frontMatter: "scenario: ../elsewhere.feature\n"),
        .scenarioUnreadable: .valid(scenario: "Feature: big\n" + String(repeating: "# padding\n", count: LintRuleTrigger.oneMiB / 10 + 1)),
        .scenarioParseError: .valid(scenario: "this is not Gherkin\n"),
        .unknownRecordTag: .valid(scenario: "Feature: f\n  @attempt-9\n  Scenario: s\n    When I run \"true\"\n"),
        .unknownWorld: .valid(scenario: "@world:nowhere\nFeature: f\n  Scenario: s\n    When I run \"true\"\n"),
        .undefinedStep: .valid(scenario: "Feature: f\n  Scenario: s\n    When nothing defines this step\n"),
        .ambiguousStep: {
            var trigger = LintRuleTrigger.valid(scenario: "@world:ambiguous-light\nFeature: f\n  Scenario: s\n    Given a red light\n")
            trigger.worlds = [.of(AmbiguousLightWorld.self)]
            return trigger
        }(),
        .attemptWithoutScenario: .valid(body: LintRuleTrigger.attempt, scenario: "Feature: f\n  Scenario: s\n    When I run \"true\"\n"),
        .missingEntryFile: {
            var trigger = LintRuleTrigger.valid()
            trigger.files["entries/notes/readme.txt"] = Array("not an entry".utf8)
            return trigger
        }(),
        .duplicateID: {
            var trigger = LintRuleTrigger.valid()
            trigger.files["more/some-entry/entry.md"] = Array(LintRuleTrigger.validText().utf8)
            trigger.arguments = ["entries", "more"]
            return trigger
        }(),
        .config: .configuration("check:\n  jobs: 0\n"),
        .configDuplicate: .configuration("languages: [ko, ko]\n"),
        .configUnknownKey: .configuration("site_name: Team KB\n"),
        .glossary: .glossary("concepts:\n  - en: [cache]\n"),
        .glossaryLanguage: .glossary("concepts:\n  - id: cache\n    fr: [cache]\n"),
        .glossaryDuplicate: .glossary("concepts:\n  - id: cache\n    en: [cache]\n  - id: cache\n    en: [caches]\n"),
        .glossaryTermConflict: .glossary("concepts:\n  - id: cache\n    en: [store]\n  - id: storage\n    en: [store]\n"),
    ]

    /// The diagnostics of linting a trigger's knowledge base.
    static func diagnostics(_ trigger: LintRuleTrigger) throws -> [(rule: String, severity: String, formatted: String)] {
        let root = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(root) }
        let fm = FileManager.default
        try fm.createDirectory(atPath: root + "/entries", withIntermediateDirectories: true)
        for folder in trigger.folders {
            try fm.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        for (path, bytes) in trigger.files {
            try fm.createDirectory(atPath: ((root + "/" + path) as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: root + "/" + path))
        }
        if let worlds = trigger.worlds {
            let loader = KnowledgeBaseLoader(workingDirectory: root, linter: Linter(entryRules: [ScenarioLinkRule(worlds: worlds)]))
            let found = try loader.load(paths: [root + "/entries"], options: .diagnosticsOnly).lintDiagnostics ?? []
            return found.map { ($0.rule.id, $0.severity.rawValue, $0.formatted) }
        }
        let result = TestSupport.kb(["lint", "--format", "json"] + trigger.arguments, in: root)
        #expect(result.code == 0 || result.code == 1, "kb lint: \(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "not JSON: \(result.stdout)")
        let list = try #require(report["diagnostics"] as? [[String: Any]])
        return list.map { d in
            let rule = d["rule"] as? String ?? "", severity = d["severity"] as? String ?? ""
            return (rule, severity, "\(d["path"] ?? ""): \(severity): \(d["message"] ?? "") [\(rule)]")
        }
    }

    @Test(arguments: LintRule.all)
    func everyRuleIsReportedBySomeInput(_ rule: LintRule) throws {
        let trigger = try #require(Self.triggers[rule], "no input in LintRuleTests.triggers makes lint report [\(rule.id)]")
        let found = try Self.diagnostics(trigger)
        let hit = found.first { $0.rule == rule.id }
        #expect(hit != nil, "[\(rule.id)] not reported; got \(found.map(\.formatted))")
        #expect(hit.map { $0.severity == rule.severity.rawValue } ?? true, "[\(rule.id)] reported as \(hit?.severity ?? "")")
    }

    @Test(arguments: LintRule.all)
    func everyRuleIsDocumented(_ rule: LintRule) {
        let documentation = rule.documentation
        #expect(rule.id.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" }, "ids are lower-case words joined by hyphens")
        #expect(documentation.summary.hasSuffix(".") && !documentation.summary.contains("\n"), "the summary is one sentence on one line")
        #expect(!documentation.summary.contains("|"), "the summary goes into a Markdown table")
        #expect(!documentation.details.isEmpty)
        #expect(LintRule(id: rule.id) == rule)
    }

    @Test func listRulesPrintsEveryRule() {
        let result = TestSupport.kb(["lint", "--list-rules"], in: "/")
        #expect(result.code == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == LintRule.all.count)
        for (line, rule) in zip(lines, LintRule.all) {
            #expect(line.hasPrefix(rule.id + " ") && line.hasSuffix(rule.summary), "\(line)")
        }
    }
}

/// docs/lint-rules.md is the catalogue's Markdown, byte for byte.
@Suite struct LintRuleReferenceTests {
    @Test func documentMatchesTheCatalogue() throws {
        let path = TestSupport.repositoryRoot + "/" + LintRuleReference.documentPath
        let markdown = LintRuleReference.markdown
        if TestSupport.isRecording {
            try markdown.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let committed = try? String(contentsOfFile: path, encoding: .utf8)
        try #require(committed != nil, "no \(LintRuleReference.documentPath); write it with KB_RECORD=1 swift test --filter LintRuleReferenceTests")
        #expect(committed == markdown, "\(LintRuleReference.documentPath) differs from the lint rule catalogue; re-record with KB_RECORD=1 swift test --filter LintRuleReferenceTests")
    }

    @Test func everyRuleHasASection() {
        let markdown = LintRuleReference.markdown
        for rule in LintRule.all {
            #expect(markdown.contains("\n### `\(rule.id)`\n"), "no section for \(rule.id)")
            #expect(markdown.contains("| [`\(rule.id)`](#\(rule.id)) | \(rule.severity.rawValue) |"), "no table row for \(rule.id)")
        }
    }
}

/// The id and date checks are plain byte checks: they accept what the patterns
/// `[a-z0-9]+(-[a-z0-9]+)*` and `[0-9]{4}-[0-9]{2}-[0-9]{2}` match, whole, and nothing else.
@Suite struct IdentifierAndDateCheckTests {
    /// The patterns, anchored at both ends of the text.
    static func matchesWhole(_ pattern: String, _ text: String) -> Bool {
        let regex = try! NSRegularExpression(pattern: "\\A(?:" + pattern + ")\\z")
        return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    static let texts = [
        "", "a", "-", "a-", "-a", "a--b", "a-b", "nav-bar-shadow-ios17", "0", "9-9", "A", "a_b", "a b", "a.b",
        "ab\n", "\nab", "ａｂ", "é", "大标题", "a-b-", "2024-11-17", "2024-1-17", "2024-11-170", "2024/11/17",
        "２０２４-１１-１７", "20241117", "2024-11-1", "----------", "abcd-ef-gh", "2024-11-17\n", " 2024-11-17",
    ]

    @Test(arguments: texts)
    func agreesWithThePatterns(_ text: String) {
        #expect(Linter.isWellFormedID(text) == Self.matchesWhole("[a-z0-9]+(-[a-z0-9]+)*", text), "id \(text.debugDescription)")
        #expect(Linter.isDayDate(text) == Self.matchesWhole("[0-9]{4}-[0-9]{2}-[0-9]{2}", text), "date \(text.debugDescription)")
    }

    @Test func namedCases() {
        #expect(Linter.isWellFormedID("nav-bar-shadow-ios17"))
        #expect(!Linter.isWellFormedID("nav--bar") && !Linter.isWellFormedID("-nav") && !Linter.isWellFormedID("nav-") && !Linter.isWellFormedID(""))
        #expect(!Linter.isWellFormedID("Nav-bar") && !Linter.isWellFormedID("nav-bar\n"))
        #expect(Linter.isDayDate("2024-11-17"))
        #expect(!Linter.isDayDate("2024-11-7") && !Linter.isDayDate("2024-11-17\n") && !Linter.isDayDate("２０２４-１１-１７"))
    }
}
