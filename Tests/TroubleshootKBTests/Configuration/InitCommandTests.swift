import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

/// `kb init`: a knowledge base whose examples lint clean under --strict, reproduce, and build.
@Suite struct InitCommandTests {
    @Test(arguments: StarterKnowledgeBase.languages)
    func exampleLintsCleanAndReproduces(_ language: String) throws {
        let directory = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(directory) }
        let created = TestSupport.kb(["init", "kb", "--lang", language], in: directory)
        #expect(created.code == 0, "\(created.stderr)")
        let root = directory + "/kb"
        let lint = TestSupport.kb(["lint", "--strict"], in: root)
        #expect(lint.code == 0, "\(lint.stdout)\(lint.stderr)")
        #expect(lint.stdout.contains("1 entry, 0 errors, 0 warnings"), "\(lint.stdout)")
        let check = TestSupport.kb(["check", "--format", "json"], in: root)
        #expect(check.code == 0, "\(check.stdout)\(check.stderr)")
        let report = try CheckReport.read(root + "/.kb/check-report.json")
        #expect(report.entries.count == 1)
        #expect(report.entries.first?.verdict == .reproduces, "\(check.stdout)")
        // The attempts and the fix are each checked by a scenario.
        let anchors = Set(report.entries.first?.attempts.map(\.anchor) ?? [])
        #expect(anchors == ["attempt-1", "attempt-2", "fix"], "\(anchors)")
    }

    /// The example's scenario can fail: claim the wrong order for the fix and the check turns stale.
    @Test func exampleTurnsStaleWhenItsClaimIsWrong() throws {
        let directory = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(directory) }
        #expect(TestSupport.kb(["init", "--lang", "en"], in: directory).code == 0)
        let file = directory + "/entries/example-sort-version-order/scenario.feature"
        let scenario = try String(contentsOfFile: file, encoding: .utf8)
        let fixStart = try #require(scenario.range(of: "@fix"))
        let wrong = scenario[..<fixStart.lowerBound] + scenario[fixStart.lowerBound...]
            .replacingOccurrences(of: "v1.2\n      v1.9\n      v1.10", with: "v1.10\n      v1.2\n      v1.9")
        #expect(wrong != scenario)
        try String(wrong).write(toFile: file, atomically: true, encoding: .utf8)
        let check = TestSupport.kb(["check"], in: directory)
        #expect(check.code == 1)
        let report = try CheckReport.read(directory + "/.kb/check-report.json")
        #expect(report.entries.first?.verdict == .stale, "\(check.stdout)")
    }

    @Test func everyLanguageTogether() throws {
        let directory = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(directory) }
        #expect(TestSupport.kb(["init", "--title", "Mobile team"], in: directory).code == 0)
        let lint = TestSupport.kb(["lint", "--strict"], in: directory)
        #expect(lint.stdout.contains("4 entries, 0 errors, 0 warnings"), "\(lint.stdout)\(lint.stderr)")
        let configuration = try String(contentsOfFile: directory + "/kb.yaml", encoding: .utf8)
        #expect(configuration.contains("title: \"Mobile team\""))
        #expect(configuration.contains("languages: [zh-Hans, ko, ja, en]"))
        for file in [".gitignore", ".github/workflows/kb.yml", "entries/glossary.yaml"] {
            #expect(FileManager.default.fileExists(atPath: directory + "/" + file), "\(file)")
        }
        let workflow = try String(contentsOfFile: directory + "/.github/workflows/kb.yml", encoding: .utf8)
        for step in ["kb lint --strict", "kb check --junit", "kb build"] { #expect(workflow.contains(step)) }
        // Searches in each language find the example in that language first.
        for (query, id) in [("版本号排序不对", "example-sort-version-order-zh"), ("버전 정렬", "example-sort-version-order-ko"),
                            ("並び順 おかしい", "example-sort-version-order-ja"), ("sort version numbers wrong order", "example-sort-version-order")] {
            let search = TestSupport.kb(["search", query, "--format", "json"], in: directory)
            #expect(search.stdout.contains("\"id\" : \"\(id)\""), "\(query)")
            let first = search.stdout.range(of: "\"id\" : \"").map { search.stdout[$0.upperBound...].prefix { $0 != "\"" } }
            #expect(first.map(String.init) == id, "\(query) → \(first ?? "")")
        }
        // The home page lists the languages in the configured order.
        #expect(TestSupport.kb(["build"], in: directory).code == 0)
        let home = try String(contentsOfFile: directory + "/_site/index.html", encoding: .utf8)
        let positions = ["lang-zh-hans", "lang-ko", "lang-ja", "lang-en"].compactMap { home.range(of: "id=\"\($0)\"")?.lowerBound }
        #expect(positions.count == 4 && positions == positions.sorted(), "languages out of order on the home page")
        #expect(home.contains("<title>Mobile team</title>"))
    }

    @Test func refusesToOverwrite() throws {
        let directory = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(directory) }
        TestSupport.write("title: Ours\n", to: directory + "/kb.yaml")
        let result = TestSupport.kb(["init"], in: directory)
        #expect(result.code == 1)
        #expect(result.stderr.contains("already has kb.yaml; nothing was written"), "\(result.stderr)")
        #expect(try String(contentsOfFile: directory + "/kb.yaml", encoding: .utf8) == "title: Ours\n")
        #expect(!FileManager.default.fileExists(atPath: directory + "/entries"), "a refused init wrote files")
    }

    /// A write that fails halfway (a file where the workflow's folder goes) takes back what was
    /// written, so that kb init can be run again once the way is clear.
    @Test func aFailedWriteTakesBackWhatWasWritten() throws {
        let directory = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(directory) }
        TestSupport.write("", to: directory + "/.github/workflows")
        let result = TestSupport.kb(["init"], in: directory)
        #expect(result.code == 1)
        #expect(result.stderr.contains(".github/workflows is a file, not a folder; nothing was written"), "\(result.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(left == [".github"], "\(left)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/.github") == ["workflows"])
        try FileManager.default.removeItem(atPath: directory + "/.github/workflows")
        #expect(TestSupport.kb(["init"], in: directory).code == 0)
        #expect(FileManager.default.fileExists(atPath: directory + "/.github/workflows/kb.yml"))
        #expect(TestSupport.kb(["lint"], in: directory).code == 0)
    }

    /// A new folder right under `/` (as root in a container: `kb init /kb`): every folder on
    /// the way is missing up to the root, which is a folder, not "a file in the way".
    @Test(.enabled(if: access("/", W_OK) == 0, "needs a writable / (runs as root)"))
    func newFolderUnderTheRoot() throws {
        let directory = "/kb-init-test-" + UUID().uuidString
        defer { TestSupport.remove(directory) }
        let result = TestSupport.kb(["init", directory + "/kb", "--lang", "en"], in: "/")
        #expect(result.code == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory + "/kb/kb.yaml"))
    }

    @Test func usageErrors() {
        #expect(TestSupport.kb(["init", "--lang", "fr"], in: "/").code == 64)
        #expect(TestSupport.kb(["init", "a", "b"], in: "/").code == 64)
        #expect(TestSupport.kb(["init", "--lang", "en,en"], in: "/").code == 64)
    }
}

