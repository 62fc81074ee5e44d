import Foundation
import KBCore
import KBSearch
import KBScenarios
import KBSite

/// `kb lint`: checks entries and prints compiler-style diagnostics.
public struct LintCommand: KBCommand {
    public static let strictOption = CommandOption(["--strict"], help: "Treat warnings as errors.")
    public static let formatOption = CommandOption(["--format"], value: "format", help: "Output format: text or json (default: text).", choices: ["text", "json"])
    public static let listRulesOption = CommandOption(["--list-rules"], help: "Print every rule (id, severity, summary; see docs/lint-rules.md) and lint nothing.")

    public static let configuration = CommandConfiguration(
        name: "lint",
        abstract: "Check entries for format errors and likely mistakes.",
        discussion: "Prints one line per problem: path:line:col: error|warning: message [rule-id]. The rules are in docs/lint-rules.md.",
        arguments: [.init("paths", help: "Entries folders, entry folders or entry.md files (default: entries).", arity: .zeroOrMore, completion: .files)],
        options: [strictOption, formatOption, listRulesOption]
    )

    public let paths: [String]
    public let strict: Bool
    public let format: String
    public let listRules: Bool

    public init(_ arguments: ParsedArguments) throws {
        paths = arguments.positionals
        strict = arguments.flag(Self.strictOption)
        format = try arguments.choice(Self.formatOption, default: "text")
        listRules = arguments.flag(Self.listRulesOption)
    }

    /// Paths named on the command line need no knowledge base around them.
    public var knowledgeBase: KnowledgeBaseRequirement { paths.isEmpty && !listRules ? .required : .optional }
    /// kb.yaml's problems are lint findings: counted, in the JSON, errors under --strict.
    public var reportsConfigurationDiagnostics: Bool { true }

    public func run(_ context: CommandContext) throws -> Int32 {
        if listRules {
            context.stdout.print(LintRuleReference.table)
            return ExitCode.success
        }
        let paths = self.paths.isEmpty ? [context.entriesDirectory] : self.paths
        // Entries are linted as they are parsed and let go: only the diagnostics are kept.
        let loaded = try KnowledgeBaseLoader(workingDirectory: context.workingDirectory, linter: .standard).load(paths: paths, options: .diagnosticsOnly)
        let entryCount = loaded.items.count
        // kb.yaml's problems, the entries', then the glossary of each entries folder linted as a whole.
        var diagnostics = (context.root?.diagnostics ?? []) + (loaded.lintDiagnostics ?? []) + loaded.glossaryDiagnostics
        if strict {
            diagnostics = diagnostics.map { var d = $0; d.severity = .error; return d }
        }
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.count - errors
        if format == "json" {
            let report = LintReport(entries: entryCount, errors: errors, warnings: warnings, diagnostics: diagnostics)
            context.stdout.print(try JSONOutput.string(report))
        } else {
            let style = context.style
            for diagnostic in diagnostics {
                context.stdout.printLine { Self.format(diagnostic, style: style, into: &$0) }
            }
            let summary = "\(entryCount) \(entryCount == 1 ? "entry" : "entries"), \(errors) \(errors == 1 ? "error" : "errors"), \(warnings) \(warnings == 1 ? "warning" : "warnings")"
            (diagnostics.isEmpty ? context.stdout : context.stderr).print(summary)
        }
        return errors > 0 ? ExitCode.failure : ExitCode.success
    }

    struct LintReport: Encodable {
        let entries: Int
        let errors: Int
        let warnings: Int
        let diagnostics: [Diagnostic]
    }

    /// `path:line:col: warning: message [rule-id]` appended to `line` as UTF-8 (without the line
    /// break; written in place: a build replays every warning of an unchanged knowledge base,
    /// thousands of lines).
    static func format(_ diagnostic: Diagnostic, style: TerminalStyle, into line: inout [UInt8]) {
        style.wrap("1", into: &line) { line in
            line += diagnostic.path.utf8
            if let location = diagnostic.location {
                line.append(UInt8(ascii: ":")); line += String(location.line).utf8
                line.append(UInt8(ascii: ":")); line += String(location.column).utf8
            }
            line.append(UInt8(ascii: ":"))
        }
        line.append(UInt8(ascii: " "))
        let isError = diagnostic.severity == .error
        style.wrap(isError ? "31" : "33", into: &line) { line in
            style.wrap("1", into: &line) { line in line += (isError ? "error:" : "warning:").utf8 }
        }
        line.append(UInt8(ascii: " "))
        line += diagnostic.message.utf8
        line.append(UInt8(ascii: " "))
        style.wrap("2", into: &line) { line in
            line.append(UInt8(ascii: "["))
            line += diagnostic.rule.id.utf8
            line.append(UInt8(ascii: "]"))
        }
    }
}

/// Deterministic pretty JSON.
enum JSONOutput {
    static func string<T: Encodable>(_ value: T, pretty: Bool = true) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
