import Foundation
import Dispatch
import Synchronization
import KBCore
import KBSearch
import KBScenarios
import KBSite

/// `kb build`: the static site.
public struct BuildCommand: KBCommand {
    public static let outOption = CommandOption(["--out"], value: "dir", help: "Output folder (default: kb.yaml's 'output' under the root, else _site).")
    public static let baseURLOption = CommandOption(["--base-url"], value: "path-or-url", help: "Where the site is served (/kb/ or https://example.com/kb/); used only in sitemap.xml, feed.xml, canonical links and 404.html (default: kb.yaml's 'base_url').")
    public static let unsafeHTMLOption = CommandOption(["--unsafe-html"], help: "Keep raw HTML written in entries (omitted by default).")
    public static let cleanOption = CommandOption(["--clean"], help: "Build every page and search file again, even over a site kb build made.")
    public static let timingsOption = CommandOption(["--timings"], help: "After the summary, print the seconds each build step took (to standard error).")

    public static let configuration = CommandConfiguration(
        name: "build",
        abstract: "Build the static site (default: _site/).",
        discussion: """
        Reads the entries folder, the check report (.kb/check-report.json) when present, and the
        theme: the built-in one, with the files of kb.yaml's 'theme' folder (or KB_SITE) in place
        of its own. Lint errors stop the build; the previous site is replaced only when the new one
        is complete. Pages link to each other relatively, so the site works on any host, under a
        sub-path and straight from disk. See docs/site.md and docs/configuration.md.

        Over a site it built before, kb build rebuilds only what changed: the pages of the edited
        entries, the lists, symptom pages and related links that show them, and the search files
        their words are in; the result equals a clean build's. It builds everything again when
        entries were added, removed or renamed, when many changed, and when the options, kb.yaml's
        site settings, the theme, the glossary, the check report or kb itself changed.
        """,
        options: [outOption, baseURLOption, unsafeHTMLOption, cleanOption, timingsOption]
    )

    /// `--out`, nil for kb.yaml's output folder.
    public let out: String?
    public let baseURL: String?
    public let unsafeHTML: Bool
    public let timings: Bool
    /// `--clean`: no incremental build.
    public let clean: Bool

    public init(_ arguments: ParsedArguments) throws {
        guard arguments.positionals.isEmpty else {
            throw UsageError("unexpected argument '\(arguments.positionals[0])'")
        }
        out = arguments.value(Self.outOption)
        guard out?.isEmpty != true else { throw UsageError("'\(Self.outOption.key)' needs a folder") }
        baseURL = arguments.value(Self.baseURLOption)
        if let baseURL, BaseURL(parsing: baseURL) == nil {
            throw UsageError("'\(Self.baseURLOption.key)' must be a path starting with / (like /kb/) or an http(s) URL, got '\(baseURL)'")
        }
        unsafeHTML = arguments.flag(Self.unsafeHTMLOption)
        timings = arguments.flag(Self.timingsOption)
        clean = arguments.flag(Self.cleanOption)
    }

    public func run(_ context: CommandContext) throws -> Int32 {
        let workingDirectory = context.workingDirectory
        let configuration = context.configuration
        let theme = context.environment["KB_SITE"].map { EntryLocator.absolute($0, workingDirectory: workingDirectory) } ?? context.root?.themeDirectory
        let output = out.map { EntryLocator.absolute($0, workingDirectory: workingDirectory) }
            ?? context.root?.outputDirectory ?? EntryLocator.absolute(configuration.output, workingDirectory: workingDirectory)
        let options = SiteBuilder.Options(
            entriesDirectory: context.entriesDirectory,
            assetsDirectory: theme,
            outputDirectory: output,
            workingDirectory: workingDirectory,
            checkReportPath: context.checkReportPath,
            baseURL: baseURL ?? configuration.baseURL, unsafeHTML: unsafeHTML,
            settings: SiteSettings(configuration), incremental: !clean)
        if context.verbose {
            context.stderr.print("theme: built-in" + (theme.map { ", files of \($0) in its place" } ?? ""))
            context.stderr.print("output: \(output)")
        }
        let errorStyle = context.errorStyle
        let stderr = context.stderr
        let progress = ProgressLine(stream: stderr, enabled: context.isCapableTerminal(stderr))
        let builder = SiteBuilder(
            options: options,
            report: { diagnostic in
                progress.clear()
                stderr.printLine { LintCommand.format(diagnostic, style: errorStyle, into: &$0) }
            },
            progress: { step, done, total in progress.update(step.rawValue, done, total) })
        let summary: SiteBuilder.Summary
        do {
            summary = try builder.build()
        } catch let error as SiteBuildError {
            progress.clear()
            stderr.print("Error: build failed at \(error.step.rawValue): \(error.path): \(error.message)")
            return ExitCode.failure
        }
        progress.clear()
        let shown = EntryLocator.displayPath(summary.output, workingDirectory: workingDirectory)
        let seconds = String(format: "%.2f", summary.seconds)
        if let update = summary.incremental {
            let changed = update.changedEntries == 0 ? "nothing changed"
                : "\(update.changedEntries) changed \(update.changedEntries == 1 ? "entry" : "entries"), \(update.renderedPages) pages made, "
                  + "\(update.writtenFiles) \(update.writtenFiles == 1 ? "file" : "files") written"
                  + (update.removedFiles > 0 ? ", \(update.removedFiles) removed" : "")
            context.stdout.print("Updated \(summary.entries) \(summary.entries == 1 ? "entry" : "entries") (\(changed)) in \(seconds) s → \(shown)/index.html")
        } else {
            context.stdout.print("Built \(summary.entries) \(summary.entries == 1 ? "entry" : "entries"), \(summary.pages) pages, "
                + "\(Self.formatBytes(summary.bytes)) in \(seconds) s → \(shown)/index.html")
            if context.verbose, !summary.cleanBuildReason.isEmpty {
                context.stderr.print("clean build: \(summary.cleanBuildReason)")
            }
        }
        if timings {
            for (step, seconds) in summary.timings {
                stderr.print(String(format: "%8.3f s  ", seconds) + step)
            }
        }
        return ExitCode.success
    }

    static func formatBytes(_ bytes: Int) -> String {
        if bytes < 1024 { return "\(bytes) bytes" }
        if bytes < 1024 * 1024 { return String(format: "%.1f KiB", Double(bytes) / 1024) }
        return String(format: "%.1f MiB", Double(bytes) / 1024 / 1024)
    }
}

/// A progress line on standard error, redrawn in place at most ten times a second, only on a
/// terminal (nothing is written otherwise, so logs stay clean).
final class ProgressLine: Sendable {
    private let stream: OutputStream
    private let enabled: Bool
    /// When the line was last drawn, and whether it is on the screen.
    private let drawn = Mutex<(time: UInt64, visible: Bool)>((0, false))

    init(stream: OutputStream, enabled: Bool) {
        self.stream = stream
        self.enabled = enabled
    }

    func update(_ step: String, _ done: Int, _ total: Int) {
        guard enabled, total >= 200 else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        drawn.withLock { drawn in
            guard done == total || now - drawn.time > 100_000_000 else { return }
            let percent = total == 0 ? 100 : done * 100 / total
            stream.write("\r\u{1B}[K\(step) \(done)/\(total) (\(percent)%)")
            stream.flush()
            drawn = (now, true)
        }
    }

    func clear() {
        guard enabled else { return }
        drawn.withLock { drawn in
            guard drawn.visible else { return }
            stream.write("\r\u{1B}[K")
            stream.flush()
            drawn.visible = false
        }
    }
}
