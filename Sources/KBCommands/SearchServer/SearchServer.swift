import Foundation
import KBCore
import KBSearch
import KBSite
#if canImport(Glibc)
import Glibc
#endif

/// `kb index --watch`: keeps a knowledge base's search index open in memory and answers
/// `kb search` over a Unix socket in the cache folder (`search.sock`), so that a search in a
/// large knowledge base neither stats every entry file nor reads the index again
/// (docs/search.md §12.1).
///
/// Freshness: an `EntriesWatcher` is set up before the index is first opened, so every change
/// after that first check is an event in its queue. Before each search the queue is read; if
/// it holds anything that may matter, the index is opened again through `SearchIndexStore.open`
/// (the same check and rebuild as without a server). The watcher cannot miss a change made before
/// the client connected, because the kernel queues the event within the system call that made it.
///
/// One server per cache folder (an exclusive `flock` on `search.lock`); it answers one client at
/// a time, only for its own entries and cache folders and its own `kb` version, and stops on
/// request (`kb index --stop`), after `idleTimeout` seconds without a request, or when it can no
/// longer tell what changed (the entries folder moved, a queue it could not follow).
final class SearchServer {
    let context: CommandContext
    let store: SearchIndexStore
    let paths: SearchServerPaths
    let idleTimeout: Double?
    private let listener: UnixSocket
    private let lock: Int32
    private let watcher: EntriesWatcher
    private var opened: (index: SearchIndex, freshness: SearchIndexStore.Freshness, diagnostics: [Diagnostic])
    /// Events came since the index was last checked.
    private var changed = false
    /// Searches answered (for `status`).
    private(set) var searches = 0
    /// The entries folder with its links resolved when the server started: a link that now
    /// points elsewhere makes the server stop (it watches the folder it pointed to).
    private let resolvedEntries: String
    /// SIGINT, SIGTERM and SIGHUP write their number here, and `run()` returns, so that the
    /// socket goes with the server (`deinit`) instead of being left behind.
    private let signals: SignalPipe

