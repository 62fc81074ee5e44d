import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands
#if canImport(FoundationXML)
import FoundationXML
#endif

enum CheckTestSupport {
    /// The `kb` built beside the tests (`swift build --build-tests` builds it too).
    static var kbBinary: String? {
        KBBinaryLocator.locate(environment: ProcessInfo.processInfo.environment, repositoryRoot: TestSupport.repositoryRoot)
    }

    static var settings: WorldSettings {
        WorldSettings(kbBinary: kbBinary, timeout: 120, hostEnvironment: ProcessInfo.processInfo.environment)
    }

    static func has(_ program: String) -> Bool {
        Sandbox.resolve(program, path: Sandbox.path(host: ProcessInfo.processInfo.environment), directory: "/") != nil
    }

    /// Entry ids under `entries/` that have a scenario file.
    static var entriesWithScenarios: [String] {
        TestSupport.entryIDs.filter { FileManager.default.fileExists(atPath: TestSupport.entriesDirectory + "/" + $0 + "/scenario.feature") }
    }

    static func item(_ directory: String, _ id: String) throws -> KnowledgeBase.Item {
        let (locations, _) = try EntryLocator.locate([directory + "/" + id], workingDirectory: directory)
        return KnowledgeBaseLoader(workingDirectory: directory).load(locations).items[0]
    }

    /// A minimal entry with attempts 1 and 2 and a fix, and the given scenario.
    static func writeEntry(_ id: String, in entries: String, scenario: String?) {
        TestSupport.write(TestSupport.entry(id: id, lang: "en", body: """
            ## Problem

            It breaks.

            ### Attempt 1: first

            Result: failed. Still broken.

            ### Attempt 2: second

            Result: failed. Also broken.

            ## Fix

            Do it right.
            """), to: entries + "/" + id + "/entry.md")
        if let scenario { TestSupport.write(scenario, to: entries + "/" + id + "/scenario.feature") }
    }

    static let passingScenario = """
        Feature: trivial
          @attempt-1
          Scenario: one
            When I run "echo one"
            Then the output contains "one"
          @attempt-2
          Scenario: two
            When I run "sh -c 'echo two >&2; exit 3'"
            Then the exit status is 3
            And stderr contains "two"
          @fix
          Scenario: fix
            When I run "true"
            Then the output is empty
        """
}

