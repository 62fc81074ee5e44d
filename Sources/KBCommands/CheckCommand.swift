import Foundation
import KBCore
import KBSearch
import KBScenarios
import KBSite

/// `kb check`: runs the entries' scenarios and tells, per entry, whether its records still
/// reproduce.
public struct CheckCommand: KBCommand {
    public static let formatOption = CommandOption(["--format"], value: "format", help: "Output: text (summary table) or json (the report) (default: text).", choices: ["text", "json"])
    public static let junitOption = CommandOption(["--junit"], value: "file", help: "Also write JUnit XML for CI.")
    public static let jobsOption = CommandOption(["-j", "--jobs"], value: "n", help: "Check this many entries at a time (default: check.jobs of kb.yaml, else 1).")
    public static let shardOption = CommandOption(["--shard"], value: "k/n", help: "Check only shard k of n (entries split by a hash of their id).")
    public static let explainOption = CommandOption(["--explain"], value: "id", help: "Check one entry and show every step with its outcome.")
    public static let mergeOption = CommandOption(["--merge"], help: "Combine shard reports given as arguments instead of checking.")
    public static let reportOption = CommandOption(["--report"], value: "file", help: "Where to write the JSON report (default: .kb/check-report.json under the root).")
    public static let timeoutOption = CommandOption(["--timeout"], value: "seconds", help: "Time limit in seconds per command a scenario runs (default: check.timeout of kb.yaml, else 60).")

    public static let configuration = CommandConfiguration(
        name: "check",
        abstract: "Run the entries' check scenarios: do the attempts and the fix still reproduce?",
        discussion: """
        Verdicts: reproduces (every linked scenario passed), stale (a scenario failed: the record no \
        longer describes what happens), broken (undefined or ambiguous steps, parse errors), skipped \
        (a required program is missing). Exits 0 when every entry reproduces or is skipped, 1 otherwise. \
        The JSON report is written to .kb/check-report.json under the knowledge base root (see \
        docs/scenario-language.md). --jobs and --timeout default to check.jobs and check.timeout of kb.yaml.
        """,
        arguments: [.init("ids", help: "Entries to check (default: every entry with a scenario file); with --merge, report files.", arity: .zeroOrMore, completion: .entryIDs)],
        options: [formatOption, junitOption, jobsOption, shardOption, explainOption, mergeOption, reportOption, timeoutOption]
    )

    public let arguments: [String]
    public let format: String
    public let junit: String?
    /// `--jobs`, nil for kb.yaml's default.
    public let jobs: Int?
    public let shard: Shard?
    public let explain: String?
    public let merge: Bool
    public let reportPath: String?
    /// `--timeout`, nil for kb.yaml's default.
    public let timeout: Int?

    public init(_ arguments: ParsedArguments) throws {
        self.arguments = arguments.positionals
        format = try arguments.choice(Self.formatOption, default: "text")
        junit = arguments.value(Self.junitOption)
        jobs = try arguments.int(Self.jobsOption, range: 1...256)
        if let text = arguments.value(Self.shardOption) {
            guard let shard = Shard(text) else { throw UsageError("'\(Self.shardOption.key)' expects k/n with 1 ≤ k ≤ n, got '\(text)'") }
            self.shard = shard
        } else {
            shard = nil
        }
        explain = arguments.value(Self.explainOption)
        merge = arguments.flag(Self.mergeOption)
        reportPath = arguments.value(Self.reportOption)
        timeout = try arguments.int(Self.timeoutOption, range: 1...86_400)
        if merge && self.arguments.isEmpty { throw UsageError("\(Self.mergeOption.key) needs the report files to combine") }
        if merge && (explain != nil || shard != nil) { throw UsageError("\(Self.mergeOption.key) cannot be combined with \(Self.explainOption.key) or \(Self.shardOption.key)") }
        if explain != nil && !self.arguments.isEmpty { throw UsageError("\(Self.explainOption.key) takes the entry id; give no other ids") }
    }

    /// Merging reports reads only the files named.
    public var knowledgeBase: KnowledgeBaseRequirement { merge ? .optional : .required }

