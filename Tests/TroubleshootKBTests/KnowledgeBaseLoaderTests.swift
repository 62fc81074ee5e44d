import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

/// `KnowledgeBaseLoader` is the one load pipeline: its ways of linting agree, the duplicate-id
/// rule is reported once, and its hook sees every entry in location order.
@Suite struct KnowledgeBaseLoaderTests {
    /// Entries folders whose lint results the loader's modes must agree on.
    struct Corpus: Sendable, CustomTestStringConvertible {
        let name: String
        let write: @Sendable (_ entries: String) -> Void
        var testDescription: String { name }
    }

    static let corpora = [
        Corpus(name: "two entries with one id") { entries in
            TestSupport.write(TestSupport.entry(id: "first", body: "## 问题\n\n一。\n"), to: entries + "/first/entry.md")
            TestSupport.write(TestSupport.entry(id: "first", body: "## 问题\n\n二。\n"), to: entries + "/second/entry.md")
        },
        Corpus(name: "an unknown related entry and a folder without entry.md") { entries in
            TestSupport.write(TestSupport.entry(id: "alone", related: ["missing"], body: "## 问题\n\n一。\n"), to: entries + "/alone/entry.md")
            TestSupport.write("", to: entries + "/empty/notes.txt")
        },
        Corpus(name: "a clean entry") { entries in
            TestSupport.write(TestSupport.entry(id: "clean", body: "## 问题\n\n一。\n"), to: entries + "/clean/entry.md")
        },
    ]

    @Test(arguments: corpora)
    func lintingWhileLoadingAndAfterAgree(_ corpus: Corpus) throws {
        let root = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(root) }
        corpus.write(root + "/entries")
        let loader = KnowledgeBaseLoader(workingDirectory: root, linter: .standard)
        let streamed = try #require(try loader.load(paths: [root + "/entries"], options: .diagnosticsOnly).lintDiagnostics)
        let kept = try loader.load(paths: [root + "/entries"], options: .linted)
        let unlinted = try loader.load(paths: [root + "/entries"])
        #expect(unlinted.lintDiagnostics == nil)
        #expect(kept.lintDiagnostics == streamed)
        #expect(unlinted.lint(with: .standard) == streamed)
        #expect(streamed.filter { $0.rule == .duplicateID }.count == (corpus.name == "two entries with one id" ? 1 : 0))
        #expect(kept.entries.count == unlinted.entries.count)
    }

    @Test func duplicateIDIsReportedOnceByLintAndBuild() throws {
        let root = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(root) }
        Self.corpora[0].write(root + "/entries")
        let lint = TestSupport.kb(["lint", "entries"], in: root)
        let build = TestSupport.kb(["build", "--out", root + "/site"], in: root)
        let rule = "[\(LintRule.duplicateID.id)]"
        #expect(lint.stdout.components(separatedBy: rule).count == 2, "\(lint.stdout)")
        #expect(build.code == 1 && (build.stdout + build.stderr).components(separatedBy: rule).count == 2, "\(build.stderr)")
    }

    @Test func hookRunsForEachEntryInLocationOrder() throws {
        let root = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(root) }
        for id in ["c-entry", "a-entry", "b-entry"] {
            TestSupport.write(TestSupport.entry(id: id, body: "## 问题\n\n一。\n"), to: root + "/entries/\(id)/entry.md")
        }
        let (locations, _) = try EntryLocator.locate([root + "/entries"], workingDirectory: root)
        let hook = EntryHook<String, String>(
            beforeReading: { location in location.folderName },
            afterParsing: { item, before in before + "→" + (item.entry?.id ?? "none") })
        let (loaded, extras) = KnowledgeBaseLoader(workingDirectory: root).load(locations, hook: hook)
        #expect(extras == ["a-entry→a-entry", "b-entry→b-entry", "c-entry→c-entry"])
        #expect(loaded.items.map(\.location.folderName) == ["a-entry", "b-entry", "c-entry"])
        #expect(loaded.knownIDs == ["a-entry", "b-entry", "c-entry"])
    }
}
