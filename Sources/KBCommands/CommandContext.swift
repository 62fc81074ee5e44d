import Foundation
import Synchronization
import KBCore
import KBSearch
import KBScenarios
import KBSite
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a command writes: a stream that is either a file descriptor or a buffer (tests).
public final class OutputStream: Sendable {
    /// The file written to, or nil for a stream collecting text in memory.
    private let handle: FileHandle?
    private let buffer = Mutex<[UInt8]>([])
    /// Called once, with `errno`, when a write to the descriptor fails (a closed pipe: `EPIPE`;
    /// a full disk: `ENOSPC`); what is written after that is dropped.
    private let whenWriteFails: (@Sendable (Int32) -> Void)?
    private let failed = Atomic<Bool>(false)
    /// Whether the stream is a terminal (colour and progress are shown only then).
    public let isTerminal: Bool

    /// A stream writing to a file descriptor, buffered until `flush()` or 64 KiB.
    public init(fileDescriptor: Int32, whenWriteFails: (@Sendable (Int32) -> Void)? = nil) {
        handle = FileHandle(fileDescriptor: fileDescriptor, closeOnDealloc: false)
        self.whenWriteFails = whenWriteFails
        isTerminal = isatty(fileDescriptor) == 1
    }

    /// A stream collecting text in memory.
    public init(capturingAsTerminal terminal: Bool = false) {
        handle = nil
        whenWriteFails = nil
        isTerminal = terminal
    }

    public func write(_ text: String) {
        let shouldFlush = buffer.withLock { buffer in
            buffer.append(contentsOf: text.utf8)
            return handle != nil && buffer.count >= 1 << 16
        }
        if shouldFlush { flush() }
    }

    public func print(_ text: String = "") { write(text + "\n") }

    /// Appends a line made in place by `line` (its bytes, without the line break).
    public func printLine(_ line: (inout [UInt8]) -> Void) {
        let shouldFlush = buffer.withLock { buffer in
            line(&buffer)
            buffer.append(UInt8(ascii: "\n"))
            return handle != nil && buffer.count >= 1 << 16
        }
        if shouldFlush { flush() }
    }

    /// Writes what is buffered. A failed write is reported once to `whenWriteFails` (outside the
    /// lock), never trapped on: the throwing `write(contentsOf:)`, not `write(_:)`, which traps.
    public func flush() {
        let error: Int32? = buffer.withLock { buffer in
            guard let handle, !buffer.isEmpty else { return nil }
            defer { buffer.removeAll(keepingCapacity: true) }
            if failed.load(ordering: .relaxed) { return nil }
            do {
                try handle.write(contentsOf: buffer)
                return nil
            } catch {
                failed.store(true, ordering: .relaxed)
                return Self.errorNumber(error)
            }
        }
        if let error { whenWriteFails?(error) }
    }

    /// The `errno` behind a failed write (EIO when Foundation does not say).
    private static func errorNumber(_ error: Error) -> Int32 {
        let error = error as NSError
        if error.domain == NSPOSIXErrorDomain { return Int32(error.code) }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return Int32(underlying.code)
        }
        return EIO
    }

    /// What was written to a capturing stream.
    public var text: String {
        buffer.withLock { String(decoding: $0, as: UTF8.self) }
    }
}

/// Everything a command needs from the outside world, so tests can call commands directly.
public struct CommandContext: Sendable {
    public var workingDirectory: String
    public var stdout: OutputStream
    public var stderr: OutputStream
    public var environment: [String: String]
    /// Reads all of standard input (`kb import -`); tests pass their own text.
    public var readStandardInput: @Sendable () -> [UInt8]
    /// The knowledge base the command works on; set by `KBCommandLine` before the command
    /// runs (nil for commands that need none, or when only `KB_ENTRIES` names the entries).
    public var root: KnowledgeBaseRoot?
    /// `--verbose`: say which knowledge base and settings are used.
    public var verbose = false
    /// The `kb` executable running the command, when it runs as a process (nil when a test calls
    /// the command): what `kb search` starts a search server with.
    public var executablePath: String?

    public init(workingDirectory: String, stdout: OutputStream, stderr: OutputStream, environment: [String: String],
                readStandardInput: @escaping @Sendable () -> [UInt8] = CommandContext.readProcessStandardInput) {
        self.workingDirectory = workingDirectory
        self.stdout = stdout
        self.stderr = stderr
        self.environment = environment
        self.readStandardInput = readStandardInput
    }