@Suite(.serialized) struct EntryScenarioTests {
    /// Every entry with a scenario must still reproduce. A record may only fall short when it
    /// drives a `kb` command this build does not have yet (reported as broken), and skipping is
    /// allowed only for a missing program.
    @Test(arguments: CheckTestSupport.entriesWithScenarios)
    func entryReproduces(id: String) throws {
        let item = try CheckTestSupport.item(TestSupport.entriesDirectory, id)
        let result = EntryChecker(settings: CheckTestSupport.settings).check(item)
        if result.verdict == .skipped {
            print("note: \(id) skipped: \(result.reason ?? "")")
            #expect(result.reason?.contains("not installed") == true, "only a missing program may skip a check")
            return
        }
        for attempt in result.attempts where attempt.verdict != .reproduces {
            let message = attempt.message ?? ""
            if attempt.verdict == .broken, message.hasPrefix("the kb under test has no '"),
               let command = message.split(separator: "'").dropFirst().first {
                #expect(KBCommandLine.command(named: String(command)) == nil,
                        "'kb \(command)' exists now, so \(id) @\(attempt.anchor ?? "") must reproduce")
                print("note: \(id) @\(attempt.anchor ?? ""): \(message) (expected until it is merged)")
                continue
            }
            if attempt.verdict == .skipped {
                print("note: \(id) @\(attempt.anchor ?? "") skipped: \(message)")
                #expect(message.contains("not installed"))
                continue
            }
            Issue.record("\(id) @\(attempt.anchor ?? "?") \(attempt.verdict.rawValue): \(message)\n\(attempt.steps.filter { $0.status != .passed }.map { "\($0.text): \($0.status) \($0.message ?? "")" }.joined(separator: "\n"))")
        }
        #expect(!result.attempts.isEmpty)
        let entry = try #require(item.entry)
        let linked = Set(result.attempts.compactMap(\.anchor))
        #expect(linked == Set(RecordAnchor.records(of: entry).map(\.fragment)), "one scenario per attempt and one for the fix")
    }

    /// The same scenario with a changed expectation fails: the attempt it is linked to is stale.
    @Test(.enabled(if: CheckTestSupport.has("cmark"))) func changedExpectationIsStale() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(dir) }
        let id = "cmark-cjk-emphasis-punctuation"
        let source = TestSupport.entriesDirectory + "/" + id
        try FileManager.default.createDirectory(atPath: dir + "/entries", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: source, toPath: dir + "/entries/" + id)
        let scenario = dir + "/entries/" + id + "/scenario.feature"
        let original = try String(contentsOfFile: scenario, encoding: .utf8)
        // Attempt 3 says moving the punctuation outside makes it bold; assert the opposite.
        let changed = original.replacingOccurrences(of: "ならば標準出力に「<p>「<strong>強調</strong>」した</p>」が含まれる",
                                                    with: "ならば標準出力に「<strong>」が含まれない")
        #expect(changed != original)
        try changed.write(toFile: scenario, atomically: true, encoding: .utf8)
        let result = EntryChecker(settings: CheckTestSupport.settings).check(try CheckTestSupport.item(dir + "/entries", id))
        #expect(result.verdict == .stale)
        #expect(result.reason?.hasPrefix("attempt-3 no longer reproduces") == true, "\(result.reason ?? "")")
        let attempt3 = try #require(result.attempts.first { $0.anchor == "attempt-3" })
        #expect(attempt3.verdict == .stale)
        #expect(attempt3.message?.contains("contains \"<strong>\"") == true, "\(attempt3.message ?? "")")
        #expect(result.attempts.filter { $0.anchor != "attempt-3" }.allSatisfy { $0.verdict == .reproduces })
    }

    @Test func brokenAndMisTaggedScenarios() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(dir) }
        CheckTestSupport.writeEntry("bad-tag", in: dir + "/entries", scenario: """
            Feature: f
              @attempt-9
              Scenario: nine
                When I run "true"
            """)
        CheckTestSupport.writeEntry("bad-parse", in: dir + "/entries", scenario: "Feature: f\n  Scenario: s\n    Given x\n  @dangling\n")
        CheckTestSupport.writeEntry("needs-tool", in: dir + "/entries", scenario: """
            @requires:no-such-program-kb
            Feature: f
              @attempt-1
              Scenario: s
                When I run "no-such-program-kb"
            """)
        let checker = EntryChecker(settings: CheckTestSupport.settings)
        let badTag = checker.check(try CheckTestSupport.item(dir + "/entries", "bad-tag"))
        #expect(badTag.verdict == .broken)
        #expect(badTag.attempts.first?.message?.contains("names no record") == true)
        let badParse = checker.check(try CheckTestSupport.item(dir + "/entries", "bad-parse"))
        #expect(badParse.verdict == .broken)
        #expect(badParse.reason?.contains("scenario.feature:5:1") == true, "\(badParse.reason ?? "")")
        let needsTool = checker.check(try CheckTestSupport.item(dir + "/entries", "needs-tool"))
        #expect(needsTool.verdict == .skipped)
        #expect(needsTool.reason?.contains("requires no-such-program-kb, which is not installed") == true)
        #expect(needsTool.attempts.first?.steps.allSatisfy { $0.status == .skipped } == true, "never a silent pass")
    }
}

@Suite struct SandboxTests {
    func world(timeout: TimeInterval = 30, limit: Int = 1 << 20, host: [String: String] = ProcessInfo.processInfo.environment) throws -> ShellWorld {
        try ShellWorld(settings: WorldSettings(kbBinary: CheckTestSupport.kbBinary, timeout: timeout, outputLimit: limit, hostEnvironment: host))
    }

