import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

/// Finding the knowledge base as git finds a repository: --root, KB_ROOT, the working directory
/// and its parents, then the user's default_root.
@Suite struct RootDiscoveryTests {
    /// A knowledge base made by `kb init` (English example only) in a fresh temporary folder.
    static func makeKnowledgeBase() -> (parent: String, root: String) {
        let parent = TestSupport.temporaryDirectory()
        let root = parent + "/team-kb"
        let result = TestSupport.kb(["init", root, "--lang", "en"], in: parent)
        precondition(result.code == 0, result.stderr)
        return (parent, (root as NSString).resolvingSymlinksInPath)
    }

    @Test func walksUpToKbYaml() throws {
        let (parent, root) = Self.makeKnowledgeBase()
        defer { TestSupport.remove(parent) }
        let deep = root + "/entries/example-sort-version-order"
        let (found, diagnostics) = try KnowledgeBaseRoot.discover(workingDirectory: deep, environment: [:], explicit: nil)
        #expect(diagnostics.isEmpty)
        #expect(found.path == (root as NSString).standardizingPath)
        #expect(found.source == .discovered(marker: "kb.yaml"))
        #expect(found.entriesDirectory == found.path + "/entries")
    }

    @Test func entriesFolderWithoutKbYaml() throws {
        let parent = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(parent) }
        TestSupport.write(TestSupport.entry(id: "a", body: "# 测试\n"), to: parent + "/entries/a/entry.md")
        try FileManager.default.createDirectory(atPath: parent + "/entries/a/sub", withIntermediateDirectories: true)
        let (found, _) = try KnowledgeBaseRoot.discover(workingDirectory: parent + "/entries/a/sub", environment: [:], explicit: nil)
        #expect(found.path == (parent as NSString).standardizingPath)
        #expect(found.source == .discovered(marker: "entries/"))
        #expect(found.configurationFile == nil)
    }

    @Test func explicitRootThenEnvironmentThenUserConfiguration() throws {
        let (parent, root) = Self.makeKnowledgeBase()
        defer { TestSupport.remove(parent) }
        let elsewhere = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(elsewhere) }
        // --root wins over KB_ROOT.
        let (byOption, _) = try KnowledgeBaseRoot.discover(workingDirectory: elsewhere, environment: ["KB_ROOT": "/nonexistent"], explicit: root)
        #expect(byOption.source == .option)
        let (byEnvironment, _) = try KnowledgeBaseRoot.discover(workingDirectory: elsewhere, environment: ["KB_ROOT": root], explicit: nil)
        #expect(byEnvironment.source == .environment)
        #expect(byEnvironment.path == root)
        // The user's configuration is the last resort.
        let config = elsewhere + "/config"
        TestSupport.write("default_root: \(root)\n", to: config + "/kb/config.yaml")
        let (byUser, _) = try KnowledgeBaseRoot.discover(workingDirectory: elsewhere, environment: ["XDG_CONFIG_HOME": config], explicit: nil)
        #expect(byUser.source == .userConfiguration(path: config + "/kb/config.yaml"))
        #expect(byUser.path == root)
        // ~ is the home folder.
        let home = elsewhere + "/home"
        TestSupport.write("default_root: ~/kb\n", to: home + "/.config/kb/config.yaml")
        try FileManager.default.createSymbolicLink(atPath: home + "/kb", withDestinationPath: root)
        let (byHome, _) = try KnowledgeBaseRoot.discover(workingDirectory: elsewhere, environment: ["HOME": home], explicit: nil)
        #expect(byHome.source == .userConfiguration(path: home + "/.config/kb/config.yaml"))
        #expect((byHome.path as NSString).resolvingSymlinksInPath == root)
    }

    @Test func namedRootMustBeAKnowledgeBase() {
        let empty = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(empty) }
        #expect(throws: KBError.self) {
            _ = try KnowledgeBaseRoot.discover(workingDirectory: "/", environment: ["KB_ROOT": empty], explicit: nil)
        }
        #expect(throws: KBError.self) {
            _ = try KnowledgeBaseRoot.discover(workingDirectory: "/", environment: [:], explicit: empty + "/missing")
        }
    }

    // MARK: Through the command line

    @Test func searchFromASubfolder() {
        let (parent, root) = Self.makeKnowledgeBase()
        defer { TestSupport.remove(parent) }
        let result = TestSupport.kb(["search", "sort -V", "--verbose"], in: root + "/entries/example-sort-version-order")
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout.contains("example-sort-version-order"))
        #expect(result.stderr.contains("knowledge base: \(root) (found kb.yaml here or above the working directory)"))
        #expect(FileManager.default.fileExists(atPath: root + "/.kb/index"), "the index belongs to the root, not the working directory")
    }

    @Test func kbRootFromAnUnrelatedFolder() {
        let unrelated = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(unrelated) }
        let cache = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(cache) }
        let result = TestSupport.kb(["search", "大标题看不见"], in: unrelated,
                                    environment: ["KB_ROOT": TestSupport.repositoryRoot, "KB_CACHE": cache])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("1. large-title-custom-background"), "\(result.stdout)")
    }

    @Test func noKnowledgeBaseAnywhere() {
        let unrelated = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(unrelated) }
        for arguments in [["search", "大标题看不见"], ["lint"], ["build"], ["check"], ["list"]] {
            let result = TestSupport.kb(arguments, in: unrelated)
            #expect(result.code == 1, "\(arguments)")
            #expect(result.stderr.hasPrefix("Error: no knowledge base here or above; run kb init, or set KB_ROOT"), "\(arguments): \(result.stderr)")
        }
        // Commands that need no knowledge base still work.
        #expect(TestSupport.kb(["analyze", "大标题"], in: unrelated).code == 0)
        #expect(TestSupport.kb(["completions", "bash"], in: unrelated).code == 0)
    }

    @Test func rootBeforeTheSubcommand() {
        let (parent, root) = Self.makeKnowledgeBase()
        defer { TestSupport.remove(parent) }
        let result = TestSupport.kb(["--root", root, "--verbose", "list"], in: "/")
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout.contains("example-sort-version-order"))
        #expect(result.stderr.contains("(--root)"))
    }

    @Test func configurationErrorsStopTheCommand() {
        let (parent, root) = Self.makeKnowledgeBase()
        defer { TestSupport.remove(parent) }
        TestSupport.write("title: Team\ncheck:\n  jobs: zero\ncolour: blue\n", to: root + "/kb.yaml")
        let result = TestSupport.kb(["list"], in: root)
        #expect(result.code == 1)
        #expect(result.stderr.contains("kb.yaml:3:9: error: 'check.jobs' must be a whole number"), "\(result.stderr)")
        #expect(result.stderr.contains("kb.yaml:4:1: warning: unknown setting 'colour'"), "\(result.stderr)")
        // A warning alone does not stop it.
        TestSupport.write("title: Team\ncolour: blue\n", to: root + "/kb.yaml")
        let warned = TestSupport.kb(["list"], in: root)
        #expect(warned.code == 0, "\(warned.stderr)")
        #expect(warned.stderr.contains("kb.yaml:2:1: warning: unknown setting 'colour'"))
    }

    /// A folder kb.yaml names must exist; the error points at the value.
    @Test func namedFoldersMustExist() {
        let (parent, root) = Self.makeKnowledgeBase()
        defer { TestSupport.remove(parent) }
        TestSupport.write("title: Team\nentries: notes\ntheme: my-theme\n", to: root + "/kb.yaml")
        let result = TestSupport.kb(["list"], in: root)
        #expect(result.code == 1)
        #expect(result.stderr.contains("kb.yaml:2:10: error: 'entries' names notes, which is not a folder"), "\(result.stderr)")
        #expect(result.stderr.contains("kb.yaml:3:8: error: 'theme' names my-theme, which is not a folder"), "\(result.stderr)")
    }

    /// kb.yaml's entries, output and title are used by the commands.
    @Test func settingsReachTheCommands() throws {
        let (parent, root) = Self.makeKnowledgeBase()
        defer { TestSupport.remove(parent) }
        try FileManager.default.moveItem(atPath: root + "/entries", toPath: root + "/notes")
        TestSupport.write("title: \"Mobile <team> KB\"\nentries: notes\noutput: public\nbase_url: /kb/\n", to: root + "/kb.yaml")
        let lint = TestSupport.kb(["lint"], in: root)
        #expect(lint.code == 0, "\(lint.stdout)\(lint.stderr)")
        let build = TestSupport.kb(["build"], in: root + "/notes")
        #expect(build.code == 0, "\(build.stderr)")
        let home = try String(contentsOfFile: root + "/public/index.html", encoding: .utf8)
        #expect(home.contains("<title>Mobile &lt;team&gt; KB</title>"))
        #expect(!home.contains("<team>"))
        let sitemap = try String(contentsOfFile: root + "/public/sitemap.xml", encoding: .utf8)
        #expect(sitemap.contains("<loc>/kb/index.html</loc>"))
    }
}