/// `kb init` in folders that already hold things: a repository's .gitignore, another knowledge base.
@Suite struct InitCommandPlacementTests {
    @Test func addsToAnExistingGitignore() throws {
        let directory = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(directory) }
        TestSupport.write("node_modules/\n.kb/\n", to: directory + "/.gitignore")
        let result = TestSupport.kb(["init", "--lang", "en"], in: directory)
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout.contains(".gitignore (added _site/)"))
        let text = try String(contentsOfFile: directory + "/.gitignore", encoding: .utf8)
        #expect(text.hasPrefix("node_modules/\n.kb/\n") && text.hasSuffix("_site/\n"))
        #expect(text.components(separatedBy: ".kb/").count == 2, "a line already there is not added twice")
    }

    @Test func refusedInsideAnotherKnowledgeBasesEntries() {
        let directory = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(directory) }
        #expect(TestSupport.kb(["init", "--lang", "en"], in: directory).code == 0)
        let inside = TestSupport.kb(["init", "entries/inner"], in: directory)
        #expect(inside.code == 1)
        #expect(inside.stderr.contains("is inside the entries folder of the knowledge base at"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/entries/inner"))
        let nested = TestSupport.kb(["init", "docs/kb", "--lang", "en"], in: directory)
        #expect(nested.code == 0)
        #expect(nested.stderr.contains("note: docs/kb is inside the knowledge base at"))
    }

    @Test func rootOptionIsAUsageErrorWhereNoKnowledgeBaseIsUsed() {
        #expect(TestSupport.kb(["init", "--root", "/tmp"], in: "/").stderr.contains("kb init takes the folder as an argument"))
        #expect(TestSupport.kb(["render", "--root", "/tmp", "x.md"], in: "/").code == 64)
        #expect(TestSupport.kb(["--root"], in: "/").stderr.contains("missing value for '--root'"))
        #expect(TestSupport.kb(["--verbose", "help", "search"], in: "/").stdout.hasPrefix("OVERVIEW: Search entries"))
    }

    @Test func lintCountsKbYamlProblems() {
        let directory = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(directory) }
        #expect(TestSupport.kb(["init", "--lang", "en"], in: directory).code == 0)
        TestSupport.write("titel: Typo\n", to: directory + "/kb.yaml")
        let plain = TestSupport.kb(["lint"], in: directory)
        #expect(plain.code == 0)
        #expect(plain.stdout.contains("kb.yaml:1:1: warning: unknown setting 'titel'"), "\(plain.stdout)")
        let strict = TestSupport.kb(["lint", "--strict"], in: directory)
        #expect(strict.code == 1)
        #expect(strict.stdout.contains("kb.yaml:1:1: error: unknown setting 'titel'"))
        let json = TestSupport.kb(["lint", "--format", "json"], in: directory)
        #expect(json.stdout.contains("\"rule\" : \"config-unknown-key\""))
    }

    @Test func ejectGoesToTheRootsThemeFolder() throws {
        let directory = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(directory) }
        #expect(TestSupport.kb(["init", "--lang", "en"], in: directory).code == 0)
        let result = TestSupport.kb(["theme", "eject"], in: directory + "/entries")
        #expect(result.code == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory + "/theme/assets/style.css"))
        #expect(result.stdout.contains("Set 'theme: theme' in"))
    }
}