    @Test func timeoutKillsTheWholeProcessGroup() throws {
        let world = try world(timeout: 1)
        defer { world.tearDown() }
        let start = Date()
        #expect(throws: StepFailure.self) {
            try world.run("sh -c 'sleep 300 & echo $! > child.pid; sleep 300'")
        }
        #expect(Date().timeIntervalSince(start) < 10)
        #expect(world.last?.timedOut == true)
        let text = try String(contentsOfFile: world.work + "/child.pid", encoding: .utf8)
        let child = try #require(Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)))
        // The forked child must be gone too (at most a zombie waiting for its new parent).
        var alive = true
        for _ in 0..<50 {
            let state = (try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8))?
                .split(separator: ")").last?.split(separator: " ").first
            if state == nil || state == "Z" { alive = false; break }
            usleep(100_000)
        }
        #expect(!alive, "the background child \(child) survived the timeout")
    }

    @Test func backgroundChildrenDoNotOutliveACommand() throws {
        let world = try world(timeout: 20)
        defer { world.tearDown() }
        let start = Date()
        try world.run("sh -c 'sleep 300 & echo $! > child.pid; echo done'")
        #expect(Date().timeIntervalSince(start) < 10)
        #expect(world.last?.stdout == "done\n")
        let child = Int32(try String(contentsOfFile: world.work + "/child.pid", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))!
        usleep(300_000)
        let state = (try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8))?.split(separator: ")").last?.split(separator: " ").first
        #expect(state == nil || state == "Z")
    }

    @Test func outputIsCapped() throws {
        let world = try world(limit: 1 << 20)
        defer { world.tearDown() }
        try world.run("sh -c 'head -c 3000000 /dev/zero | tr \"\\\\0\" x; echo tail >&2'")
        let last = try #require(world.last)
        #expect(last.stdout.utf8.count == 1 << 20)
        #expect(last.stdoutDiscarded == 3_000_000 - (1 << 20))
        #expect(last.stderr == "tail\n")
        #expect(last.exitStatus == 0)
        #expect(world.excerpt(.stdout).contains("bytes were discarded at the 1048576-byte limit"))
    }

    @Test func environmentIsScrubbed() throws {
        var host = ProcessInfo.processInfo.environment
        host["KB_TEST_SECRET_TOKEN"] = "hunter2"
        host["AWS_SECRET_ACCESS_KEY"] = "also-secret"
        host["PATH"] = "/tmp/evil:" + (host["PATH"] ?? "/usr/bin")
        let world = try world(host: host)
        defer { world.tearDown() }
        try world.run("env")
        let output = try #require(world.last?.stdout)
        #expect(!output.contains("hunter2") && !output.contains("also-secret"))
        #expect(!output.contains("/tmp/evil"))
        #expect(output.contains("HOME=\(world.home)\n"))
        #expect(output.contains("LANG=C.UTF-8\n"))
        let variables = Set(output.split(separator: "\n").compactMap { $0.split(separator: "=").first.map(String.init) })
        #expect(variables.isSubset(of: ["PATH", "HOME", "TMPDIR", "LANG", "LC_ALL", "TERM", "NO_COLOR", "TZ", "PWD"]), "\(variables)")
        try world.run("pwd")
        #expect(world.last?.stdout == world.work + "\n")
    }

    @Test func standardInputFromADocString() throws {
        let world = try world()
        defer { world.tearDown() }
        try world.run("cat", stdin: "第一行\n第二行")
        #expect(world.last?.stdout == "第一行\n第二行\n")
        try world.run("cat")
        #expect(world.last?.stdout == "", "no input unless the step gives one")
    }

    @Test func argvIsSplitWithoutAShell() throws {
        #expect(try ShellWords.split("echo 'a b' \"c \\\"d\\\"\" e\\ f $HOME") == ["echo", "a b", "c \"d\"", "e f", "$HOME"])
        #expect(throws: ShellWords.Error.self) { try ShellWords.split("echo 'open") }
        let world = try world()
        defer { world.tearDown() }
        try world.run("echo $HOME '*' ;")
        #expect(world.last?.stdout == "$HOME * ;\n", "no expansion, no globbing, no command separators")
        #expect(throws: StepFailure.self) { try world.writeFile("../escape.txt", "x") }
    }
}

@Suite struct CheckReportTests {
    static func sampleReport() -> CheckReport {
        let step = StepReport(keyword: "Then", text: "the output contains \"<b>\"", status: .failed, message: "missing <b> & \"quotes\"\nline 2", line: 7)
        return CheckReport(checkedAt: "2026-11-29T10:00:00Z", entries: [
            EntryCheck(id: "a-entry", verdict: .stale, reason: "attempt-1 no longer reproduces", checkedAt: "2026-11-29T10:00:00Z",
                       scenarioFile: "entries/a-entry/scenario.feature", attempts: [
                AttemptCheck(anchor: "attempt-1", scenario: "one <&> \"two\"", verdict: .stale, message: "missing <b> & \"quotes\"", line: 3, steps: [step], rules: []),
                AttemptCheck(anchor: "fix", scenario: "fix", verdict: .reproduces, message: nil, line: 9, steps: [], rules: []),
            ]),
            EntryCheck(id: "b-entry", verdict: .skipped, reason: "requires cmark", checkedAt: "2026-11-29T10:00:00Z", scenarioFile: nil, attempts: [
                AttemptCheck(anchor: "attempt-1", scenario: "s", verdict: .skipped, message: "requires cmark, which is not installed", line: 3, steps: [], rules: []),
            ]),
        ])
    }

