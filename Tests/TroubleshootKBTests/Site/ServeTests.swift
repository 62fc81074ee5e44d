import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands
#if canImport(Glibc)
import Glibc
#endif

/// `kb serve`: the preview server and its rebuild loop, driven as a user drives them.
@Suite(.serialized) struct ServeTests {
    /// A GET over a plain socket (status, body); nil when nothing answers.
    static func get(_ port: Int, _ path: String) -> (status: Int, body: String)? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return nil }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { break }
            response += buffer[0..<n]
        }
        let text = String(decoding: response, as: UTF8.self)
        guard let statusLine = text.split(separator: "\r\n").first, let code = Int(statusLine.split(separator: " ").dropFirst().first ?? "") else { return nil }
        let body = text.range(of: "\r\n\r\n").map { String(text[$0.upperBound...]) } ?? ""
        return (code, body)
    }

    static func version(_ port: Int) -> (Int, String?) {
        guard let (_, body) = get(port, "/__kb/status"),
              let json = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] else { return (0, nil) }
        return (json["version"] as? Int ?? 0, json["error"] as? String)
    }

    @Test(.enabled(if: InstallTests.hasBinary, "no kb binary (swift build builds .build/debug/kb)"))
    func previewRebuildsReloadsAndKeepsTheLastGoodSite() throws {
        let directory = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(directory) }
        #expect(TestSupport.kb(["init", directory, "--lang", "en"], in: "/").code == 0)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: InstallTests.binary!)
        process.arguments = ["serve", "--port", "0"]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": directory, "NO_COLOR": "1"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        // The first line says where: "Serving … at http://127.0.0.1:PORT/ (Ctrl-C to stop)".
        let firstLine = TestSupport.read(out, until: "\n")
        let port = try #require(firstLine.firstMatch(of: /127\.0\.0\.1:(\d+)\//).flatMap { Int($0.1) }, "\(firstLine)")

        let home = try #require(Self.get(port, "/"))
        #expect(home.status == 200 && home.body.contains("sort puts v1.10 before v1.9"))
        #expect(home.body.contains("/__kb/status"), "pages carry the reload client")
        #expect(Self.version(port).0 == 1)

        // Outside the site: refused.
        #expect(Self.get(port, "/../etc/passwd")?.status == 403)
        #expect(Self.get(port, "/%2e%2e/%2e%2e/etc/passwd")?.status == 403)
        #expect(Self.get(port, "/no-such-page.html")?.status == 404)

        // An edit: the entry page and the home page show it within a second, and the version moves on.
        let file = directory + "/entries/example-sort-version-order/entry.md"
        let original = try String(contentsOfFile: file, encoding: .utf8)
        try original.replacingOccurrences(of: "title: \"sort puts v1.10 before v1.9\"", with: "title: \"sort puts v1.10 before v1.9, edited\"")
            .write(toFile: file, atomically: true, encoding: .utf8)
        let edited = Date()
        var seconds = 0.0
        while Self.version(port).0 < 2 && Date().timeIntervalSince(edited) < 5 { usleep(20_000) }
        seconds = Date().timeIntervalSince(edited)
        print("kb serve: rebuilt and visible \(String(format: "%.2f", seconds)) s after the edit")
        #expect(seconds < 1.0, "the rebuild took \(seconds) s to show")
        #expect(Self.get(port, "/entries/example-sort-version-order.html")?.body.contains("<title>sort puts v1.10 before v1.9, edited") == true)
        #expect(Self.get(port, "/")?.body.contains("sort puts v1.10 before v1.9, edited") == true)

        // A change that breaks the front matter: the error is served to the overlay, the last good page stays.
        try original.replacingOccurrences(of: "id: example-sort-version-order", with: "id: [unclosed")
            .write(toFile: file, atomically: true, encoding: .utf8)
        let broken = Date()
        var error: String? = nil
        while error == nil && Date().timeIntervalSince(broken) < 5 { usleep(20_000); error = Self.version(port).1 }
        let message = try #require(error)
        #expect(message.contains("entries/example-sort-version-order/entry.md:3:6: error: invalid YAML in front matter"), "\(message)")
        #expect(Self.version(port).0 == 2)
        #expect(Self.get(port, "/entries/example-sort-version-order.html")?.body.contains("<title>sort puts v1.10 before v1.9, edited") == true)

        // Fixed again: the error goes, a new version is served.
        try original.write(toFile: file, atomically: true, encoding: .utf8)
        let fixed = Date()
        while Self.version(port).0 < 3 && Date().timeIntervalSince(fixed) < 5 { usleep(20_000) }
        let (finalVersion, finalError) = Self.version(port)
        #expect(finalVersion == 3 && finalError == nil)

        // Ctrl-C stops cleanly.
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let rest = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(rest.contains("stopped"))
    }

    /// Ctrl-C, SIGTERM and SIGHUP (a closed terminal) each stop the server between rebuilds: exit
    /// 0, "stopped", the port closed and the temporary workspace gone. (Each signal is sent only
    /// after the first build, whose interruption handling must not leave it ignored.)
    @Test(.enabled(if: InstallTests.hasBinary, "no kb binary (swift build builds .build/debug/kb)"), arguments: [SIGINT, SIGTERM, SIGHUP])
    func signalsStopTheServer(_ signal: Int32) throws {
        let directory = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(directory) }
        #expect(TestSupport.kb(["init", directory, "--lang", "en"], in: "/").code == 0)
        let workspaces = directory + "/tmp"
        try FileManager.default.createDirectory(atPath: workspaces, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: InstallTests.binary!)
        process.arguments = ["serve", "--port", "0"]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": directory, "NO_COLOR": "1", "TMPDIR": workspaces + "/"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let firstLine = TestSupport.read(out, until: "\n")
        let port = try #require(firstLine.firstMatch(of: /127\.0\.0\.1:(\d+)\//).flatMap { Int($0.1) }, "\(firstLine)")
        #expect(Self.get(port, "/")?.status == 200)
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspaces).contains { $0.hasPrefix("kb-serve-") })
        kill(process.processIdentifier, signal)
        let sent = Date()
        while process.isRunning && Date().timeIntervalSince(sent) < 5 { usleep(20_000) }
        #expect(!process.isRunning, "kb serve still runs 5 s after signal \(signal)")
        guard !process.isRunning else { return }
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        let rest = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(rest.contains("stopped"))
        #expect(Self.get(port, "/") == nil, "the port still answers")
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspaces).filter { $0.hasPrefix("kb-serve-") } == [])
    }

    /// A symbolic link in the site that leads out of it is refused; one inside is served.
    @Test func symbolicLinksOutAreRefused() throws {
        let directory = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(directory) }
        TestSupport.write("<html><body>home</body></html>", to: directory + "/site/index.html")
        TestSupport.write("secret", to: directory + "/outside.txt")
        try FileManager.default.createSymbolicLink(atPath: directory + "/site/out.txt", withDestinationPath: directory + "/outside.txt")
        try FileManager.default.createSymbolicLink(atPath: directory + "/site/home.html", withDestinationPath: directory + "/site/index.html")
        let server = try PreviewServer(root: directory + "/site", host: "127.0.0.1", port: 0)
        defer { server.stop() }
        #expect(server.response(for: "/out.txt").0 == 403)
        #expect(server.response(for: "/home.html").0 == 200)
        #expect(server.response(for: "/").0 == 200)
        #expect(String(decoding: server.response(for: "/").2, as: UTF8.self).contains("kb-serve-scroll"))
        #expect(server.response(for: "/a/../../outside.txt").0 == 403)
    }
}
