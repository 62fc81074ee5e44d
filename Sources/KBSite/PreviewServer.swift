import Foundation
import Dispatch
import Synchronization
import KBCore
import KBSearch
import KBScenarios
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `kb serve`'s server: serves a built site over HTTP/1.1 from one folder (GET and HEAD only),
/// refusing any path that leaves it (`..`, a symbolic link out), and adds to every HTML page a
/// small script that polls `/__kb/status` and reloads the page, keeping its scroll position,
/// when the site was rebuilt — or shows the build error over the page while the last good
/// site stays served.
public final class PreviewServer: Sendable {
    /// What the pages poll: the build's number and, when the last rebuild failed, why.
    public struct Status: Sendable, Equatable {
        public var version: Int
        public var error: String?
    }

    let root: String
    private let listener: Int32
    public let port: Int
    private let status = Mutex(Status(version: 1, error: nil))
    private let stopped = Mutex(false)
    private let connections = DispatchQueue(label: "kb.serve.connections", attributes: .concurrent)

    /// What is wrong with `host` as an address to listen on, or nil when it is an IPv4 address.
    package static func problem(withHost host: String) -> String? {
        var address = in_addr()
        return inet_pton(AF_INET, host, &address) == 1 ? nil : "'\(host)' is not an IPv4 address (use 127.0.0.1, or 0.0.0.0 for every interface)"
    }

