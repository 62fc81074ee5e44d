import Foundation
import Testing
@testable import TroubleshootKB

@Suite struct CLITests {
    @Test func versionAndHelp() {
        let version = TestSupport.kb(["--version"], in: "/")
        #expect(version.code == 0)
        #expect(version.stdout == "kb \(TroubleshootKBVersion.string)\n")
        let help = TestSupport.kb(["--help"], in: "/")
        #expect(help.code == 0)
        #expect(help.stdout.contains("OVERVIEW:") && help.stdout.contains("lint"))
        let lintHelp = TestSupport.kb(["help", "lint"], in: "/")
        #expect(lintHelp.code == 0)
        for heading in ["OVERVIEW:", "USAGE: kb lint", "ARGUMENTS:", "OPTIONS:", "--strict"] {
            #expect(lintHelp.stdout.contains(heading))
        }
        #expect(TestSupport.kb(["lint", "--help"], in: "/").stdout == lintHelp.stdout)
    }

    @Test(arguments: [
        (["frobnicate"], "unknown command"),
        (["lint", "--bogus"], "unknown option '--bogus'"),
        (["lint", "--format", "xml"], "must be one of text, json"),
        (["show"], "expected exactly one entry id"),
        (["list", "--status", "done"], "'--status' must be one of"),
        ([String](), "USAGE: kb <subcommand>"),
    ])
    func usageErrorsExit64(arguments: [String], message: String) {
        let result = TestSupport.kb(arguments, in: "/")
        #expect(result.code == 64)
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
    }

    @Test func lintExitCodesAndFormats() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(dir) }
        TestSupport.write(TestSupport.entry(id: "good-one", body: "## 问题\n\n坏了。\n"), to: dir + "/entries/good-one/entry.md")
        let clean = TestSupport.kb(["lint"], in: dir)
        #expect(clean.code == 0, "\(clean.stdout)\(clean.stderr)")
        #expect(clean.stdout.contains("1 entry, 0 errors, 0 warnings"))

        TestSupport.write("---\nid: broken\ntitle: \"oops\nlang: ja\n---\n", to: dir + "/entries/broken/entry.md")
        let broken = TestSupport.kb(["lint", "entries"], in: dir)
        #expect(broken.code == 1)
        #expect(broken.stdout.contains("entries/broken/entry.md:3:8: error: invalid YAML in front matter"), "\(broken.stdout)")
        #expect(!broken.stdout.contains("\u{1B}["), "no colour when not a terminal")

        let json = TestSupport.kb(["lint", "--format", "json"], in: dir)
        #expect(json.code == 1)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["errors"] as? Int == 1)
        #expect(TestSupport.kb(["lint", "entries/good-one"], in: dir).code == 0)
        #expect(TestSupport.kb(["lint", "no/such/path"], in: dir).code == 1)
    }

    @Test func strictTurnsWarningsIntoErrors() {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(dir) }
        TestSupport.write(TestSupport.entry(id: "warn", body: "### 方案 1\n\n没有结果。\n"), to: dir + "/entries/warn/entry.md")
        #expect(TestSupport.kb(["lint"], in: dir).code == 0)
        #expect(TestSupport.kb(["lint", "--strict"], in: dir).code == 1)
    }

    @Test func listShowExportOnTheRepository() throws {
        let root = TestSupport.repositoryRoot
        let list = TestSupport.kb(["list", "--format", "json"], in: root)
        #expect(list.code == 0)
        let rows = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]]
        #expect(rows?.count == TestSupport.entryIDs.count)
        let ko = TestSupport.kb(["list", "--lang", "ko"], in: root)
        #expect(!ko.stdout.isEmpty && !ko.stdout.contains("zh-Hans"))

        let id = try #require(TestSupport.entryIDs.first)
        let show = TestSupport.kb(["show", id], in: root)
        #expect(show.code == 0)
        #expect(show.stdout.contains("Attempts") && show.stdout.contains("#attempt-"))
        #expect(TestSupport.kb(["show", "no-such-entry"], in: root).code == 1)

        let export = TestSupport.kb(["export", "--format", "json"], in: root)
        #expect(export.code == 0)
        let document = try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [String: Any]
        #expect(document?["schemaVersion"] as? Int == EntryExport.schemaVersion)
        #expect((document?["entries"] as? [Any])?.count == TestSupport.entryIDs.count)
    }

    @Test func colourOnlyOnATerminalAndNotWithNoColor() {
        let style = CommandContext(workingDirectory: "/", stdout: OutputStream(capturingAsTerminal: true),
                                   stderr: OutputStream(), environment: [:]).style
        #expect(style.bold("x") != "x")
        let noColor = CommandContext(workingDirectory: "/", stdout: OutputStream(capturingAsTerminal: true),
                                     stderr: OutputStream(), environment: ["NO_COLOR": "1"]).style
        #expect(noColor.bold("x") == "x")
    }
}
