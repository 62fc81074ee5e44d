import Foundation
import KBCore

/// Finds the `kb` binary that check scenarios run when a command starts with `kb`.
public enum KBBinaryLocator {
    /// In order: `KB_BINARY`; the running executable when it is `kb`; a `kb` next to the running
    /// executable (the test bundle sits beside it in `.build/<triple>/debug`); `.build/debug/kb`
    /// then `.build/release/kb` under `repositoryRoot`.
    public static func locate(environment: [String: String], repositoryRoot: String?) -> String? {
        let fm = FileManager.default
        if let explicit = environment["KB_BINARY"], !explicit.isEmpty {
            return explicit
        }
        if let executable = runningExecutable() {
            if (executable as NSString).lastPathComponent == "kb" { return executable }
            var folder = (executable as NSString).deletingLastPathComponent
            // Inside a test bundle (`….xctest/Contents/MacOS/…` on macOS), climb out of it.
            while folder.contains(".xctest") { folder = (folder as NSString).deletingLastPathComponent }
            let sibling = (folder as NSString).appendingPathComponent("kb")
            if fm.isExecutableFile(atPath: sibling) { return sibling }
        }
        if let root = repositoryRoot {
            for candidate in [".build/debug/kb", ".build/release/kb"] {
                let path = (root as NSString).appendingPathComponent(candidate)
                if fm.isExecutableFile(atPath: path) { return path }
            }
        }
        return nil
    }

    static func runningExecutable() -> String? {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        return Bundle.main.executablePath
    }
}

/// Which output stream a step looks at.
public enum OutputStreamName: String, Sendable {
    case stdout, stderr

    var label: String { self == .stdout ? "standard output" : "standard error" }
}

/// The first world: real programs in a fresh temporary folder per scenario, through `Sandbox`.
///
/// Steps (each in English, Chinese, Korean and Japanese — see docs/scenario-language.md) write
/// files, run a command (argv split like a shell, never through one unless the step says
/// `sh -c`), and check the exit status and output of the last command.
public final class ShellWorld: World {
    public static let worldName = "shell"

    public let settings: WorldSettings
    /// The scratch folder; `work` is the commands' working directory, `home` their HOME.
    public let root: String
    public let work: String
    public let home: String
    public let path: String
    public private(set) var last: SandboxResult?
    public private(set) var lastCommand: String?

