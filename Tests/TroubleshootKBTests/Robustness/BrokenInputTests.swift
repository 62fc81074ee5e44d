import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

/// One case of the broken-input corpus (Tests/TroubleshootKBTests/Robustness/Corpus/<name>/, or
/// generated at test time for the big ones) and what every command must say about it.
struct BrokenInputCase: Sendable, CustomTestStringConvertible {
    enum Import: Sendable {
        /// `kb import` is not meaningful for this case (the problem is not in the entry's text).
        case notApplicable
        /// The file makes a draft (exit 0).
        case drafts
        /// `kb import` refuses the file (exit 1) with a message containing this.
        case refused(String)
    }

    let name: String
    /// The file every diagnostic must name (relative to the knowledge base root).
    let file: String
    /// `:line:column` the diagnostic must give, where there is one.
    let location: String?
    /// What the diagnostic says (a rule id or words of the message).
    let says: String
    /// Lint errors: lint and build exit 1, the build writes nothing, the index is not saved.
    let isError: Bool
    /// The entry has a scenario: `kb check` runs it and exits 1.
    let checkFails: Bool
    /// What `kb check` must print besides the entry id (nil: only that it does not crash).
    let checkSays: String?
    let importExpectation: Import
    /// `--timeout` for `kb check`.
    let checkTimeout: Int
    /// Writes the case into a knowledge base root that already has `entries/good-entry`.
    let setup: @Sendable (_ root: String) throws -> Void

    var testDescription: String { name }

    init(_ name: String, file: String? = nil, location: String? = nil, says: String, isError: Bool = true,
         checkFails: Bool = false, checkSays: String? = nil, importExpectation: Import = .notApplicable, checkTimeout: Int = 20,
         setup: (@Sendable (String) throws -> Void)? = nil) {
        self.name = name
        self.file = file ?? "entries/\(name)/entry.md"
        self.location = location
        self.says = says
        self.isError = isError
        self.checkFails = checkFails
        self.checkSays = checkSays
        self.importExpectation = importExpectation
        self.checkTimeout = checkTimeout
        self.setup = setup ?? { root in try BrokenInputCorpus.copy(name, into: root) }
    }
}

enum BrokenInputCorpus {
    static let directory = TestSupport.repositoryRoot + "/Tests/TroubleshootKBTests/Robustness/Corpus"

    /// Copies `Corpus/<name>/<folder>` into `entries/`; `Corpus/<name>/_outside/*` goes to the
    /// knowledge base root (next to `entries/`, outside it).
    static func copy(_ name: String, into root: String) throws {
        let fm = FileManager.default
        let source = directory + "/" + name
        for item in try fm.contentsOfDirectory(atPath: source).sorted() {
            if item == "_outside" {
                for file in try fm.contentsOfDirectory(atPath: source + "/_outside") {
                    try fm.copyItem(atPath: source + "/_outside/" + file, toPath: root + "/" + file)
                }
            } else {
                try fm.copyItem(atPath: source + "/" + item, toPath: root + "/entries/" + item)
            }
        }
    }

    static func frontMatter(_ id: String) -> String {
        "---\nid: \(id)\ntitle: Generated case\nlang: en\nsummary: A generated case of the broken-input corpus.\nsymptoms:\n  - generated\nstatus: workaround\nupdated: 2026-11-29\n---\n\n"
    }

