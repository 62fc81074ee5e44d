import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

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
        (["serve", "--host", "::1"], "'::1' is not an IPv4 address"),
        (["search", ""], "the query is empty"),
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

    /// Usage mistakes are usage errors (64) that say what was wrong; language tags compare
    /// without case everywhere.
    @Test func usageMistakesAndLanguageCase() {
        let empty = TestSupport.kb(["search", "  "], in: TestSupport.repositoryRoot)
        #expect(empty.code == 64 && empty.stderr.contains("Error: the query is empty"), "\(empty.stderr)")
        let option = TestSupport.kb(["--bogus"], in: TestSupport.repositoryRoot)
        #expect(option.code == 64 && option.stderr.contains("Error: unknown option '--bogus'"), "\(option.stderr)")
        let command = TestSupport.kb(["bogus"], in: TestSupport.repositoryRoot)
        #expect(command.code == 64 && command.stderr.contains("Error: unknown command 'bogus'"), "\(command.stderr)")
        let lower = TestSupport.kb(["list", "--lang", "zh-hans", "--format", "ids"], in: TestSupport.repositoryRoot)
        let upper = TestSupport.kb(["list", "--lang", "ZH", "--format", "ids"], in: TestSupport.repositoryRoot)
        #expect(lower.code == 0 && !lower.stdout.isEmpty && upper.stdout == lower.stdout, "\(upper.stdout)")
    }

    /// An entry that cannot be read (bad UTF-8, broken front matter): kb show prints its errors,
    /// kb list and kb export leave it out, say which, and fail; never an empty record.
    @Test func unreadableEntriesAreNamedNotShownEmpty() throws {
        let root = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(root) }
        TestSupport.write(TestSupport.entry(id: "good", body: "## 问题背景\n\n好的。\n"), to: root + "/entries/good/entry.md")
        try FileManager.default.createDirectory(atPath: root + "/entries/bad-utf8", withIntermediateDirectories: true)
        try Data(Array("---\nid: bad-utf8\ntitle: \"x".utf8) + [0xFF] + Array("\"\n---\n# x\n".utf8))
            .write(to: URL(fileURLWithPath: root + "/entries/bad-utf8/entry.md"))
        TestSupport.write("---\nid: bad-yaml\ntitle: [unclosed\n---\n# x\n", to: root + "/entries/bad-yaml/entry.md")

        for id in ["bad-utf8", "bad-yaml"] {
            let show = TestSupport.kb(["show", id], in: root)
            #expect(show.code == 1 && show.stdout.isEmpty, "\(show.stdout)")
            #expect(show.stderr.contains("entries/\(id)/entry.md:") && show.stderr.contains("Error: entry '\(id)' cannot be shown"), "\(show.stderr)")
        }
        let list = TestSupport.kb(["list", "--format", "ids"], in: root)
        #expect(list.code == 1 && list.stdout == "good\n", "\(list.stdout)")
        #expect(list.stderr.contains("note: 2 entries cannot be read and are not listed (kb lint shows why): entries/bad-utf8/entry.md, entries/bad-yaml/entry.md"), "\(list.stderr)")
        let export = TestSupport.kb(["export"], in: root)
        #expect(export.code == 1)
        let document = try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [String: Any]
        #expect((document?["entries"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["good"])
    }

    /// kb show: a label once per part (wrapped lines start under the text), fix steps keep their
    /// numbers, code blocks counted in words that agree with the number.
    @Test func showKeepsLabelsStepsAndCounts() throws {
        let root = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(root) }
        #expect(TestSupport.kb(["init", "--lang", "en"], in: root).code == 0)
        let show = TestSupport.kb(["show", "example-sort-version-order"], in: root)
        #expect(show.code == 0)
        let lines = show.stdout.split(separator: "\n").map(String.init)
        let cause = try #require(lines.firstIndex { $0.hasPrefix("      cause: sort compares lines") }, "\(show.stdout)")
        #expect(lines[cause + 1].hasPrefix(String(repeating: " ", count: 13)) && !lines[cause + 1].contains("cause:"), "\(lines[cause + 1])")
        #expect(lines.contains("  1. Replace sort with sort -V where the script picks the newest tag."), "\(show.stdout)")
        #expect(lines.contains("  2. Check the script with a tag list that has a two-digit part."))
        #expect(lines.contains("  [sh: 1 line]"), "\(show.stdout)")
    }

    @Test func colourOnlyOnATerminalAndNotWithNoColor() {
        let style = CommandContext(workingDirectory: "/", stdout: OutputStream(capturingAsTerminal: true),
                                   stderr: OutputStream(), environment: [:]).style
        #expect(style.bold("x") != "x")
        let noColor = CommandContext(workingDirectory: "/", stdout: OutputStream(capturingAsTerminal: true),
                                     stderr: OutputStream(), environment: ["NO_COLOR": "1"]).style
        #expect(noColor.bold("x") == "x")
        // A terminal that takes no escape sequences (TERM=dumb): no colour, no progress line.
        let dumb = CommandContext(workingDirectory: "/", stdout: OutputStream(capturingAsTerminal: true),
                                  stderr: OutputStream(capturingAsTerminal: true), environment: ["TERM": "dumb"])
        #expect(dumb.style.bold("x") == "x" && dumb.errorStyle.bold("x") == "x")
        #expect(!dumb.isCapableTerminal(dumb.stderr))
    }

    @Test func diagnosticLinesOnATerminalAndOff() {
        let diagnostic = Diagnostic(path: "entries/a/entry.md", location: SourceLocation(line: 3, column: 7), severity: .error,
                                    message: "status 'wat' is not one of resolved, workaround, open", rule: .invalidStatus)
        var plain: [UInt8] = [], coloured: [UInt8] = []
        LintCommand.format(diagnostic, style: TerminalStyle(enabled: false), into: &plain)
        LintCommand.format(diagnostic, style: TerminalStyle(enabled: true), into: &coloured)
        #expect(String(decoding: plain, as: UTF8.self)
                == "entries/a/entry.md:3:7: error: status 'wat' is not one of resolved, workaround, open [invalid-status]")
        #expect(String(decoding: coloured, as: UTF8.self)
                == "\u{1B}[1mentries/a/entry.md:3:7:\u{1B}[0m \u{1B}[31m\u{1B}[1merror:\u{1B}[0m\u{1B}[0m "
                + "status 'wat' is not one of resolved, workaround, open \u{1B}[2m[invalid-status]\u{1B}[0m")
        var warning: [UInt8] = []
        LintCommand.format(Diagnostic(path: "kb.yaml", location: nil, severity: .warning, message: "m", rule: .invalidStatus),
                           style: TerminalStyle(enabled: false), into: &warning)
        #expect(String(decoding: warning, as: UTF8.self) == "kb.yaml: warning: m [invalid-status]")
    }
}