    @Test func junitParsesBackWithXMLParser() throws {
        let xml = Self.sampleReport().junitXML()
        final class Collector: NSObject, XMLParserDelegate {
            var elements: [(String, [String: String])] = []
            var text = ""
            func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
                elements.append((name, attributes))
            }
            func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
        }
        let collector = Collector()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = collector
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")\n\(xml)")
        let names = collector.elements.map(\.0)
        #expect(names == ["testsuites", "testsuite", "testcase", "failure", "testcase", "testsuite", "testcase", "skipped"])
        #expect(collector.elements[0].1["failures"] == "1" && collector.elements[0].1["tests"] == "3")
        #expect(collector.elements[1].1["name"] == "a-entry")
        #expect(collector.elements[2].1["name"] == "one <&> \"two\"")
        #expect(collector.elements[2].1["classname"] == "a-entry.attempt-1")
        #expect(collector.elements[3].1["message"] == "missing <b> & \"quotes\"")
        #expect(collector.elements[3].1["type"] == "stale")
        #expect(collector.text.contains("line 7: Then the output contains \"<b>\" — failed: missing <b> & \"quotes\"\nline 2"))
        #expect(collector.elements[7].1["message"] == "requires cmark, which is not installed")

        let document = try XMLDocument(xmlString: xml)
        #expect(try document.nodes(forXPath: "//testcase").count == 3)
        #expect(try document.nodes(forXPath: "//testsuite[@name='b-entry']/testcase/skipped").count == 1)
    }

    @Test func escapingDropsCharactersXMLCannotHold() {
        #expect(CheckReport.escape("a\u{1}b<") == "a\u{FFFD}b&lt;")
    }

    @Test func jsonRoundTripAndMerge() throws {
        let report = Self.sampleReport()
        let decoded = try JSONDecoder().decode(CheckReport.self, from: try report.jsonData())
        #expect(decoded == report)
        let object = try #require(try JSONSerialization.jsonObject(with: try report.jsonData()) as? [String: Any])
        #expect(object["schemaVersion"] as? Int == 1)
        let entries = try #require(object["entries"] as? [[String: Any]])
        let attempts = try #require(entries[0]["attempts"] as? [[String: Any]])
        #expect(Set(attempts[0].keys).isSuperset(of: ["anchor", "scenario", "verdict", "message", "steps", "rules"]))
        #expect(attempts[1]["message"] == nil, "absent message is left out")

        let later = CheckReport(checkedAt: "2026-11-30T00:00:00Z", entries: [
            EntryCheck(id: "a-entry", verdict: .reproduces, reason: nil, checkedAt: "2026-11-30T00:00:00Z", scenarioFile: nil, attempts: []),
            EntryCheck(id: "0-first", verdict: .reproduces, reason: nil, checkedAt: "2026-11-30T00:00:00Z", scenarioFile: nil, attempts: []),
        ])
        let merged = CheckReport.merge([report, later])
        #expect(merged.entries.map(\.id) == ["0-first", "a-entry", "b-entry"])
        #expect(merged.entries[1].verdict == .reproduces, "a later report wins for the same entry")
        #expect(merged.checkedAt == "2026-11-30T00:00:00Z")
    }

    @Test func shardsPartitionEntriesStably() {
        let ids = (0..<200).map { "entry-\($0)" }
        let shards = (1...3).map { Shard(index: $0, count: 3) }
        for id in ids { #expect(shards.filter { $0.contains(id) }.count == 1) }
        for shard in shards { #expect(ids.filter(shard.contains).count > 40, "roughly a third each") }
        #expect(Shard.hash("a") == 0xaf63_dc4c_8601_ec8c, "FNV-1a 64")
        #expect(Shard("2/3") == Shard(index: 2, count: 3))
        for bad in ["0/3", "4/3", "1/0", "x/2", "1", "1/2/3"] { #expect(Shard(bad) == nil) }
    }
}

@Suite(.serialized) struct CheckCommandTests {
    @Test func shardAndMergeRoundTrip() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(dir) }
        let ids = (1...6).map { "entry-\($0)" }
        for id in ids { CheckTestSupport.writeEntry(id, in: dir + "/entries", scenario: CheckTestSupport.passingScenario) }
        CheckTestSupport.writeEntry("no-scenario", in: dir + "/entries", scenario: nil)

        let full = TestSupport.kb(["check", "--format", "json", "--jobs", "4"], in: dir)
        #expect(full.code == 0, "\(full.stdout)\(full.stderr)")
        let fullReport = try JSONDecoder().decode(CheckReport.self, from: Data(full.stdout.utf8))
        #expect(fullReport.entries.map(\.id) == ids, "only entries with a scenario file")
        #expect(fullReport.entries.allSatisfy { $0.verdict == .reproduces })
        #expect(FileManager.default.fileExists(atPath: dir + "/.kb/check-report.json"))

        var shardIDs: [[String]] = []
        for k in 1...2 {
            let run = TestSupport.kb(["check", "--shard", "\(k)/2", "--report", "shard-\(k).json"], in: dir)
            #expect(run.code == 0, "\(run.stdout)\(run.stderr)")
            shardIDs.append(try CheckReport.read(dir + "/shard-\(k).json").entries.map(\.id))
        }
        #expect(Set(shardIDs[0]).isDisjoint(with: shardIDs[1]))
        let merged = TestSupport.kb(["check", "--merge", "shard-1.json", "shard-2.json", "--format", "json", "--junit", "out/junit.xml"], in: dir)
        #expect(merged.code == 0, "\(merged.stderr)")
        let mergedReport = try JSONDecoder().decode(CheckReport.self, from: Data(merged.stdout.utf8))
        #expect(mergedReport.entries.map(\.id) == ids)
        #expect(mergedReport.entries.map(\.attempts) == fullReport.entries.map { $0.attempts })
        let junit = try String(contentsOfFile: dir + "/out/junit.xml", encoding: .utf8)
        #expect(try XMLDocument(xmlString: junit).nodes(forXPath: "//testcase").count == 18)
    }

    @Test func textOutputExitCodesAndExplain() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(dir) }
        CheckTestSupport.writeEntry("good-one", in: dir + "/entries", scenario: CheckTestSupport.passingScenario)
        CheckTestSupport.writeEntry("stale-one", in: dir + "/entries", scenario: CheckTestSupport.passingScenario.replacingOccurrences(of: "exit status is 3", with: "exit status is 0"))
        let text = TestSupport.kb(["check"], in: dir)
        #expect(text.code == 1)
        #expect(text.stdout.contains("good-one   ") && text.stdout.contains("reproduces  ✓ attempt-1  ✓ attempt-2  ✓ fix"), "\(text.stdout)")
        #expect(text.stdout.contains("stale-one: stale — attempt-2 no longer reproduces: 'sh -c 'echo two >&2; exit 3'' exited with 3, expected 0"), "\(text.stdout)")
        #expect(text.stdout.contains("2 entries checked: 1 reproduces, 1 stale"))
        #expect(!text.stdout.contains("\u{1B}["))
        #expect(TestSupport.kb(["check", "good-one"], in: dir).code == 0)
        #expect(TestSupport.kb(["check", "-j", "2", "good-one"], in: dir).code == 0)
        #expect(TestSupport.kb(["check", "--jobs", "0"], in: dir).code == 64, "--jobs is read under its long name")
        let explain = TestSupport.kb(["check", "--explain", "stale-one"], in: dir)
        #expect(explain.code == 1)
        #expect(explain.stdout.contains("✗ Then the exit status is 0  (line 9) [failed]"), "\(explain.stdout)")
        #expect(explain.stdout.contains("- And stderr contains \"two\"  (line 10) [skipped]"))
        #expect(TestSupport.kb(["check", "nope"], in: dir).code == 1)
        #expect(TestSupport.kb(["check", "--shard", "3/2"], in: dir).code == 64)
        #expect(TestSupport.kb(["check", "--merge"], in: dir).code == 64)
    }

    @Test func scenarioParseCommand() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(dir) }
        TestSupport.write("# language: zh-CN\n功能: 测试\n  场景: 一\n    假如文件「a」的内容为：\n      \"\"\"\n      x\n      \"\"\"\n", to: dir + "/a.feature")
        let good = TestSupport.kb(["scenario", "parse", "a.feature"], in: dir)
        #expect(good.code == 0, "\(good.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(good.stdout.utf8)) as? [String: Any])
        let pickle = try #require(object["pickle"] as? [String: Any])
        #expect(pickle["uri"] as? String == "a.feature")
        #expect((pickle["steps"] as? [[String: Any]])?.first?["text"] as? String == "文件「a」的内容为：")
        TestSupport.write("Feature: f\n  Scenario: s\n  @dangling\n", to: dir + "/bad.feature")
        let bad = TestSupport.kb(["scenario", "parse", "bad.feature"], in: dir)
        #expect(bad.code == 1)
        #expect(bad.stdout.hasPrefix("{\"parseError\":"))
        // A file that cannot be read is a failure (exit 1) that names the file, not a parse error.
        let missing = TestSupport.kb(["scenario", "parse", "missing.feature"], in: dir)
        #expect(missing.code == 1)
        #expect(missing.stdout.isEmpty && missing.stderr.contains("Error: missing.feature: cannot read the file"))
        #expect(TestSupport.kb(["scenario", "frob", "a.feature"], in: dir).code == 64)
    }

    @Test func renderCommand() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(dir) }
        TestSupport.write("第一行中文\n第二行中文\n\n첫 번째 줄\n두 번째 줄\n\n<b>raw</b>\n", to: dir + "/a.md")
        let safe = TestSupport.kb(["render", "a.md"], in: dir)
        #expect(safe.code == 0)
        #expect(safe.stdout.contains("<p>第一行中文第二行中文</p>"))
        #expect(safe.stdout.contains("<p>첫 번째 줄\n두 번째 줄</p>"))
        #expect(safe.stdout.contains("<!-- raw HTML omitted -->"))
        let unsafe = TestSupport.kb(["render", "--unsafe-html", "a.md"], in: dir)
        #expect(unsafe.stdout.contains("<b>raw</b>"))
        #expect(TestSupport.kb(["render", "--keep-soft-breaks", "a.md"], in: dir).stdout.contains("第一行中文\n第二行中文"))
        #expect(TestSupport.kb(["render"], in: dir).code == 64)
        // Any readable file renders (a device, a pipe); what cannot be read says why.
        let empty = TestSupport.kb(["render", "/dev/null"], in: dir)
        #expect(empty.code == 0 && empty.stdout.isEmpty && empty.stderr.isEmpty, "\(empty.stderr)")
        let missing = TestSupport.kb(["render", "missing.md"], in: dir)
        #expect(missing.code == 1 && missing.stderr.contains("Error: missing.md: cannot read the file: No such file or directory"), "\(missing.stderr)")
        let folder = TestSupport.kb(["render", "."], in: dir)
        #expect(folder.code == 1 && folder.stderr.contains("Is a directory"), "\(folder.stderr)")
    }
}

