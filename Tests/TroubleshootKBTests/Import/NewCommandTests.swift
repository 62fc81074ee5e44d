import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

/// `kb new`: a draft per language that lints with warnings only (one per part to write) and
/// whose headings are recognised as problem, attempt 1 and fix.
@Suite struct NewCommandTests {
    static func knowledgeBase() -> String {
        let directory = TestSupport.temporaryDirectory()
        TestSupport.write("title: Test\n", to: directory + "/kb.yaml")
        try! FileManager.default.createDirectory(atPath: directory + "/entries", withIntermediateDirectories: true)
        return directory
    }

    @Test(arguments: DraftTemplate.languages)
    func draftLintsWithWarningsOnlyAndHasTheRecords(_ language: String) throws {
        let root = Self.knowledgeBase()
        defer { TestSupport.remove(root) }
        let created = TestSupport.kb(["new", "--lang", language, "toolbarColorScheme has no effect"], in: root)
        #expect(created.code == 0, "\(created.stderr)")
        #expect(created.stdout.contains("created entries/toolbar-color-scheme-has-no-effect/entry.md"))
        let lint = TestSupport.kb(["lint", "--format", "json"], in: root)
        #expect(lint.code == 0, "\(lint.stdout)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(lint.stdout.utf8)) as? [String: Any])
        #expect(report["errors"] as? Int == 0)
        let diagnostics = try #require(report["diagnostics"] as? [[String: Any]])
        let rules = Set(diagnostics.compactMap { $0["rule"] as? String })
        #expect(rules.isSubset(of: ["draft-todo", "unknown-outcome"]), "\(rules)")
        // One warning per part to write: summary, symptoms, environment, problem, idea, result, cause, fix, step, lessons, references.
        #expect(diagnostics.filter { $0["rule"] as? String == "draft-todo" }.count == 11)
        let entry = try #require(try KnowledgeBaseLoader(workingDirectory: root).load(paths: [root + "/entries"]).items.first?.entry)
        #expect(entry.metadata.lang == language)
        #expect(entry.problem != nil)
        #expect(entry.attempts.map(\.number.description) == ["1"])
        #expect(entry.fix != nil)
        #expect(entry.lessons != nil && entry.references != nil)
        // The scenario skeleton parses, links attempt 1 and the fix, and does not pass until written.
        let check = TestSupport.kb(["check", "--format", "json"], in: root)
        let checked = try CheckReport.read(root + "/.kb/check-report.json")
        #expect(checked.entries.first?.verdict == .stale, "\(check.stdout)")
        #expect(Set(checked.entries.first?.attempts.map(\.anchor) ?? []) == ["attempt-1", "fix"])
    }

    @Test func titleWithoutASCIIWordsNeedsAnID() {
        let root = Self.knowledgeBase()
        defer { TestSupport.remove(root) }
        let refused = TestSupport.kb(["new", "--lang", "ja", "ナビバーの下線が消えない"], in: root)
        #expect(refused.code == 1)
        #expect(refused.stderr.contains("an id takes at least two ASCII words of the title (or an API name); pass one with --id"), "\(refused.stderr)")
        let created = TestSupport.kb(["new", "--lang", "ja", "--id", "navbar-hairline", "ナビバーの下線が消えない"], in: root)
        #expect(created.code == 0, "\(created.stderr)")
        let text = try? String(contentsOfFile: root + "/entries/navbar-hairline/entry.md", encoding: .utf8)
        #expect(text?.contains("title: \"ナビバーの下線が消えない\"") == true)
        #expect(text?.contains("## 試したこと\n\n### 試行 1：…") == true)
    }

    @Test func neverOverwrites() throws {
        let root = Self.knowledgeBase()
        defer { TestSupport.remove(root) }
        #expect(TestSupport.kb(["new", "--id", "x-entry", "First title"], in: root).code == 0)
        try "edited\n".write(toFile: root + "/entries/x-entry/entry.md", atomically: true, encoding: .utf8)
        let again = TestSupport.kb(["new", "--id", "x-entry", "Second title"], in: root)
        #expect(again.code == 1)
        #expect(again.stderr.contains("already exists; not overwriting it"))
        #expect(try String(contentsOfFile: root + "/entries/x-entry/entry.md", encoding: .utf8) == "edited\n")
    }

    @Test func languageDefaultsToTheKnowledgeBasesFirst() throws {
        let root = Self.knowledgeBase()
        defer { TestSupport.remove(root) }
        TestSupport.write("languages: [ko, en]\n", to: root + "/kb.yaml")
        #expect(TestSupport.kb(["new", "Navigation bar hairline"], in: root).code == 0)
        let text = try String(contentsOfFile: root + "/entries/navigation-bar-hairline/entry.md", encoding: .utf8)
        #expect(text.contains("lang: ko") && text.contains("## 시도한 방법"))
        let scenario = try String(contentsOfFile: root + "/entries/navigation-bar-hairline/scenario.feature", encoding: .utf8)
        #expect(scenario.hasPrefix("# language: ko\n"))
    }

    /// kb.yaml's first language has no template (zh-Hant): the next one that has is used, and
    /// the note says so rather than switching silently.
    @Test func aLanguageWithoutATemplateIsNamed() throws {
        let root = Self.knowledgeBase()
        defer { TestSupport.remove(root) }
        TestSupport.write("languages: [zh-Hant, ko]\n", to: root + "/kb.yaml")
        let created = TestSupport.kb(["new", "Navigation bar hairline"], in: root)
        #expect(created.code == 0)
        #expect(created.stderr.contains("note: there is no zh-Hant template; the draft is in ko"), "\(created.stderr)")
        let text = try String(contentsOfFile: root + "/entries/navigation-bar-hairline/entry.md", encoding: .utf8)
        #expect(text.contains("lang: ko"))
    }

    @Test func fromFileIsImportWrite() throws {
        let root = Self.knowledgeBase()
        defer { TestSupport.remove(root) }
        TestSupport.write(ImportCommandTests.raw, to: root + "/raw.txt")
        let result = TestSupport.kb(["new", "--from", "raw.txt"], in: root, environment: ["KB_IMPORT_DATE": "2026-04-01"])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: root + "/entries/widget-shows-stale-values-after-saving/entry.md"))
    }

    @Test func usageErrors() {
        #expect(TestSupport.kb(["new"], in: "/").code == 64)
        #expect(TestSupport.kb(["new", "--lang", "fr", "Title"], in: "/").code == 64)
        #expect(TestSupport.kb(["new", "--id", "Bad Id", "Title"], in: "/").code == 64)
        #expect(TestSupport.kb(["new", "--from", "a.txt", "Title"], in: "/").code == 64)
    }
}