    static func write(_ text: String, _ path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    static let goodEntry = """
        ---
        id: good-entry
        title: A healthy entry
        lang: en
        summary: The entry that is always there.
        symptoms:
          - healthy symptom
        status: workaround
        updated: 2026-11-29
        ---

        # A healthy entry

        ## Problem

        Searching for healthy things finds this.

        """

    /// Every case of the issue, in its order, then regression cases for crashes found while
    /// hardening the parsers (and by the fuzzers, see docs/robustness.md).
    static let cases: [BrokenInputCase] = [
        BrokenInputCase("yaml-tabs", location: ":7:1", says: "invalid YAML in front matter", importExpectation: .drafts),
        BrokenInputCase("yaml-unclosed-quote", location: ":3:8", says: "invalid YAML in front matter", importExpectation: .drafts),
        BrokenInputCase("yaml-duplicate-keys", location: ":10:1", says: "duplicate key 'title'", importExpectation: .drafts),
        BrokenInputCase("yaml-wrong-types", location: ":3:8", says: "'title' must be a string, not a mapping", importExpectation: .drafts),
        BrokenInputCase("yaml-list-for-string", location: ":4:3", says: "'title' must be a string, not a list", importExpectation: .drafts),
        BrokenInputCase("missing-front-matter", location: ":1:1", says: "missing front matter", importExpectation: .drafts),
        BrokenInputCase("empty-file", location: ":1:1", says: "missing front matter", importExpectation: .refused("is empty")),
        BrokenInputCase("invalid-utf8", location: ":17:17", says: "not valid UTF-8", importExpectation: .refused(":17:17: not valid UTF-8")),
        BrokenInputCase("nul-bytes", location: ":17:13", says: "NUL byte", importExpectation: .refused(":17:13: the text contains a NUL byte")),
        BrokenInputCase("bom", location: ":1:1", says: "byte order mark", isError: false, importExpectation: .drafts),
        BrokenInputCase("crlf-line-endings", says: "", isError: false, importExpectation: .drafts),
        BrokenInputCase("huge-file-20mb", says: "entries must be at most 1 MiB", importExpectation: .refused("is larger than 1 MiB")) { root in
            let paragraph = "This paragraph repeats until the file is twenty megabytes long, with **emphasis**, `code` and [a link](https://example.com).\n\n"
            var text = frontMatter("huge-file-20mb")
            text.reserveCapacity(21 << 20)
            while text.utf8.count < 20 << 20 { text += paragraph }
            try write(text, root + "/entries/huge-file-20mb/entry.md")
        },
        BrokenInputCase("ten-thousand-attempts", says: "", isError: false, importExpectation: .drafts) { root in
            var text = frontMatter("ten-thousand-attempts") + "# Ten thousand attempts\n\n## Problem\n\nIt kept failing.\n\n## Attempts\n\n"
            for n in 1...10_000 { text += "### Attempt \(n): try number \(n)\n\nResult: failed, nothing changed.\n\n" }
            try write(text, root + "/entries/ten-thousand-attempts/entry.md")
        },
        BrokenInputCase("deep-nesting", says: "", isError: false, importExpectation: .drafts) { root in
            let depth = 10_000
            var text = frontMatter("deep-nesting") + "# Deeply nested\n\n## Problem\n\n"
            text += String(repeating: "- ", count: depth) + "a list item nested \(depth) levels deep\n\n"
            text += String(repeating: "> ", count: depth) + "a quote nested \(depth) levels deep\n\n"
            var indented = ""
            for level in 0..<300 { indented += String(repeating: "  ", count: level) + "- level \(level)\n" }
            text += indented + "\n"
            text += String(repeating: "[", count: depth) + "brackets" + String(repeating: "]", count: depth) + "\n\n"
            text += String(repeating: "*", count: depth) + "emphasis" + String(repeating: "*", count: depth) + "\n"
            try write(text, root + "/entries/deep-nesting/entry.md")
        },
        BrokenInputCase("id-with-dotdot", location: ":2:5", says: "id '../../escape' must match", importExpectation: .drafts),
        BrokenInputCase("scenario-outside-folder", location: ":10:11", says: "leaves the entry folder", checkFails: true,
                        checkSays: "leaves the entry folder"),
        BrokenInputCase("symlink-outside-entries", file: "entries/symlinked-entry/entry.md", says: "symbolic link points outside the entries folder",
                        checkFails: true, checkSays: "symbolic link points outside") { root in
            // An entry folder that is a link to a folder outside entries/, and an entry whose
            // scenario file is a link to a file outside it.
            try write(frontMatter("symlinked-entry") + "Secret text outside the entries folder.\n", root + "/outside/symlinked-entry/entry.md")
            try write("Feature: outside\n  Scenario: secret\n    When I run \"true\"\n", root + "/outside/secret.feature")
            try FileManager.default.createSymbolicLink(atPath: root + "/entries/symlinked-entry", withDestinationPath: "../outside/symlinked-entry")
            try write(frontMatter("symlinked-scenario") + "# Linked scenario\n", root + "/entries/symlinked-scenario/entry.md")
            try FileManager.default.createSymbolicLink(atPath: root + "/entries/symlinked-scenario/scenario.feature",
                                                       withDestinationPath: root + "/outside/secret.feature")
        },
        BrokenInputCase("duplicate-ids", file: "entries/duplicate-id-b/entry.md", location: ":2:5", says: "is also used by entries/duplicate-id-a/entry.md"),
        BrokenInputCase("unknown-related", location: ":11:5", says: "related entry 'entry-that-does-not-exist' does not exist"),
        BrokenInputCase("gherkin-unknown-language", file: "entries/gherkin-unknown-language/scenario.feature", location: ":1:1",
                        says: "Language not supported: xx-klingon", checkFails: true, checkSays: "xx-klingon"),
        BrokenInputCase("undefined-step", file: "entries/undefined-step/scenario.feature", location: ":4:5",
                        says: "no shell step matches 'I juggle three flaming torches'", checkFails: true, checkSays: "broken"),
        BrokenInputCase("shell-never-ends", says: "", isError: false, checkFails: true,
                        checkSays: "did not finish within 2 s; its process group was killed", checkTimeout: 2),
        BrokenInputCase("shell-prints-gigabytes", says: "", isError: false, checkFails: true, checkSays: "stale", checkTimeout: 60),
        BrokenInputCase("shell-forks", says: "", isError: false, checkFails: false, checkTimeout: 10) { root in
            try copy("shell-forks", into: root)
            let feature = root + "/entries/shell-forks/scenario.feature"
            let text = try String(contentsOfFile: feature, encoding: .utf8)
            try write(text.replacingOccurrences(of: "@MARKER@", with: root + "/fork-marker"), feature)
        },
    ] + regressions

    /// Inputs that crashed or exploded a parser before it was fixed.
    static let regressions: [BrokenInputCase] = [
        BrokenInputCase("yaml-deep-nesting", location: ":2:", says: "nested more than 64 levels deep", importExpectation: .drafts) { root in
            let text = "---\nid: " + String(repeating: "[", count: 50_000) + "\n---\n"
            try write(text, root + "/entries/yaml-deep-nesting/entry.md")
        },
        BrokenInputCase("yaml-alias-bomb", says: "too many aliases", importExpectation: .drafts) { root in
            var yaml = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
            for level in 1...9 {
                yaml += "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]\n"
            }
            try write("---\nid: yaml-alias-bomb\n" + yaml + "---\n", root + "/entries/yaml-alias-bomb/entry.md")
        },
    ]
}

@Suite("Broken input: clear error, exit code, nothing half-written", .serialized)
struct BrokenInputTests {
    struct Outcome {
        let code: Int32
        let output: String
    }

