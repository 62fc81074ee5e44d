import Foundation
import KBCore
import KBSearch
#if canImport(Glibc)
import Glibc
#endif

/// `kb search`'s side of the search server (`SearchServer`): asks the server of its cache
/// folder, and starts one in the background where a search without it is slow.
///
/// `KB_SEARCH_SERVER` chooses: `auto` (the default) uses a running server and, when `kb search`
/// runs in a terminal (its standard error is one, so the note that says so is seen), starts one
/// after a search in a knowledge base of `autoStartEntries` entries or more; `on` starts one at
/// any size and from scripts too; `off` neither uses nor starts one.
struct SearchServerClient {
    enum Mode: String {
        case auto, on, off
    }

    /// From this many entries, a search without a server spends most of its time checking the
    /// entry files (about 2 µs of kernel time per file here: 40 ms at 20,000 entries).
    static let autoStartEntries = 20_000
    /// How long a server started by `kb search` waits for the next search before it stops.
    static let autoIdleTimeout = 900

    let mode: Mode
    let paths: SearchServerPaths
    let context: CommandContext

    /// Nil when the environment turns the server off or the cache folder's path does not fit a socket.
    init?(context: CommandContext) {
        let value = context.environment["KB_SEARCH_SERVER"].map { $0.lowercased() } ?? ""
        if let known = Mode(rawValue: value.isEmpty ? "auto" : value) {
            mode = known
        } else {
            context.stderr.print("warning: KB_SEARCH_SERVER=\(value) is not auto, on or off; auto is used")
            mode = .auto
        }
        paths = SearchServerPaths(cacheDirectory: context.cacheDirectory)
        self.context = context
        guard mode != .off, UnixSocket.fits(paths.socket) else { return nil }
    }

    /// The server's reply to `request`, or nil when no server listens or it stopped before
    /// replying. A search the server declined is searched by the client itself.
    func ask(_ kind: SearchServerRequest.Kind, search: SearchServerRequest.Search? = nil) -> SearchServerReply? {
        guard let socket = UnixSocket.connect(to: paths.socket) else { return nil }
        // A server that is rebuilding a large index takes a while; one that stopped answering does not hold the client forever.
        socket.setTimeout(seconds: 600)
        let request = SearchServerRequest(kind: kind, version: TroubleshootKBVersion.string,
                                          executable: SearchServerRequest.executableIdentity, entriesDirectory: context.entriesDirectory,
                                          cacheDirectory: context.cacheDirectory, search: search)
        guard (try? socket.send(message: request)) != nil,
              let reply = try? socket.receive(SearchServerReply.self) else { return nil }
        if reply.status == .declined, context.verbose {
            context.stderr.print(context.errorStyle.dim("search server (pid \(reply.pid)) declined: \(reply.reason ?? "")"))
        }
        return reply
    }

    /// Whether a server holds the cache folder's lock: one that is starting (it takes the lock
    /// before it listens) or one that did not answer; no other is started then.
    func serverHoldsTheLock() -> Bool {
        let fd = open(paths.lock, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { return true }
        flock(fd, LOCK_UN)
        return false
    }

    /// Starts `kb index --watch` in the background when the mode asks for it (at this size, and
    /// in a terminal unless `on`) and this process is `kb` itself (not a test calling the
    /// command); says so on standard error.
    func startIfWorthwhile(documentCount: Int) {
        guard mode == .on || (mode == .auto && documentCount >= Self.autoStartEntries && context.stderr.isTerminal),
              let executable = context.executablePath, !serverHoldsTheLock() else { return }
        var arguments = ["index", "--watch", "--idle-timeout", "\(Self.autoIdleTimeout)"]
        if let root = context.root?.path { arguments += ["--root", root] }
        do {
            let pid = try DetachedProcess.spawn(executable: executable, arguments: arguments, log: paths.log)
            context.stderr.print(context.errorStyle.dim(
                "started a search server (pid \(pid)) that keeps the index of these \(documentCount) entries in memory for the next searches; "
                + "it stops after \(Self.autoIdleTimeout / 60) minutes without one ('kb index --stop' stops it, KB_SEARCH_SERVER=off turns this off)"))
        } catch {
            context.stderr.print(context.errorStyle.dim("could not start a search server: \(error)"))
        }
    }
}