    /// Takes the cache folder's lock, listens on its socket, starts watching the entries and
    /// opens the index (building it when needed). Throws when another server holds the lock.
    init(context: CommandContext, idleTimeout: Double?) throws {
        self.context = context
        self.idleTimeout = idleTimeout
        paths = SearchServerPaths(cacheDirectory: context.cacheDirectory)
        resolvedEntries = URL(fileURLWithPath: context.entriesDirectory).resolvingSymlinksInPath().path
        store = SearchIndexStore(entriesDirectory: context.entriesDirectory, cacheDirectory: paths.indexDirectory,
                                 workingDirectory: context.workingDirectory, linter: .standard)
        guard UnixSocket.fits(paths.socket) else {
            throw KBError("the cache folder's path is too long for a socket (\(paths.socket.utf8.count) bytes, at most 107); set KB_CACHE to a shorter one")
        }
        try FileManager.default.createDirectory(atPath: context.cacheDirectory, withIntermediateDirectories: true)
        lock = Glibc.open(paths.lock, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0 else { throw KBError("cannot open \(paths.lock): \(String(cString: strerror(errno)))") }
        guard flock(lock, LOCK_EX | LOCK_NB) == 0 else {
            close(lock)
            throw KBError("a search server already runs for this knowledge base (\(paths.socket)); 'kb index --stop' stops it")
        }
        do {
            signals = try SignalPipe()
        } catch {
            close(lock)
            throw error
        }
        // From now on (the first index build included) a signal stops the server through `run()`.
        // The process's one set of signal handlers is `SiteWriter.Interruption`'s; the handler
        // holds the pipe, which closes when the handler is taken away and has finished.
        let signals = self.signals
        SiteWriter.Interruption.whenIdle { number in signals.post(number) }
        do {
            // The lock is ours: a socket file left there is a stopped server's.
            unlink(paths.socket)
            listener = try UnixSocket.listen(at: paths.socket)
            // Watched before the first check, so that no change after it goes unseen.
            watcher = try EntriesWatcher(entriesDirectory: context.entriesDirectory)
            opened = try store.open()
        } catch {
            SiteWriter.Interruption.whenIdle(nil)
            unlink(paths.socket)
            close(lock)
            throw error
        }
    }

    deinit {
        SiteWriter.Interruption.whenIdle(nil)
        unlink(paths.socket)
        close(lock)
    }

    var documentCount: Int { opened.index.documentCount }
    var watchCount: Int { watcher.watchCount }
    var freshness: SearchIndexStore.Freshness { opened.freshness }
    var diagnostics: [Diagnostic] { opened.diagnostics }

    /// Answers clients until asked to stop, idle for `idleTimeout`, or unable to follow the
    /// entries; returns why it stopped.
    func run() -> String {
        var lastRequest = Date()
        while true {
            var fds = [pollfd(fd: listener.descriptor, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: watcher.fileDescriptor, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: signals.readEnd, events: Int16(POLLIN), revents: 0)]
            let wait = idleTimeout.map { max(0, Int32(min(($0 - Date().timeIntervalSince(lastRequest)) * 1000, 86_400_000))) } ?? -1
            let ready = poll(&fds, nfds_t(fds.count), wait)
            if ready < 0 {
                if errno == EINTR { continue }
                return "poll failed: \(String(cString: strerror(errno)))"
            }
            if ready == 0, let idleTimeout, Date().timeIntervalSince(lastRequest) >= idleTimeout {
                return "no search for \(Int(idleTimeout)) s"
            }
            if fds[2].revents != 0, let number = signals.take() {
                return "signal \(number == SIGINT ? "INT" : number == SIGTERM ? "TERM" : "HUP")"
            }
            if fds[1].revents != 0, let lost = followChanges() { return lost }
            guard fds[0].revents != 0, let client = listener.accept() else { continue }
            lastRequest = Date()
            if let stop = answer(client) { return stop }
        }
    }

    /// Reads the watcher's queue; the reason to stop when it can no longer be relied on.
    private func followChanges() -> String? {
        switch watcher.changes() {
        case .none: return nil
        case .some: changed = true; return nil
        case .lost(let reason): return reason
        }
    }

    /// Why the server can no longer answer for its entries folder when the path now leads to
    /// another folder (a linked entries folder pointed elsewhere).
    private func movedEntries() -> String? {
        let now = URL(fileURLWithPath: context.entriesDirectory).resolvingSymlinksInPath().path
        return now == resolvedEntries ? nil : "\(context.entriesDirectory) now leads to \(now), not \(resolvedEntries)"
    }

    /// Answers one request; the reason to stop after it, if any.
    private func answer(_ client: UnixSocket) -> String? {
        client.setTimeout(seconds: 30)
        let pid = getpid()
        guard let request = try? client.receive(SearchServerRequest.self) else { return nil }
        func reply(_ reply: SearchServerReply) { try? client.send(message: reply) }
        guard request.version == TroubleshootKBVersion.string, request.executable == SearchServerRequest.executableIdentity else {
            // The client's kb searches itself, and may start a server of its own build.
            reply(SearchServerReply(status: .declined, pid: pid, reason: "this server runs another build of kb (\(TroubleshootKBVersion.string))"))
            return "a client of another build of kb (\(request.version)) came"
        }
        guard request.entriesDirectory == context.entriesDirectory, request.cacheDirectory == context.cacheDirectory else {
            reply(SearchServerReply(status: .declined, pid: pid, reason: "this server watches \(context.entriesDirectory)"))
            return nil
        }
        switch request.kind {
        case .stop:
            reply(SearchServerReply(status: .done, pid: pid))
            return "asked to stop"
        case .status:
            reply(SearchServerReply(status: .done, pid: pid, documentCount: documentCount, watchCount: watchCount, searches: searches))
            return nil
        case .search:
            guard let search = request.search else {
                reply(SearchServerReply(status: .declined, pid: pid, reason: "no search in the request"))
                return nil
            }
            // Whatever was done before this client connected is queued by now.
            if let lost = followChanges() ?? movedEntries() {
                reply(SearchServerReply(status: .declined, pid: pid, reason: lost))
                return lost
            }
            reply(run(search, pid: pid))
            searches += 1
            return nil
        }
    }

    /// Runs `kb search` as the client asked, with this server's index.
    private func run(_ search: SearchServerRequest.Search, pid: Int32) -> SearchServerReply {
        var environment: [String: String] = [:]
        environment["NO_COLOR"] = search.noColor
        var commandContext = CommandContext(workingDirectory: search.workingDirectory,
                                            stdout: OutputStream(capturingAsTerminal: search.stdoutIsTerminal),
                                            stderr: OutputStream(capturingAsTerminal: search.stderrIsTerminal),
                                            environment: environment, readStandardInput: { [] })
        commandContext.root = context.root
        commandContext.verbose = search.verbose
        let exitCode: Int32
        do {
            let command = try SearchCommand(search)
            exitCode = try command.search(commandContext) { try open(forceRebuild: $0, reason: $1) }
        } catch let error as UsageError {
            commandContext.stderr.print("Error: \(error.message)")
            exitCode = ExitCode.usage
        } catch let error as KBError {
            commandContext.stderr.print("Error: \(error.message)")
            exitCode = ExitCode.failure
        } catch {
            commandContext.stderr.print("Error: \(error)")
            exitCode = ExitCode.failure
        }
        return SearchServerReply(status: .answered, pid: pid, exitCode: exitCode,
                                 stdout: commandContext.stdout.text, stderr: commandContext.stderr.text)
    }

    /// The index for one search: the one in memory while no event came since it was checked,
    /// else what `SearchIndexStore.open` makes of the entries now (`forceRebuild` when the
    /// command found it damaged). Reports `.reused` for an index it kept, as a cold search would,
    /// except one built in memory because the entries have errors, which it reports again.
    private func open(forceRebuild: Bool, reason: SearchIndexStore.Freshness?) throws
        -> (index: SearchIndex, freshness: SearchIndexStore.Freshness, diagnostics: [Diagnostic]) {
        if forceRebuild || changed {
            // Cleared first: an event during the check marks it again. A check that failed is
            // made again by the next search.
            changed = false
            do {
                opened = try store.open(forceRebuild: forceRebuild, reason: reason)
            } catch {
                changed = true
                throw error
            }
            return opened
        }
        return opened.freshness == .notSaved || opened.freshness == .notWritable ? opened : (opened.index, .reused, [])
    }
}

/// Where a search server keeps its files in a cache folder.
struct SearchServerPaths {
    let cacheDirectory: String
    var socket: String { cacheDirectory + "/search.sock" }
    var lock: String { cacheDirectory + "/search.lock" }
    var log: String { cacheDirectory + "/search-server.log" }
    var indexDirectory: String { cacheDirectory + "/index" }
}

/// A pipe a signal handler writes a signal's number to, for a `poll` loop to read: closed when
/// the last reference goes, so a handler still running never writes to a closed descriptor.
final class SignalPipe: Sendable {
    let readEnd: Int32
    private let writeEnd: Int32

    init() throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw KBError("cannot make a pipe: \(String(cString: strerror(errno)))") }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        (readEnd, writeEnd) = (ends[0], ends[1])
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// Called from the signal handler.
    func post(_ number: Int32) {
        var byte = UInt8(truncatingIfNeeded: number)
        _ = write(writeEnd, &byte, 1)
    }

    /// The signal posted, if one was.
    func take() -> Int32? {
        var byte: UInt8 = 0
        return read(readEnd, &byte, 1) == 1 ? Int32(byte) : nil
    }
}