    public func run(_ context: CommandContext) throws -> Int32 {
        let report: CheckReport
        var skippedUnreadable = false
        if merge {
            report = CheckReport.merge(try arguments.map { try CheckReport.read(EntryLocator.absolute($0, workingDirectory: context.workingDirectory)) })
        } else {
            report = try check(context)
            if try EntryLocator.locate([context.entriesDirectory], workingDirectory: context.workingDirectory).diagnostics
                .contains(where: { $0.severity == .error }) {
                skippedUnreadable = true
            }
        }
        if format == "json" {
            context.stdout.print(String(decoding: try report.jsonData(), as: UTF8.self))
        } else if explain != nil {
            for entry in report.entries { context.stdout.print(Self.explanation(entry, style: context.style)) }
        } else {
            context.stdout.print(Self.table(report, style: context.style))
        }
        // The results are shown even when the report cannot be kept (a read-only checkout).
        do {
            try write(report, context: context)
        } catch {
            context.stderr.print("Error: \(error)")
            return ExitCode.failure
        }
        return report.isSuccess && !skippedUnreadable ? ExitCode.success : ExitCode.failure
    }

    func check(_ context: CommandContext) throws -> CheckReport {
        let (locations, locatorDiagnostics) = try EntryLocator.locate([context.entriesDirectory], workingDirectory: context.workingDirectory)
        // Entries that were not read (a symbolic link out of the entries folder) are not checked.
        for diagnostic in locatorDiagnostics where diagnostic.severity == .error {
            context.stderr.printLine { LintCommand.format(diagnostic, style: context.errorStyle, into: &$0) }
        }
        let kb = KnowledgeBaseLoader(workingDirectory: context.workingDirectory).load(locations, locatorDiagnostics: locatorDiagnostics)
        var items: [KnowledgeBase.Item]
        let requested = explain.map { [$0] } ?? arguments
        if requested.isEmpty {
            items = kb.items.filter { EntryChecker.hasScenario($0.location, entry: $0.entry) }
        } else {
            items = try requested.map { id in
                guard let item = kb.items.first(where: { ($0.entry?.id ?? $0.location.folderName) == id || $0.location.folderName == id }) else {
                    throw KBError("no entry with id '\(id)' in \(context.entriesDirectory)")
                }
                return item
            }
        }
        if let shard { items = items.filter { shard.contains($0.entry?.id ?? $0.location.folderName) } }

        let settings = WorldSettings(kbBinary: KBBinaryLocator.locate(environment: context.environment, repositoryRoot: context.root?.path ?? context.workingDirectory),
                                     timeout: TimeInterval(timeout ?? context.configuration.checkTimeout), hostEnvironment: context.environment)
        let checker = EntryChecker(settings: settings)
        if context.verbose {
            let source = context.root?.configurationFile == nil ? "default" : "kb.yaml"
            context.stderr.print("jobs: \(jobs ?? context.configuration.checkJobs) (\(jobs == nil ? source : "--jobs")), timeout: \(timeout ?? context.configuration.checkTimeout) s per command (\(timeout == nil ? source : "--timeout"))")
            context.stderr.print("report: \(reportPath.map { EntryLocator.absolute($0, workingDirectory: context.workingDirectory) } ?? context.checkReportPath)")
        }
        let total = items.count
        let stderr = context.stderr
        let style = context.errorStyle
        let showProgress = context.isCapableTerminal(stderr) && format == "text"
        var progress: (@Sendable (Int, EntryCheck) -> Void)? = nil
        if showProgress {
            progress = { (done: Int, entry: EntryCheck) -> Void in
                stderr.write("\r\u{1B}[K[\(done)/\(total)] \(entry.id) \(CheckCommand.colored(entry.verdict, style))")
                if done == total { stderr.write("\r\u{1B}[K") }
                stderr.flush()
            }
        }
        let results = checker.check(items, jobs: jobs ?? context.configuration.checkJobs, progress: progress)
        return CheckReport(checkedAt: CheckReport.timestamp(), entries: results)
    }

    /// Writes the JSON report (and the JUnit one with `--junit`); the error names the file.
    func write(_ report: CheckReport, context: CommandContext) throws {
        let path = reportPath.map { EntryLocator.absolute($0, workingDirectory: context.workingDirectory) } ?? context.checkReportPath
        var files = [(path, { try report.jsonData() })]
        if let junit { files.append((EntryLocator.absolute(junit, workingDirectory: context.workingDirectory), { Data(report.junitXML().utf8) })) }
        for (file, data) in files {
            do {
                try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try data().write(to: URL(fileURLWithPath: file), options: .atomic)
            } catch {
                throw KBError("cannot write the report \(EntryLocator.displayPath(file, workingDirectory: context.workingDirectory)): \(WriteFailure.reason(error, path: file))")
            }
        }
    }

