import Foundation
import Dispatch
import Synchronization
import KBCore
import KBSearch
import KBScenarios
import KBSite

/// `kb serve`: the site built into a temporary folder and served on loopback, rebuilt when an
/// entry, the glossary, kb.yaml or the theme changes; open pages reload themselves.
public struct ServeCommand: KBCommand {
    public static let portOption = CommandOption(["--port"], value: "port", help: "The port (default: 8000; 0 picks a free one).")
    public static let hostOption = CommandOption(["--host"], value: "address", help: "The IPv4 address to listen on (default: 127.0.0.1; 0.0.0.0 for every interface).")
    public static let openOption = CommandOption(["--open"], help: "Open the home page in the default browser (xdg-open or open).")

    public static let configuration = CommandConfiguration(
        name: "serve",
        abstract: "Preview the site while writing: serve it locally and rebuild and reload on every change.",
        discussion: """
        Builds the site into a temporary folder and serves it over HTTP (loopback by default). The \
        entries, the glossary, kb.yaml and the theme folder are watched; a change rebuilds the site \
        and open pages reload at the same scroll position. When a change does not build (a lint \
        error), the error is printed here and shown over the page, and the last good site stays \
        served. Paths outside the site (.., symbolic links out) are refused. Ctrl-C stops.
        """,
        options: [portOption, hostOption, openOption]
    )

    public let port: Int
    public let host: String
    public let open: Bool

    public init(_ arguments: ParsedArguments) throws {
        guard arguments.positionals.isEmpty else { throw UsageError("unexpected argument '\(arguments.positionals[0])'") }
        port = try arguments.int(Self.portOption, default: 8000, range: 0...65_535)
        host = arguments.value(Self.hostOption) ?? "127.0.0.1"
        // A mistyped address is a usage error, found before anything is built.
        if let problem = PreviewServer.problem(withHost: host) { throw UsageError(problem) }
        open = arguments.flag(Self.openOption)
    }

    public func run(_ context: CommandContext) throws -> Int32 {
        let fm = FileManager.default
        let workspace = NSTemporaryDirectory() + "kb-serve-" + UUID().uuidString
        let output = workspace + "/site"
        try fm.createDirectory(atPath: workspace, withIntermediateDirectories: true)
        defer { try? fm.removeItem(atPath: workspace) }
        SiteWriter.Interruption.removeOnInterruption(workspace)
        // Ctrl-C, SIGTERM and SIGHUP (the terminal closed) between builds end the loop below
        // (checked before serving too, for a signal during the first build's reading); the
        // server and the temporary folder go with it. During a build's writing they end the
        // process at once, with the workspace removed (`SiteWriter.Interruption`).
        let stop = Mutex(false)
        SiteWriter.Interruption.whenIdle { _ in stop.withLock { $0 = true } }
        defer { SiteWriter.Interruption.whenIdle(nil) }
        let theme = context.environment["KB_SITE"].map { EntryLocator.absolute($0, workingDirectory: context.workingDirectory) } ?? context.root?.themeDirectory
        let options = SiteBuilder.Options(
            entriesDirectory: context.entriesDirectory, assetsDirectory: theme, outputDirectory: output,
            workingDirectory: context.workingDirectory, checkReportPath: context.checkReportPath,
            baseURL: nil, settings: SiteSettings(context.configuration), incremental: true)
        let stdout = context.stdout, stderr = context.stderr, style = context.errorStyle

        /// Builds the site; nil on success, else what went wrong (the lint errors and the failure).
        func build() -> String? {
            let errors = Mutex<[String]>([])
            let builder = SiteBuilder(options: options, report: { diagnostic in
                guard diagnostic.severity == .error else { return }
                errors.withLock { $0.append(diagnostic.formatted) }
                stderr.printLine { LintCommand.format(diagnostic, style: style, into: &$0) }
            })
            do {
                _ = try builder.build()
                return nil
            } catch {
                let failure = (error as? SiteBuildError).map { "build failed at \($0.step.rawValue): \($0.path): \($0.message)" } ?? "\(error)"
                stderr.print("Error: " + failure)
                return (errors.withLock { $0 } + [failure]).joined(separator: "\n")
            }
        }

        var error = build()
        if stop.withLock({ $0 }) {
            stdout.print("stopped")
            return ExitCode.success
        }
        if error != nil && !fm.fileExists(atPath: output + "/index.html") {
            // Nothing good to serve yet: a page that says so, which the error overlay covers.
            try fm.createDirectory(atPath: output, withIntermediateDirectories: true)
            try Data("<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>kb serve</title></head>\n<body><h1>kb serve</h1><p>The site does not build yet; fix the error below and this page reloads.</p></body>\n</html>\n".utf8)
                .write(to: URL(fileURLWithPath: output + "/index.html"))
        }
        let server = try PreviewServer(root: output, host: host, port: port)
        if let error { server.update(error: error) }
        server.start()
        let address = "http://\(host == "0.0.0.0" ? "127.0.0.1" : host):\(server.port)/"
        stdout.print("Serving the site of \(context.root?.path ?? context.workingDirectory) at \(address) (Ctrl-C to stop)")
        stdout.flush()
        stderr.flush()
        if open {
            let opener = Process()
            opener.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            opener.arguments = [FileManager.default.isExecutableFile(atPath: "/usr/bin/open") ? "open" : "xdg-open", address]
            try? opener.run()
        }

        var watched = [context.entriesDirectory]
        if let file = context.root?.configurationFile { watched.append(file) }
        if let theme { watched.append(theme) }
        var snapshot = SourceSnapshot.take(watched)
        while !stop.withLock({ $0 }) {
            usleep(250_000)
            let now = SourceSnapshot.take(watched)
            guard now != snapshot else { continue }
            snapshot = now
            let started = Date()
            error = build()
            server.update(error: error)
            if error == nil {
                stdout.print(String(format: "rebuilt in %.2f s", Date().timeIntervalSince(started)))
            } else {
                stdout.print("the change does not build; still serving the last good site")
            }
            stdout.flush()
            stderr.flush()
        }
        server.stop()
        stdout.print("stopped")
        return ExitCode.success
    }
}
