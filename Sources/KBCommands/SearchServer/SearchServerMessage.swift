import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What `kb search` asks a search server (JSON in one frame, `UnixSocket`).
struct SearchServerRequest: Codable, Sendable {
    enum Kind: String, Codable, Sendable { case search, status, stop }

    var kind: Kind
    /// The client's `kb` version: a server of another version declines (its index format,
    /// ranking or output may differ) and is told to stop.
    var version: String
    /// The executable the client runs (`executableIdentity`): a server built otherwise, even
    /// of the same version (a developer's new build), declines and stops.
    var executable: String
    /// The entries and cache folders the client resolved: the server answers only for the
    /// knowledge base it watches.
    var entriesDirectory: String
    var cacheDirectory: String
    var search: Search?

    /// The inode, size and modification time of the running executable (`/proc/self/exe`).
    static let executableIdentity: String = {
        var info = stat()
        guard stat("/proc/self/exe", &info) == 0 else { return "unknown" }
        return "\(info.st_ino)-\(info.st_size)-\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }()

    /// A search, as the client's command line gave it, and how to print it.
    struct Search: Codable, Sendable {
        var query: String
        var lang: String?
        var tag: String?
        var status: String?
        var limit: Int
        var format: String
        var explain: Bool
        var workingDirectory: String
        var stdoutIsTerminal: Bool
        var stderrIsTerminal: Bool
        var noColor: String?
        var verbose: Bool
    }
}

/// A search server's answer.
struct SearchServerReply: Codable, Sendable {
    enum Status: String, Codable, Sendable {
        /// The command ran: print `stdout` and `stderr`, exit with `exitCode`.
        case answered
        /// Not for this server (another version or knowledge base, or it can no longer tell
        /// what changed): the client searches itself.
        case declined
        /// `status` and `stop`.
        case done
    }

    var status: Status
    var pid: Int32
    var reason: String? = nil
    var exitCode: Int32 = 0
    var stdout: String = ""
    var stderr: String = ""
    /// `status`: entries in the index and folders watched.
    var documentCount: Int? = nil
    var watchCount: Int? = nil
    var searches: Int? = nil
}

extension UnixSocket {
    func send<Message: Encodable>(message: Message) throws {
        try send(Array(try JSONEncoder().encode(message)))
    }

    func receive<Message: Decodable>(_ type: Message.Type) throws -> Message? {
        guard let bytes = try receive() else { return nil }
        return try JSONDecoder().decode(type, from: Data(bytes))
    }
}
