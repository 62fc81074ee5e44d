import Foundation
import KBCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A connected or listening Unix-domain stream socket, and the messages `kb` sends over it:
/// frames of a 4-byte big-endian length and that many bytes. The raw memory a socket address
/// needs stays inside this type (`withAddress`); everything else works on byte arrays.
final class UnixSocket {
    let descriptor: Int32

    /// The longest frame either side accepts.
    static let maximumFrame = 64 << 20

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// A socket listening at `path`, which only its owner may connect to (the permissions are
    /// set before it listens, so no one connects in between). Fails when the path is taken; the
    /// caller removes a stale one first.
    static func listen(at path: String) throws -> UnixSocket {
        let socket = try make()
        let bound = try withAddress(path) { bind(socket.descriptor, $0, $1) }
        guard bound == 0 else { throw KBError("cannot listen at \(path): \(String(cString: strerror(errno)))") }
        guard chmod(path, 0o600) == 0 else { throw KBError("cannot set the permissions of \(path): \(String(cString: strerror(errno)))") }
        guard Glibc.listen(socket.descriptor, 64) == 0 else { throw KBError("cannot listen at \(path): \(String(cString: strerror(errno)))") }
        return socket
    }

    /// A socket connected to the listener at `path`, or nil when none listens there.
    static func connect(to path: String) -> UnixSocket? {
        guard let socket = try? make(),
              let connected = try? withAddress(path, { Glibc.connect(socket.descriptor, $0, $1) }), connected == 0 else { return nil }
        return socket
    }

    /// The next connection, or nil when `accept` fails (the listener stays usable).
    func accept() -> UnixSocket? {
        let fd = Glibc.accept(descriptor, nil, nil)
        guard fd >= 0 else { return nil }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return UnixSocket(descriptor: fd)
    }

    /// Reads and writes give up after this long without progress (a peer that stopped).
    func setTimeout(seconds: Int) {
        var time = timeval(tv_sec: seconds, tv_usec: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends one frame.
    func send(_ message: [UInt8]) throws {
        let length = UInt32(message.count)
        try writeAll([UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + message)
    }

    /// Receives one frame; nil when the peer closed the connection before a whole frame came.
    func receive() throws -> [UInt8]? {
        guard let head = try readExactly(4) else { return nil }
        let length = Int(head[0]) << 24 | Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3])
        guard length <= Self.maximumFrame else { throw KBError("message of \(length) bytes refused (at most \(Self.maximumFrame))") }
        return try readExactly(length)
    }

    private func writeAll(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0 {
                if errno == EINTR { continue }
                throw KBError("cannot send: \(String(cString: strerror(errno)))")
            }
            offset += written
        }
    }

    private func readExactly(_ count: Int) throws -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let got = bytes[offset...].withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if got < 0 {
                if errno == EINTR { continue }
                throw KBError("cannot receive: \(String(cString: strerror(errno)))")
            }
            if got == 0 { return nil }
            offset += got
        }
        return bytes
    }

    private static func make() throws -> UnixSocket {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw KBError("cannot make a socket: \(String(cString: strerror(errno)))") }
        return UnixSocket(descriptor: fd)
    }

    /// Whether `path` fits in a socket address (108 bytes on Linux, with its NUL).
    static func fits(_ path: String) -> Bool {
        path.utf8.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path)
    }

    /// Calls `body` with the address of `path`, as `bind` and `connect` take it.
    private static func withAddress(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) throws -> Int32 {
        guard fits(path) else { throw KBError("socket path too long: \(path)") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path.utf8)
            raw[path.utf8.count] = 0
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }
}