    static func kb(_ arguments: [String], root: String) -> Outcome {
        let result = TestSupport.kb(arguments, in: root, environment: ["KB_SITE": SiteTestSupport.assetsDirectory, "NO_COLOR": "1"])
        return Outcome(code: result.code, output: result.stdout + "\n" + result.stderr)
    }

    /// Files of a folder (the site, the index), by relative path.
    static func snapshot(_ folder: String) -> [String: Data] { SiteTestSupport.snapshot(folder) }

    static func staleFolders(_ root: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).filter { $0.hasPrefix("._site.") }
    }

    @Test("every case of the corpus through lint, build, check, search and import",
          arguments: BrokenInputCorpus.cases)
    func brokenInput(_ testCase: BrokenInputCase) throws {
        let root = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(root) }
        try BrokenInputCorpus.write(BrokenInputCorpus.goodEntry, root + "/entries/good-entry/entry.md")
        // The previous site and index, from the healthy knowledge base.
        let firstBuild = Self.kb(["build"], root: root)
        try #require(firstBuild.code == 0, "\(firstBuild.output)")
        let firstIndex = Self.kb(["index"], root: root)
        try #require(firstIndex.code == 0, "\(firstIndex.output)")
        let site = Self.snapshot(root + "/_site")
        let index = Self.snapshot(root + "/.kb/index")
        try #require(!site.isEmpty && !index.isEmpty)

        try testCase.setup(root)
        let named = testCase.file + (testCase.location ?? "")
        let code: Int32 = testCase.isError ? 1 : 0

        // lint
        let lint = Self.kb(["lint"], root: root)
        #expect(lint.code == code, "lint: \(lint.output)")
        if !testCase.says.isEmpty {
            #expect(lint.output.contains(named), "lint does not name \(named): \(lint.output)")
            #expect(lint.output.contains(testCase.says), "lint: \(lint.output)")
        } else {
            #expect(!lint.output.contains("error:"), "lint: \(lint.output)")
        }

        // build
        let build = Self.kb(["build"], root: root)
        #expect(build.code == code, "build: \(build.output)")
        if testCase.isError {
            #expect(build.output.contains(named), "build does not name \(named): \(build.output)")
            #expect(Self.snapshot(root + "/_site") == site, "a failed build changed the previous site")
        } else {
            #expect(FileManager.default.fileExists(atPath: root + "/_site/index.html"))
        }
        #expect(Self.staleFolders(root).isEmpty, "build left \(Self.staleFolders(root))")

        // search (and kb index): the errors are shown, the index on disk is kept
        let search = Self.kb(["search", "healthy"], root: root)
        #expect(search.output.contains("good-entry"), "search: \(search.output)")
        let reindex = Self.kb(["index"], root: root)
        #expect(reindex.code == code, "index: \(reindex.output)")
        if testCase.isError {
            #expect(search.output.contains(testCase.file), "search does not name \(testCase.file): \(search.output)")
            #expect(reindex.output.contains(named), "index does not name \(named): \(reindex.output)")
            #expect(Self.snapshot(root + "/.kb/index") == index, "the index on disk changed")
        }