/// A knowledge base whose cache folder cannot be written (a read-only checkout without a
/// writable home; here KB_CACHE under a file, which even root cannot write): search answers from
/// an index built in memory, check shows its results and says the report could not be kept, and
/// kb index, whose job is to keep the index, fails naming the folder.
@Suite struct UnwritableCacheTests {
    @Test func searchCheckAndIndexWithoutACache() throws {
        let directory = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(directory) }
        #expect(TestSupport.kb(["init", "--lang", "en"], in: directory).code == 0)
        TestSupport.write("a file", to: directory + "/blocker")
        let environment = ["KB_CACHE": directory + "/blocker/cache"]

        let search = TestSupport.kb(["search", "sort version order"], in: directory, environment: environment)
        #expect(search.code == 0, "\(search.stderr)")
        #expect(search.stdout.contains("example-sort-version-order"))
        #expect(search.stderr.contains("built in memory, not saved (it cannot be written"), "\(search.stderr)")
        // And why: the file in the way.
        #expect(search.stderr.contains("warning: the search index cannot be saved: \(directory)/blocker is a file, not a folder [io]"), "\(search.stderr)")

        let index = TestSupport.kb(["index"], in: directory, environment: environment)
        #expect(index.code == 1)
        #expect(index.stderr.contains("Error: cannot write the search index in \(directory)/blocker/cache/index"), "\(index.stderr)")

        let check = TestSupport.kb(["check"], in: directory, environment: environment)
        #expect(check.code == 1)
        #expect(check.stdout.contains("1 entry checked: 1 reproduces"), "\(check.stdout)")
        #expect(check.stderr.contains("Error: cannot write the report"), "\(check.stderr)")
        #expect(!check.stderr.contains("NSCocoaErrorDomain"), "\(check.stderr)")
    }
}
