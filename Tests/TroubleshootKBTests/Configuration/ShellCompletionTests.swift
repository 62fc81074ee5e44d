import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

/// Runs a shell program and returns its standard output (and exit status).
enum ShellRunner {
    static func available(_ program: String) -> Bool {
        ["/usr/bin/", "/bin/", "/usr/local/bin/"].contains { FileManager.default.isExecutableFile(atPath: $0 + program) }
    }

    static func run(_ program: String, _ arguments: [String], environment: [String: String]? = nil, in directory: String? = nil) throws -> (code: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }
}

/// The completion scripts `kb completions` prints, run by the shells themselves.
@Suite struct ShellCompletionTests {
    static var completions: ShellCompletions { ShellCompletions(commands: KBCommandLine.commands.map { $0.configuration }) }

    struct Case: CustomTestStringConvertible, Sendable {
        let line: [String]
        let expected: [String]
        var testDescription: String { line.joined(separator: " ") + "<TAB>" }
    }

    static let cases: [Case] = [
        Case(line: ["kb", "se"], expected: ["search", "serve"]),
        Case(line: ["kb", "search", "--l"], expected: ["--lang", "--limit"]),
        Case(line: ["kb", "check", "--format", ""], expected: ["text", "json"]),
        Case(line: ["kb", "search", "--status", "w"], expected: ["workaround"]),
        Case(line: ["kb", "help", "comp"], expected: ["completions"]),
        Case(line: ["kb", "--root", "/tmp", "in"], expected: ["index", "init"]),
        Case(line: ["kb", "completions", "z"], expected: ["zsh"]),
        Case(line: ["kb", "theme", ""], expected: ["list", "eject"]),
        Case(line: ["kb", "build", "--ti"], expected: ["--timings"]),
        Case(line: ["kb", "init", "--lang", "k"], expected: ["ko"]),
        Case(line: ["kb", "--verbose", "sea"], expected: ["search"]),
    ]

    /// Sources the bash script and calls its completion function as bash does on <TAB>.
    static func bashComplete(_ line: [String], script: String) throws -> [String] {
        let words = line.map { "'" + $0 + "'" }.joined(separator: " ")
        let program = "source \"$1\"; COMP_WORDS=(\(words)); COMP_CWORD=\(line.count - 1); _kb; printf '%s\\n' \"${COMPREPLY[@]}\""
        let result = try ShellRunner.run("bash", ["-c", program, "bash", script])
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test(.enabled(if: ShellRunner.available("bash"), "bash is not installed"), arguments: cases)
    func bash(_ testCase: Case) throws {
        let directory = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(directory) }
        let script = directory + "/kb.bash"
        try ShellCompletionTests.completions.script(for: .bash).write(toFile: script, atomically: true, encoding: .utf8)
        #expect(try Self.bashComplete(testCase.line, script: script).sorted() == testCase.expected.sorted())
    }

