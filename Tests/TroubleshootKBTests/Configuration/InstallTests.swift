import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

/// `make install` as a new user meets it: install into a prefix, then use the installed kb in a
/// folder with no site/ and nothing of this repository around it.
@Suite(.serialized) struct InstallTests {
    static let binary = KBBinaryLocator.locate(environment: ProcessInfo.processInfo.environment, repositoryRoot: TestSupport.repositoryRoot)
    static var hasBinary: Bool { binary != nil }

    struct Installed {
        let prefix: String
        let home: String
        var kb: String { prefix + "/bin/kb" }
        var environment: [String: String] { ["PATH": prefix + "/bin:/usr/bin:/bin", "HOME": home, "NO_COLOR": "1", "LANG": "C.UTF-8"] }

        func run(_ arguments: [String], in directory: String, extra: [String: String] = [:]) throws -> (code: Int32, stdout: String, stderr: String) {
            try ShellRunner.run(kb, arguments, environment: environment.merging(extra) { $1 }, in: directory)
        }
    }

    static func install(into directory: String) throws -> Installed {
        let prefix = directory + "/prefix"
        let result = try ShellRunner.run(TestSupport.repositoryRoot + "/scripts/install.sh", [prefix, binary!])
        #expect(result.code == 0, "\(result.stderr)")
        let home = directory + "/home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        return Installed(prefix: prefix, home: home)
    }

    @Test(.enabled(if: hasBinary, "no kb binary (swift build builds .build/debug/kb)"))
    func installedKbStartsAKnowledgeBaseFromScratch() throws {
        let directory = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(directory) }
        let installed = try Self.install(into: directory)
        for file in ["bin/kb", "share/bash-completion/completions/kb", "share/zsh/site-functions/_kb",
                     "share/fish/vendor_completions.d/kb.fish", "share/man/man1/kb.1"] {
            #expect(FileManager.default.fileExists(atPath: installed.prefix + "/" + file), "\(file) not installed")
        }
        let work = directory + "/work"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)

        let initialised = try installed.run(["init", "demo"], in: work)
        #expect(initialised.code == 0, "\(initialised.stderr)")
        #expect(!FileManager.default.fileExists(atPath: work + "/demo/site"))
        let entries = work + "/demo/entries"
        let lint = try installed.run(["lint"], in: entries)
        #expect(lint.code == 0, "\(lint.stdout)\(lint.stderr)")
        let search = try installed.run(["search", "sort -V"], in: entries)
        #expect(search.code == 0, "\(search.stderr)")
        #expect(search.stdout.contains("example-sort-version-order"), "\(search.stdout)")
        let check = try installed.run(["check"], in: entries)
        #expect(check.code == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("4 entries checked: 4 reproduces"), "\(check.stdout)")
        let build = try installed.run(["build"], in: work + "/demo")
        #expect(build.code == 0, "\(build.stderr)")

        // The same link checks as this repository's site.
        let site = work + "/demo/_site"
        #expect(SiteTestSupport.brokenLinks(in: site).isEmpty, "\(SiteTestSupport.brokenLinks(in: site))")
        #expect(FileManager.default.fileExists(atPath: site + "/assets/search-core.js"))
        // The check verdicts reached the pages.
        let page = try String(contentsOfFile: site + "/entries/example-sort-version-order.html", encoding: .utf8)
        #expect(page.contains("reproduces"), "the check report did not reach the entry page")
    }

    @Test(.enabled(if: hasBinary, "no kb binary (swift build builds .build/debug/kb)"))
    func installedKbEscapesWhatKbYamlSays() throws {
        let directory = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(directory) }
        let installed = try Self.install(into: directory)
        let title = "<img src=x onerror=alert(1)> & \"KB\""
        #expect(try installed.run(["init", "demo", "--lang", "en", "--title", title], in: directory).code == 0)
        let build = try installed.run(["build"], in: directory + "/demo")
        #expect(build.code == 0, "\(build.stderr)")
        for (path, data) in SiteTestSupport.snapshot(directory + "/demo/_site") where path.hasSuffix(".html") || path.hasSuffix(".xml") {
            let text = SiteTestSupport.text(data)
            #expect(!text.contains("<img src=x"), "\(path) carries the title unescaped")
        }
        let home = try String(contentsOfFile: directory + "/demo/_site/index.html", encoding: .utf8)
        #expect(home.contains("&lt;img src=x onerror=alert(1)&gt; &amp; &quot;KB&quot;"))
    }

    @Test(.enabled(if: hasBinary, "no kb binary (swift build builds .build/debug/kb)"))
    func installedKbFindsTheRootOrSaysWhy() throws {
        let directory = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(directory) }
        let installed = try Self.install(into: directory)
        let unrelated = directory + "/unrelated"
        try FileManager.default.createDirectory(atPath: unrelated, withIntermediateDirectories: true)
        let found = try installed.run(["search", "大标题看不见"], in: unrelated,
                                      extra: ["KB_ROOT": TestSupport.repositoryRoot, "KB_CACHE": directory + "/cache"])
        #expect(found.code == 0, "\(found.stderr)")
        #expect(found.stdout.hasPrefix("1. large-title-custom-background"), "\(found.stdout)")
        let missing = try installed.run(["search", "大标题看不见"], in: unrelated)
        #expect(missing.code == 1)
        #expect(missing.stderr.hasPrefix("Error: no knowledge base here or above; run kb init, or set KB_ROOT"), "\(missing.stderr)")
        // default_root in the user's configuration is the last resort.
        TestSupport.write("default_root: \(TestSupport.repositoryRoot)\n", to: installed.home + "/.config/kb/config.yaml")
        let byDefault = try installed.run(["search", "大标题看不见"], in: unrelated, extra: ["KB_CACHE": directory + "/cache"])
        #expect(byDefault.code == 0, "\(byDefault.stderr)")
    }

    @Test(.enabled(if: hasBinary && ShellRunner.available("bash"), "needs the kb binary and bash"))
    func installedBashCompletion() throws {
        let directory = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(directory) }
        let installed = try Self.install(into: directory)
        let script = installed.prefix + "/share/bash-completion/completions/kb"
        #expect(try ShellCompletionTests.bashComplete(["kb", "se"], script: script) == ["search", "serve"])
        #expect(try ShellCompletionTests.bashComplete(["kb", "search", "--l"], script: script).sorted() == ["--lang", "--limit"])
    }

    @Test(.enabled(if: hasBinary, "no kb binary (swift build builds .build/debug/kb)"))
    func uninstallRemovesWhatInstallWrote() throws {
        let directory = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(directory) }
        let installed = try Self.install(into: directory)
        TestSupport.write("keep\n", to: installed.prefix + "/bin/other-tool")
        let result = try ShellRunner.run(TestSupport.repositoryRoot + "/scripts/install.sh", ["--uninstall", installed.prefix])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: installed.kb))
        #expect(!FileManager.default.fileExists(atPath: installed.prefix + "/share/man/man1/kb.1"))
        #expect(FileManager.default.fileExists(atPath: installed.prefix + "/bin/other-tool"))
    }
}