    /// Binds `host:port` (port 0 picks a free one) for the site in `root`.
    public init(root: String, host: String, port: Int) throws {
        self.root = (root as NSString).resolvingSymlinksInPath
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw KBError("cannot open a socket: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            close(fd)
            throw KBError(Self.problem(withHost: host)!)
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw KBError("cannot listen on \(host):\(port): \(reason)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        self.port = Int(UInt16(bigEndian: actual.sin_port))
    }

    /// Records a rebuild: a new version, or the error of a failed one (the old site stays).
    public func update(error: String?) {
        status.withLock { status in
            if let error { status.error = error } else { status = Status(version: status.version + 1, error: nil) }
        }
    }

    public var currentStatus: Status { status.withLock { $0 } }

    /// Accepts connections on a thread of its own until `stop()`.
    public func start() {
        Thread.detachNewThread { [self] in
            while true {
                let client = accept(listener, nil, nil)
                if client < 0 {
                    if stopped.withLock({ $0 }) { return }
                    continue
                }
                connections.async { self.handle(client) }
            }
        }
    }

    public func stop() {
        stopped.withLock { $0 = true }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    // MARK: Requests

    func handle(_ client: Int32) {
        defer { close(client) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var request: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        // The request line and headers, up to the blank line (bodies are not read: GET and HEAD only).
        while request.count < 16_384 {
            let n = read(client, &buffer, buffer.count)
            if n <= 0 { break }
            request += buffer[0..<n]
            if ByteSearch.firstIndex(of: [13, 10, 13, 10], in: request) != nil { break }
        }
        guard let line = String(decoding: request, as: UTF8.self).split(separator: "\r\n").first else { return }
        let parts = line.split(separator: " ")
        guard parts.count >= 2 else { return respond(client, 400, "text/plain", Data("bad request\n".utf8)) }
        let method = String(parts[0])
        guard method == "GET" || method == "HEAD" else {
            return respond(client, 405, "text/plain", Data("only GET and HEAD\n".utf8), head: false)
        }
        let target = String(parts[1])
        let (status, type, body) = response(for: target)
        respond(client, status, type, body, head: method == "HEAD")
    }

    /// Status, content type and body for a request target (tests call this directly).
    func response(for target: String) -> (Int, String, Data) {
        let path = String(target.split(separator: "?", maxSplits: 1).first ?? "/")
        if path == "/__kb/status" {
            let s = currentStatus
            var object: [String: Any] = ["version": s.version]
            if let error = s.error { object["error"] = error }
            let json = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
            return (200, "application/json", json)
        }
        guard let decoded = path.removingPercentEncoding, decoded.hasPrefix("/"), !decoded.contains("\0") else {
            return (400, "text/plain", Data("bad path\n".utf8))
        }
        let segments = decoded.split(separator: "/", omittingEmptySubsequences: true)
        if segments.contains(where: { $0 == ".." || $0 == "." }) {
            return (403, "text/plain", Data("outside the site\n".utf8))
        }
        var file = root + "/" + segments.joined(separator: "/")
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: file, isDirectory: &isFolder), isFolder.boolValue { file += "/index.html" }
        // A symbolic link may not lead out of the site.
        let real = (file as NSString).resolvingSymlinksInPath
        guard real == root || real.hasPrefix(root + "/") else { return (403, "text/plain", Data("outside the site\n".utf8)) }
        guard let data = FileManager.default.contents(atPath: real) else {
            let notFound = FileManager.default.contents(atPath: root + "/404.html") ?? Data("not found\n".utf8)
            return (404, "text/html; charset=utf-8", Self.withReloadScript(notFound))
        }
        let type = Self.contentType(real)
        return (200, type, type.hasPrefix("text/html") ? Self.withReloadScript(data) : data)
    }

    func respond(_ client: Int32, _ status: Int, _ type: String, _ body: Data, head: Bool = false) {
        let reason = [200: "OK", 400: "Bad Request", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed"][status] ?? "OK"
        var header = "HTTP/1.1 \(status) \(reason)\r\nContent-Type: \(type)\r\nContent-Length: \(body.count)\r\n"
        header += "Cache-Control: no-store\r\nConnection: close\r\n\r\n"
        var bytes = [UInt8](header.utf8)
        if !head { bytes += body }
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            sent += n
        }
    }

    static func contentType(_ path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "html": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js": return "text/javascript; charset=utf-8"
        case "json": return "application/json"
        case "xml": return "application/xml; charset=utf-8"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "ico": return "image/x-icon"
        default: return "application/octet-stream"
        }
    }

    /// The reload client, before `</body>`: polls the status; reloads (keeping the scroll position)
    /// on a new version; shows a failed build's error over the page.
    static let reloadScript = """
    <script>(function(){var key='kb-serve-scroll:'+location.pathname,v=null,box=null;
    var y=sessionStorage.getItem(key);if(y!==null){sessionStorage.removeItem(key);window.scrollTo(0,+y);}
    function show(e){if(!box){box=document.createElement('pre');box.id='kb-serve-error';box.setAttribute('role','alert');
    box.style.cssText='position:fixed;left:0;right:0;bottom:0;max-height:50%;overflow:auto;margin:0;padding:1em;background:#7f1d1d;color:#fff;font:13px/1.4 monospace;white-space:pre-wrap;z-index:2147483647';
    document.body.appendChild(box);}box.textContent='kb serve: the last change does not build; this is the last good page.\\n\\n'+e;}
    function poll(){fetch('/__kb/status',{cache:'no-store'}).then(function(r){return r.json();}).then(function(s){
    if(v===null)v=s.version;else if(s.version!==v){sessionStorage.setItem(key,String(window.scrollY));location.reload();return;}
    if(s.error)show(s.error);else if(box){box.remove();box=null;}}).catch(function(){}).then(function(){setTimeout(poll,400);});}
    poll();})();</script>
    """

    static func withReloadScript(_ html: Data) -> Data {
        let text = String(decoding: html, as: UTF8.self)
        guard let range = text.range(of: "</body>", options: .backwards) else { return html + Data(reloadScript.utf8) }
        return Data(text.replacingCharacters(in: range, with: reloadScript + "\n</body>").utf8)
    }
}

/// The files a preview rebuilds on: their paths, sizes and modification times, read again every
/// few hundred milliseconds (no platform file-event API needed; an entries folder is small).
public struct SourceSnapshot: Equatable, Sendable {
    let files: [String: [Int]]

    public static func take(_ paths: [String]) -> SourceSnapshot {
        var files: [String: [Int]] = [:]
        let fm = FileManager.default
        for path in paths {
            var isFolder: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isFolder) else { continue }
            let all = isFolder.boolValue ? (fm.enumerator(atPath: path)?.compactMap { $0 as? String }.map { path + "/" + $0 } ?? []) : [path]
            for file in all {
                guard let attributes = try? fm.attributesOfItem(atPath: file), attributes[.type] as? FileAttributeType != .typeDirectory else { continue }
                let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
                files[file] = [Int(modified * 1_000_000), (attributes[.size] as? Int) ?? 0]
            }
        }
        return SourceSnapshot(files: files)
    }
}