/// Usage lines and help are made from each command's declarations, and show everything it accepts.
@Suite struct CommandDeclarationTests {
    static let commandNames = KBCommandLine.commands.map { $0.configuration.name }

    @Test(arguments: commandNames)
    func helpAndUsageShowEveryOption(_ name: String) throws {
        let configuration = try #require(KBCommandLine.command(named: name)?.configuration)
        let help = TestSupport.kb(["help", name], in: "/")
        #expect(help.code == 0, "\(help.stderr)")
        #expect(TestSupport.kb([name, "--help"], in: "/").stdout == help.stdout)
        let usage = configuration.usage
        #expect(usage.hasPrefix("kb \(name)"))
        // The help's usage is the same line, wrapped between its parts.
        let helpUsage = help.stdout.components(separatedBy: "\n\n").first { $0.hasPrefix("USAGE: ") } ?? ""
        #expect(helpUsage.split(whereSeparator: \.isWhitespace) == ("USAGE: " + usage).split(whereSeparator: \.isWhitespace), "\(helpUsage)")
        for option in configuration.options {
            for optionName in option.names {
                #expect(help.stdout.contains(optionName), "kb help \(name) does not show \(optionName)")
                // Every name is accepted, with a value where the option takes one.
                let parsed = try ParsedArguments([optionName] + (option.takesValue ? ["value"] : []), configuration: configuration)
                #expect(parsed.positionals.isEmpty)
            }
        }
        for option in configuration.ownOptions {
            #expect(usage.contains(option.usage), "the usage of kb \(name) lacks \(option.usage): \(usage)")
        }
        for option in CommandConfiguration.commonOptions {
            #expect(!usage.contains(option.key), "common options are not repeated in each usage line")
        }
        for argument in configuration.arguments {
            #expect(usage.contains(argument.usage), "the usage of kb \(name) lacks \(argument.usage): \(usage)")
            #expect(help.stdout.contains("<\(argument.name)>"))
        }
        // A usage error prints the same line; the manual page shows it too.
        let wrong = TestSupport.kb([name, "--no-such-option"], in: "/")
        #expect(wrong.code == ExitCode.usage)
        #expect(wrong.stderr.contains("Usage: \(usage)\n"), "\(wrong.stderr)")
        #expect(ManualPage(commands: KBCommandLine.commands.map { $0.configuration }).roff.contains("Usage: \\fB" + ManualPage.escape(usage) + "\\fR"))
    }

    struct UsageCase: Sendable, CustomTestStringConvertible {
        let name: String
        let arguments: [CommandArgument]
        let options: [CommandOption]
        let usage: String
        var testDescription: String { name }
    }

    static let usageCases: [UsageCase] = [
        .init(name: "flag, value option, repeated argument",
              arguments: [.init("query", help: "q", arity: .oneOrMore)],
              options: [.init(["--limit"], value: "n", help: "l"), .init(["--explain"], help: "e")],
              usage: "kb demo [--limit <n>] [--explain] <query> ..."),
        .init(name: "short and long names use the long one",
              arguments: [], options: [.init(["-j", "--jobs"], value: "n", help: "j")],
              usage: "kb demo [--jobs <n>]"),
        .init(name: "required, optional and any number of arguments",
              arguments: [.init("action", help: "a"), .init("dir", help: "d", arity: .optional), .init("rest", help: "r", arity: .zeroOrMore)],
              options: [], usage: "kb demo <action> [<dir>] [<rest> ...]"),
        .init(name: "nothing to declare", arguments: [], options: [], usage: "kb demo"),
    ]

    @Test(arguments: usageCases)
    func usageLineIsMadeFromTheDeclarations(_ testCase: UsageCase) {
        let configuration = CommandConfiguration(name: "demo", abstract: "A demo.", arguments: testCase.arguments, options: testCase.options)
        #expect(configuration.usage == testCase.usage)
        #expect(configuration.help.contains("USAGE: " + testCase.usage) || testCase.usage.count > 72)
    }

    @Test func longUsageWrapsUnderTheFirstOption() {
        let options = (1...8).map { CommandOption(["--option-\($0)"], value: "value", help: "o") }
        let configuration = CommandConfiguration(name: "demo", abstract: "A demo.", options: options)
        let lines = configuration.wrappedUsage(prefix: "USAGE: ").split(separator: "\n")
        #expect(lines.count > 1)
        for line in lines {
            #expect(line.count <= 80, "\(line)")
        }
        for line in lines.dropFirst() {
            #expect(line.hasPrefix(String(repeating: " ", count: "USAGE: kb demo ".count) + "["), "\(line)")
        }
    }
}