    public init(settings: WorldSettings) throws {
        self.settings = settings
        var template = Array((NSTemporaryDirectory() + "kb-check-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw StepFailure("cannot create a temporary folder")
        }
        root = URL(fileURLWithPath: String(cString: made)).resolvingSymlinksInPath().path
        work = root + "/work"
        home = root + "/home"
        for folder in [work, home, root + "/tmp"] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        path = Sandbox.path(host: settings.hostEnvironment)
    }

    public func tearDown() {
        try? FileManager.default.removeItem(atPath: root)
    }

    public var environment: [String: String] {
        Sandbox.environment(path: path, home: home, temporary: root + "/tmp")
    }

    public static func missingRequirement(tags: [String], settings: WorldSettings) -> String? {
        let path = Sandbox.path(host: settings.hostEnvironment)
        for tag in tags where tag.hasPrefix("@requires:") {
            let program = String(tag.dropFirst("@requires:".count))
            if program == "kb" {
                if settings.kbBinary.map({ FileManager.default.isExecutableFile(atPath: $0) }) != true {
                    return "requires kb, but no kb binary was found (set KB_BINARY or build it with 'swift build')"
                }
                continue
            }
            if Sandbox.resolve(program, path: path, directory: "/") == nil {
                return "requires \(program), which is not installed (not found on PATH \(path))"
            }
        }
        return nil
    }

    // MARK: Actions

    /// Writes a file relative to the working folder; paths may not leave it.
    public func writeFile(_ name: String, _ content: String) throws {
        let target = ((work as NSString).appendingPathComponent(name) as NSString).standardizingPath
        guard !name.hasPrefix("/"), target.hasPrefix(work + "/") else {
            throw StepFailure("file '\(name)' would be outside the scenario's folder")
        }
        try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let text = content.hasSuffix("\n") || content.isEmpty ? content : content + "\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: target))
    }

    /// Runs a command line: split into words, `kb` → the binary under test, other programs from
    /// the sandbox PATH.
    public func run(_ commandLine: String, stdin: String? = nil) throws {
        var arguments: [String]
        do { arguments = try ShellWords.split(commandLine) } catch { throw StepFailure("\(error)") }
        guard let program = arguments.first else { throw StepFailure("the command is empty") }
        let executable: String
        if program == "kb" {
            guard let kb = settings.kbBinary, FileManager.default.isExecutableFile(atPath: kb) else {
                throw StepFailure("no kb binary to run (set KB_BINARY or build it with 'swift build')")
            }
            executable = kb
        } else {
            guard let found = Sandbox.resolve(program, path: path, directory: work) else {
                throw StepFailure("program '\(program)' not found on PATH \(path) (declare it with @requires:\(program))")
            }
            executable = found
        }
        arguments[0] = program
        lastCommand = commandLine
        let result: SandboxResult
        do {
            result = try Sandbox.run(executable: executable, arguments: arguments, directory: work, environment: environment,
                                     stdin: stdin.map { $0.hasSuffix("\n") ? $0 : $0 + "\n" }, timeout: settings.timeout,
                                     outputLimit: settings.outputLimit)
        } catch {
            throw StepFailure("\(error)")
        }
        last = result
        if result.timedOut {
            throw StepFailure("'\(commandLine)' did not finish within \(Self.seconds(settings.timeout)); its process group was killed")
        }
        if program == "kb", arguments.count > 1, result.exitStatus == 64,
           result.stderr.hasPrefix("Error: unknown command '\(arguments[1])'") {
            throw StepUndefined("the kb under test has no '\(arguments[1])' command")
        }
    }

    static func seconds(_ interval: TimeInterval) -> String {
        interval == interval.rounded() ? "\(Int(interval)) s" : String(format: "%.1f s", interval)
    }

    func lastResult() throws -> SandboxResult {
        guard let last else { throw StepFailure("no command has run yet in this scenario") }
        return last
    }

    func output(_ stream: OutputStreamName) throws -> String {
        let result = try lastResult()
        return stream == .stdout ? result.stdout : result.stderr
    }

    /// The output for a failure message: at most 2 000 characters, with a note when the stream was capped.
    func excerpt(_ stream: OutputStreamName) -> String {
        guard let last else { return "" }
        let text = stream == .stdout ? last.stdout : last.stderr
        let discarded = stream == .stdout ? last.stdoutDiscarded : last.stderrDiscarded
        var shown = text.count > 2000 ? String(text.prefix(2000)) + "…" : text
        if shown.isEmpty { shown = "(empty)" }
        if discarded > 0 { shown += "\n[\(discarded) more bytes were discarded at the \(settings.outputLimit)-byte limit]" }
        return shown
    }

    func expectContains(_ stream: OutputStreamName, _ needle: String, _ expected: Bool) throws {
        let text = try output(stream)
        if text.contains(needle) != expected {
            throw StepFailure("\(stream.label) of '\(lastCommand ?? "")' \(expected ? "does not contain" : "contains") \(Self.quote(needle)); it was:\n\(excerpt(stream))")
        }
    }

    func expectMatches(_ stream: OutputStreamName, _ pattern: String) throws {
        let regex: NSRegularExpression
        do { regex = try NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines]) } catch {
            throw StepFailure("invalid regular expression \(Self.quote(pattern))")
        }
        let text = try output(stream)
        if regex.firstMatch(in: text, range: NSRange(location: 0, length: (text as NSString).length)) == nil {
            throw StepFailure("\(stream.label) of '\(lastCommand ?? "")' does not match /\(pattern)/; it was:\n\(excerpt(stream))")
        }
    }

    func expectExit(_ code: Int, _ expected: Bool) throws {
        let result = try lastResult()
        if (Int(result.exitStatus) == code) != expected {
            let how = result.signal.map { "was killed by signal \($0)" } ?? "exited with \(result.exitStatus)"
            throw StepFailure("'\(lastCommand ?? "")' \(how), expected \(expected ? "" : "anything but ")\(code); standard error:\n\(excerpt(.stderr))")
        }
    }

    static func quote(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\t", with: "\\t") + "\""
    }

    // MARK: Step library

    /// `{stream}`: which output a step checks, named in any of the four languages.
    public static let streamParameter = ParameterType(
        name: "stream",
        regexps: ["standard output|stdout|the output|标准输出|표준 출력|標準出力",
                  "standard error|stderr|the error output|标准错误|표준 오류|標準エラー出力|標準エラー"]
    ) { groups in
        groups.first.flatMap { $0 } ?? ""
    }

    static func stream(_ arguments: StepArguments, _ index: Int = 0) throws -> OutputStreamName {
        let name = try arguments.string(index)
        return ["standard output", "stdout", "the output", "标准输出", "표준 출력", "標準出力"].contains(name) ? .stdout : .stderr
    }

    public static let library: StepLibrary<ShellWorld> = {
        let definitions: [StepDefinition<ShellWorld>] = [
            StepDefinition(phrases: ["a file {string} containing:", "文件{string}的内容为：", "文件{string}的内容为:",
                                     "파일 {string}의 내용:", "ファイル{string}の内容：", "ファイル{string}の内容:"]) { world, arguments in
                try world.writeFile(try arguments.string(0), try arguments.requireDocString())
            },
            StepDefinition(phrases: ["I run {string}", "运行/执行{string}", "{string}을/를 실행한다/실행하면", "{string}を実行する", "{string}を実行したとき"]) { world, arguments in
                try world.run(try arguments.string(0))
            },
            StepDefinition(phrases: ["I run {string} with input:", "以下面的输入运行{string}：", "以下面的输入运行{string}:",
                                     "다음 입력으로 {string}을/를 실행한다:", "次の入力で{string}を実行する：", "次の入力で{string}を実行する:"]) { world, arguments in
                try world.run(try arguments.string(0), stdin: try arguments.requireDocString())
            },
            StepDefinition(phrases: ["the exit status is {int}", "退出码为{int}", "종료 코드는 {int}이다", "終了コードは{int}"]) { world, arguments in
                try world.expectExit(try arguments.int(0), true)
            },
            StepDefinition(phrases: ["the exit status is not {int}", "退出码不为{int}", "종료 코드는 {int}이/가 아니다", "終了コードは{int}ではない"]) { world, arguments in
                try world.expectExit(try arguments.int(0), false)
            },
            StepDefinition(phrases: ["{stream} contains {string}", "{stream}包含{string}", "{stream}에 {string}이/가 포함된다",
                                     "{stream}に{string}が含まれる"]) { world, arguments in
                try world.expectContains(try stream(arguments), try arguments.string(1), true)
            },
            StepDefinition(phrases: ["{stream} does not contain {string}", "{stream}不包含{string}", "{stream}에 {string}이/가 포함되지 않는다",
                                     "{stream}に{string}が含まれない"]) { world, arguments in
                try world.expectContains(try stream(arguments), try arguments.string(1), false)
            },
            StepDefinition(phrases: ["{stream} contains:", "{stream}包含：", "{stream}包含:", "{stream}에 다음 내용이 포함된다:",
                                     "{stream}に次の内容が含まれる：", "{stream}に次の内容が含まれる:"]) { world, arguments in
                try world.expectContains(try stream(arguments), try arguments.requireDocString(), true)
            },
            StepDefinition(phrases: ["{stream} does not contain:", "{stream}不包含：", "{stream}不包含:", "{stream}에 다음 내용이 포함되지 않는다:",
                                     "{stream}に次の内容が含まれない：", "{stream}に次の内容が含まれない:"]) { world, arguments in
                try world.expectContains(try stream(arguments), try arguments.requireDocString(), false)
            },
            StepDefinition(phrases: ["{stream} matches {string}", "{stream}匹配{string}", "{stream}이/가 정규식 {string}과/와 일치한다",
                                     "{stream}が正規表現{string}にマッチする"]) { world, arguments in
                try world.expectMatches(try stream(arguments), try arguments.string(1))
            },
            StepDefinition(phrases: ["{stream} is empty", "{stream}为空", "{stream}이/가 비어 있다", "{stream}が空である"]) { world, arguments in
                let which = try stream(arguments)
                if !(try world.output(which)).isEmpty {
                    throw StepFailure("\(which.label) of '\(world.lastCommand ?? "")' is not empty; it was:\n\(world.excerpt(which))")
                }
            },
        ]
        return try! StepLibrary(parameterTypes: [streamParameter], definitions: definitions)
    }()
}