@Suite struct ScenarioLintTests {
    func lint(_ dir: String, strict: Bool = false) -> (code: Int32, stdout: String) {
        let result = TestSupport.kb(["lint"] + (strict ? ["--strict"] : []), in: dir)
        return (result.code, result.stdout)
    }

    @Test func recordTagsParseErrorsAndCoverage() {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(dir) }
        CheckTestSupport.writeEntry("tagged", in: dir + "/entries", scenario: """
            Feature: f
              @attempt-1
              Scenario: one
                When I run "true"
              @attempt-4-1
              Scenario: missing
                When I run "true"
                Then it sparkles
            """)
        CheckTestSupport.writeEntry("unparsable", in: dir + "/entries", scenario: "Feature: f\n  Scenario: s\n    When I run \"true\"\n  @dangling\n")
        CheckTestSupport.writeEntry("plain", in: dir + "/entries", scenario: nil)
        let result = lint(dir)
        #expect(result.code == 1)
        #expect(result.stdout.contains("entries/tagged/scenario.feature:5:3: error: tag @attempt-4-1 links to no record: no attempt of the entry has that number (records: @attempt-1, @attempt-2, @fix) [unknown-record-tag]"), "\(result.stdout)")
        #expect(result.stdout.contains("entries/tagged/scenario.feature:8:5: error: no shell step matches 'it sparkles'"))
        #expect(result.stdout.contains("entries/tagged/entry.md:20:1: warning: attempt 2 has no scenario in entries/tagged/scenario.feature (tag one with @attempt-2) [attempt-without-scenario]"), "\(result.stdout)")
        #expect(result.stdout.contains("entries/unparsable/scenario.feature:5:1: error: the scenario file does not parse"), "\(result.stdout)")
        #expect(!result.stdout.contains("entries/plain/"), "entries without a scenario file get no scenario warnings")
    }

    @Test func entriesWithoutScenariosStayCleanUnderStrict() {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(dir) }
        CheckTestSupport.writeEntry("plain", in: dir + "/entries", scenario: nil)
        CheckTestSupport.writeEntry("covered", in: dir + "/entries", scenario: CheckTestSupport.passingScenario)
        let result = lint(dir, strict: true)
        #expect(result.code == 0, "\(result.stdout)")
    }
}