    @Test(.enabled(if: ShellRunner.available("bash"), "bash is not installed"))
    func bashCompletesFolders() throws {
        let directory = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(directory) }
        try FileManager.default.createDirectory(atPath: directory + "/team-kb", withIntermediateDirectories: true)
        let script = directory + "/kb.bash"
        try Self.completions.script(for: .bash).write(toFile: script, atomically: true, encoding: .utf8)
        let found = try Self.bashComplete(["kb", "--root", directory + "/tea"], script: script)
        #expect(found == [directory + "/team-kb"])
    }

    /// The second argument of a command completes as itself, not as the first (kb theme eject <dir>).
    @Test(.enabled(if: ShellRunner.available("bash"), "bash is not installed"))
    func bashCompletesByPosition() throws {
        let directory = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(directory) }
        try FileManager.default.createDirectory(atPath: directory + "/custom-theme", withIntermediateDirectories: true)
        TestSupport.write("Feature: x\n", to: directory + "/checks.feature")
        let script = directory + "/kb.bash"
        try Self.completions.script(for: .bash).write(toFile: script, atomically: true, encoding: .utf8)
        #expect(try Self.bashComplete(["kb", "theme", "eject", directory + "/cus"], script: script) == [directory + "/custom-theme"])
        #expect(try Self.bashComplete(["kb", "scenario", "parse", directory + "/che"], script: script) == [directory + "/checks.feature"])
        #expect(try Self.bashComplete(["kb", "check", "--format", "json", "--explain", "x", "--jo"], script: script) == ["--jobs"])
    }

    /// Entry ids come from the knowledge base, through the installed kb on PATH.
    @Test(.enabled(if: InstallTests.hasBinary && ShellRunner.available("bash"), "needs the kb binary and bash"))
    func bashCompletesEntryIDs() throws {
        let directory = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(directory) }
        #expect(TestSupport.kb(["init", directory + "/kb", "--lang", "en,ja"], in: "/").code == 0)
        let bin = directory + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bin + "/kb", withDestinationPath: InstallTests.binary!)
        let script = directory + "/kb.bash"
        try Self.completions.script(for: .bash).write(toFile: script, atomically: true, encoding: .utf8)
        let program = "cd \"$2\"; PATH=\"$3:$PATH\"; source \"$1\"; COMP_WORDS=(kb show example-sort-version-order-j); COMP_CWORD=2; _kb; printf '%s\\n' \"${COMPREPLY[@]}\""
        let result = try ShellRunner.run("bash", ["-c", program, "bash", script, directory + "/kb/entries", bin])
        #expect(result.stdout.split(separator: "\n") == ["example-sort-version-order-ja"], "\(result.stdout)\(result.stderr)")
    }

    @Test(.enabled(if: ShellRunner.available("zsh"), "zsh is not installed (scripts/install-deps.sh test installs it)"))
    func zshScriptParses() throws {
        let directory = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(directory) }
        try Self.completions.script(for: .zsh).write(toFile: directory + "/_kb", atomically: true, encoding: .utf8)
        let result = try ShellRunner.run("zsh", ["-n", directory + "/_kb"])
        #expect(result.code == 0, "\(result.stderr)")
        // compinit loads it from fpath and registers it for kb.
        let loaded = try ShellRunner.run("zsh", ["-f", "-c", "fpath=(\(directory) $fpath); autoload -Uz compinit; compinit -u -D; print -r -- ${_comps[kb]}"])
        #expect(loaded.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "_kb", "\(loaded.stdout)\(loaded.stderr)")
    }

    @Test(.enabled(if: ShellRunner.available("fish"), "fish is not installed (scripts/install-deps.sh test installs it)"))
    func fishCompletes() throws {
        let directory = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(directory) }
        let script = directory + "/kb.fish"
        try Self.completions.script(for: .fish).write(toFile: script, atomically: true, encoding: .utf8)
        let result = try ShellRunner.run("fish", ["--no-config", "-c", "source \(script); complete -C 'kb search --l'"],
                                         environment: ["HOME": directory, "PATH": "/usr/bin:/bin"])
        #expect(result.code == 0, "\(result.stderr)")
        let words = result.stdout.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
        #expect(words.sorted() == ["--lang", "--limit"], "\(result.stdout)")
    }

    /// Every option a command accepts is offered for it.
    @Test func everyOptionIsOffered() {
        let bash = Self.completions.script(for: .bash)
        for configuration in KBCommandLine.commands.map({ $0.configuration }) {
            for option in configuration.options {
                for name in option.names { #expect(bash.contains(name), "\(configuration.name) \(name)") }
            }
        }
    }

    /// `kb help <command>` shows every option the command accepts, --root and --verbose included.
    @Test func helpListsEveryOption() {
        for configuration in KBCommandLine.commands.map({ $0.configuration }) {
            let help = TestSupport.kb(["help", configuration.name], in: "/")
            #expect(help.code == 0)
            for name in configuration.options.flatMap(\.names) + ["--root", "--verbose"] {
                #expect(help.stdout.contains(name), "kb help \(configuration.name) does not show \(name)")
            }
        }
    }

    @Test(.enabled(if: ShellRunner.available("man"), "man is not installed"))
    func manualPageRenders() throws {
        let directory = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(directory) }
        let page = TestSupport.kb(["manpage"], in: directory)
        #expect(page.code == 0)
        try page.stdout.write(toFile: directory + "/kb.1", atomically: true, encoding: .utf8)
        let shown = try ShellRunner.run("man", ["-l", directory + "/kb.1"], environment: ["MANWIDTH": "100", "PATH": "/usr/bin:/bin", "MAN_KEEP_FORMATTING": "0", "LANG": "C.UTF-8"])
        #expect(shown.code == 0, "\(shown.stderr)")
        let plain = shown.stdout.replacingOccurrences(of: ".\u{8}", with: "", options: .regularExpression)
        for command in KBCommandLine.commands.map({ $0.configuration.name }) {
            #expect(plain.contains("kb \(command)"), "\(command) missing from the manual page")
        }
        #expect(plain.contains("--root dir"))
        #expect(!shown.stderr.contains("warning"), "\(shown.stderr)")
    }
}