        // check
        let check = Self.kb(["check", "--timeout", "\(testCase.checkTimeout)", "--report", root + "/.kb/check-report.json"], root: root)
        if testCase.checkFails {
            #expect(check.code == 1, "check: \(check.output)")
        }
        if let says = testCase.checkSays {
            #expect(check.output.contains(says), "check: \(check.output)")
        }
        #expect(Self.snapshot(root + "/.kb/index") == index || !testCase.isError)

        // import
        switch testCase.importExpectation {
        case .notApplicable:
            break
        case .drafts:
            let drafted = Self.kb(["import", testCase.file, "--id", "drafted-case"], root: root)
            #expect(drafted.code == 0, "import: \(drafted.output)")
        case .refused(let message):
            let refused = Self.kb(["import", testCase.file], root: root)
            #expect(refused.code == 1, "import: \(refused.output)")
            #expect(refused.output.contains(testCase.file), "import does not name \(testCase.file): \(refused.output)")
            #expect(refused.output.contains(message), "import: \(refused.output)")
        }
        #expect(!FileManager.default.fileExists(atPath: root + "/entries/drafted-case"), "import without --write wrote a file")

        // Nothing was written outside the knowledge base root's own folders.
        let top = Set((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
        #expect(top.isSubset(of: ["entries", "_site", ".kb", "outside", "outside.feature", "fork-marker"]), "\(top)")
        #expect(!FileManager.default.fileExists(atPath: root + "/escape"))
    }

    @Test("CRLF line endings parse like LF")
    func crlfParses() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: BrokenInputCorpus.directory + "/crlf-line-endings/crlf-line-endings/entry.md")))
        #expect(bytes.contains(0x0D))
        let result = EntryParser().parse(bytes: bytes, path: "entry.md", folderName: "crlf-line-endings")
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let entry = try #require(result.entry)
        #expect(entry.id == "crlf-line-endings")
        #expect(entry.metadata.tags == ["crlf", "windows"])
        #expect(entry.metadata.title == "Broken input case")
        #expect(entry.attempts.count == 1)
        #expect(entry.attempts.first?.outcome == .failed)
    }

    @Test("a shell scenario's forked children are killed with its process group")
    func forkedChildrenDie() throws {
        let root = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(root) }
        try BrokenInputCorpus.cases.first { $0.name == "shell-forks" }!.setup(root)
        let check = Self.kb(["check", "--timeout", "10", "--report", root + "/report.json"], root: root)
        #expect(check.code == 0, "\(check.output)")
        // The background child would touch the marker 2 s after its command returned.
        Thread.sleep(forTimeInterval: 3.5)
        #expect(!FileManager.default.fileExists(atPath: root + "/fork-marker"), "a forked child outlived its scenario")
        #expect(Self.processes(named: "sleep", argument: "100000").isEmpty, "a background sleep survived the scenario")
    }

    @Test("a shell scenario that never ends is killed at the time limit")
    func neverEndingIsKilled() throws {
        let root = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(root) }
        try BrokenInputCorpus.copy("shell-never-ends", into: root)
        let start = Date()
        let check = Self.kb(["check", "--timeout", "1", "--report", root + "/report.json"], root: root)
        #expect(check.code == 1)
        #expect(Date().timeIntervalSince(start) < 20)
        #expect(check.output.contains("did not finish within 1 s"), "\(check.output)")
        #expect(Self.processes(named: "sleep", argument: "86400").isEmpty, "the sleeping command survived")
    }

    @Test("a shell scenario that prints gigabytes keeps only the capped output")
    func gigabytesAreCapped() throws {
        let root = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(root) }
        try BrokenInputCorpus.copy("shell-prints-gigabytes", into: root)
        let check = Self.kb(["check", "--timeout", "120", "--format", "json", "--report", root + "/report.json"], root: root)
        #expect(check.code == 1)
        // Either all 2 GiB went through (the rest discarded at the cap) or the limit stopped it.
        #expect(check.output.contains("more bytes were discarded at the 1048576-byte limit") || check.output.contains("did not finish"),
                "\(check.output.prefix(3000))")
        #expect(check.output.utf8.count < 8 << 20, "the report holds \(check.output.utf8.count) bytes")
    }

    /// Live processes whose command line is exactly `name argument`.
    static func processes(named name: String, argument: String) -> [Int32] {
        let wanted = Data((name + "\0" + argument + "\0").utf8)
        var found: [Int32] = []
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry), let cmdline = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { continue }
            if cmdline == wanted { found.append(pid) }
        }
        return found
    }
}