    /// All bytes of the process's standard input.
    public static let readProcessStandardInput: @Sendable () -> [UInt8] = {
        [UInt8](FileHandle.standardInput.readDataToEndOfFile())
    }

    /// Whether `stream` is a terminal that takes escape sequences (not `TERM=dumb`, as in
    /// Emacs' shell): colour and progress lines are written only there.
    public func isCapableTerminal(_ stream: OutputStream) -> Bool {
        stream.isTerminal && environment["TERM"] != "dumb"
    }

    /// Styles for standard output: ANSI colour on a capable terminal unless `NO_COLOR` is set.
    public var style: TerminalStyle {
        TerminalStyle(enabled: isCapableTerminal(stdout) && environment["NO_COLOR"].map(\.isEmpty) != false)
    }

    public var errorStyle: TerminalStyle {
        TerminalStyle(enabled: isCapableTerminal(stderr) && environment["NO_COLOR"].map(\.isEmpty) != false)
    }

    /// Where `kb` keeps derived data (search index, check report): `KB_CACHE`, else `.kb` of
    /// the knowledge base root — or, when that cannot be written (a shared read-only checkout),
    /// a folder of the user's cache (`$XDG_CACHE_HOME/kb/…`, `~/.cache/kb/…`) named after the root's path.
    public var cacheDirectory: String {
        if let cache = environment["KB_CACHE"] { return EntryLocator.absolute(cache, workingDirectory: workingDirectory) }
        guard let root else { return EntryLocator.absolute(".kb", workingDirectory: workingDirectory) }
        let fm = FileManager.default
        let writable = fm.fileExists(atPath: root.cacheDirectory) ? fm.isWritableFile(atPath: root.cacheDirectory) : fm.isWritableFile(atPath: root.path)
        if writable { return root.cacheDirectory }
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? environment["HOME"].map { $0 + "/.cache" } ?? NSTemporaryDirectory()
        return (base as NSString).appendingPathComponent("kb/" + Self.cacheName(forRoot: root.path))
    }

    /// The root's whole path as one folder name (`%2Fsrv%2Fteam-kb`), so two roots never share a cache.
    static func cacheName(forRoot path: String) -> String {
        path.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-_."))) ?? "root"
    }

    /// The entries folder: `KB_ENTRIES` (relative to the working directory), else the root's
    /// (`entries:` of kb.yaml, default `entries`).
    public var entriesDirectory: String {
        if let entries = environment["KB_ENTRIES"] { return EntryLocator.absolute(entries, workingDirectory: workingDirectory) }
        return root?.entriesDirectory ?? EntryLocator.absolute("entries", workingDirectory: workingDirectory)
    }

    /// The root's configuration, or the defaults.
    public var configuration: KnowledgeBaseConfiguration { root?.configuration ?? KnowledgeBaseConfiguration() }

    /// The JSON check report `kb check` writes and `kb build` reads.
    public var checkReportPath: String { cacheDirectory + "/check-report.json" }
}

/// ANSI styling that turns into plain text when disabled.
public struct TerminalStyle: Sendable {
    public let enabled: Bool

    func wrap(_ text: String, _ code: String) -> String {
        guard enabled else { return text }
        var output: [UInt8] = []
        wrap(code, into: &output) { $0 += text.utf8 }
        return String(decoding: output, as: UTF8.self)
    }
    /// What `body` appends to `output`, wrapped in the escape codes of `code` when enabled.
    func wrap(_ code: String, into output: inout [UInt8], _ body: (inout [UInt8]) -> Void) {
        if enabled { output += "\u{1B}[\(code)m".utf8 }
        body(&output)
        if enabled { output += "\u{1B}[0m".utf8 }
    }
    public func bold(_ text: String) -> String { wrap(text, "1") }
    public func dim(_ text: String) -> String { wrap(text, "2") }
    public func red(_ text: String) -> String { wrap(text, "31") }
    public func green(_ text: String) -> String { wrap(text, "32") }
    public func yellow(_ text: String) -> String { wrap(text, "33") }
    public func blue(_ text: String) -> String { wrap(text, "34") }
    public func magenta(_ text: String) -> String { wrap(text, "35") }
    public func cyan(_ text: String) -> String { wrap(text, "36") }
}