    static func colored(_ verdict: CheckVerdict, _ style: TerminalStyle) -> String {
        switch verdict {
        case .reproduces: return style.green(verdict.rawValue)
        case .stale: return style.red(verdict.rawValue)
        case .broken: return style.magenta(verdict.rawValue)
        case .skipped: return style.yellow(verdict.rawValue)
        }
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(1, width - text.count))
    }

    /// The summary table: entry, verdict, a mark per record, then the reasons.
    static func table(_ report: CheckReport, style: TerminalStyle) -> String {
        guard !report.entries.isEmpty else { return "No entries with scenarios to check." }
        let idWidth = max(5, report.entries.map(\.id.count).max() ?? 0) + 2
        var lines = [style.bold(pad("ENTRY", idWidth) + pad("VERDICT", 12) + "RECORDS")]
        for entry in report.entries {
            let marks = entry.attempts.map { "\($0.verdict.mark) \($0.anchor ?? ($0.scenario.isEmpty ? "(untagged)" : $0.scenario))" }.joined(separator: "  ")
            lines.append(pad(entry.id, idWidth) + colored(entry.verdict, style) + String(repeating: " ", count: max(1, 12 - entry.verdict.rawValue.count)) + marks)
        }
        let explained = report.entries.filter { $0.verdict != .reproduces }
        if !explained.isEmpty {
            lines.append("")
            for entry in explained {
                lines.append("\(entry.id): \(colored(entry.verdict, style)) — \(entry.reason ?? "")")
            }
        }
        let modelRules = NavigationBarRules.sortIDs(report.entries.flatMap { $0.attempts.flatMap(\.rules) })
        if !modelRules.isEmpty {
            lines.append("")
            lines.append(modelNote(modelRules))
        }
        var counts: [String] = []
        for verdict in CheckVerdict.allCases {
            let n = report.entries.filter { $0.verdict == verdict }.count
            if n > 0 { counts.append("\(n) \(verdict.rawValue)") }
        }
        lines.append("")
        lines.append("\(report.entries.count) \(report.entries.count == 1 ? "entry" : "entries") checked: \(counts.joined(separator: ", "))")
        lines.append("  ✓ reproduces  ✗ stale  ! broken  - skipped   (kb check --explain <id> for details)")
        return lines.joined(separator: "\n")
    }

    /// What model-checked results are: "checked against the navigation-bar model (rules …), not a device".
    static func modelNote(_ rules: [String]) -> String {
        "Model-checked: checked against the \(NavigationBarRules.modelName) (rules \(rules.joined(separator: ", "))), not a device (docs/model/navigation-bar.md)."
    }

    /// Every scenario and step of one entry.
    static func explanation(_ entry: EntryCheck, style: TerminalStyle) -> String {
        var lines = ["\(style.bold(entry.id)): \(colored(entry.verdict, style))\(entry.reason.map { " — " + $0 } ?? "")"]
        if let file = entry.scenarioFile { lines.append("  scenario file: \(file)") }
        let modelRules = NavigationBarRules.sortIDs(entry.attempts.flatMap(\.rules))
        if !modelRules.isEmpty { lines.append("  " + modelNote(modelRules)) }
        for attempt in entry.attempts {
            lines.append("")
            lines.append("  \(attempt.verdict.mark) \(style.bold("@" + (attempt.anchor ?? "(no record tag)"))) \(attempt.scenario)\(attempt.line.map { " (line \($0))" } ?? ""): \(colored(attempt.verdict, style))")
            if let message = attempt.message, attempt.verdict != .reproduces {
                lines.append("      " + message.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init)!)
            }
            for step in attempt.steps {
                let mark: String
                switch step.status {
                case .passed: mark = style.green("✓")
                case .failed: mark = style.red("✗")
                case .undefined, .ambiguous: mark = style.magenta("?")
                case .skipped: mark = style.dim("-")
                case .pending: mark = style.yellow("…")
                }
                lines.append("    \(mark) \(step.keyword.map { $0 + " " } ?? "")\(step.text)\(step.line.map { style.dim("  (line \($0))") } ?? "") [\(step.status.rawValue)]")
                if let message = step.message, step.status != .skipped {
                    for line in message.split(separator: "\n", omittingEmptySubsequences: false) { lines.append("        " + line) }
                }
            }
            if !attempt.rules.isEmpty { lines.append("    rules: \(attempt.rules.joined(separator: ", "))") }
            if let trace = attempt.trace, !trace.isEmpty {
                lines.append("    rule trace:")
                for line in trace { lines.append("      " + line) }
            }
        }
        return lines.joined(separator: "\n")
    }
}
