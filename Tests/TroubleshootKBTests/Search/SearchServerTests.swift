import Foundation
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBCommands

/// The search server (`kb index --watch`, docs/search.md §12.1): it answers `kb search` from
/// memory, and what it answers follows every change the cold check follows — the same changes
/// as `SearchIndexFreshnessTests`, each searched through the server.
@Suite(.serialized) struct SearchServerTests {
    /// `kb index --watch` on a thread of the test process, as the command runs it.
    final class RunningServer: Sendable {
        let directory: String
        let finished = DispatchSemaphore(value: 0)
        private let outcome = Mutex<(code: Int32, stdout: String, stderr: String)?>(nil)

        init(in directory: String, arguments: [String] = []) throws {
            self.directory = directory
            Thread.detachNewThread { [self] in
                let result = TestSupport.kb(["index", "--watch"] + arguments, in: directory)
                outcome.withLock { $0 = result }
                finished.signal()
            }
            // Ready once it answers (a client waits in the socket's backlog while it opens the index).
            let deadline = Date().addingTimeInterval(20)
            while status() == nil {
                if let done = outcome.withLock({ $0 }) { throw KBError("the server did not start: \(done.stdout) \(done.stderr)") }
                guard Date() < deadline else { throw KBError("the server did not answer within 20 s") }
                usleep(20_000)
            }
        }

        /// `kb index --status`: the searches it answered, or nil when none answers.
        func status() -> Int? {
            let result = TestSupport.kb(["index", "--status"], in: directory)
            guard result.code == 0, let range = result.stdout.range(of: #"(\d+) searches answered"#, options: .regularExpression) else { return nil }
            return Int(result.stdout[range].split(separator: " ")[0])
        }

        /// Waits until the server has stopped; what `kb index --watch` printed and returned.
        func stopped(within seconds: Double = 20) -> (code: Int32, stdout: String, stderr: String)? {
            guard finished.wait(timeout: .now() + seconds) == .success else { return nil }
            return outcome.withLock { $0 }
        }

        func stop() -> (code: Int32, stdout: String, stderr: String)? {
            _ = TestSupport.kb(["index", "--stop"], in: directory)
            return stopped()
        }
    }

    static let throughServer = ["KB_SEARCH_SERVER": "on"]

    /// `kb search <query> --format json` through the server: the ids it returns.
    static func check(_ expectation: SearchIndexFreshnessTests.Expectation, in dir: String,
                      sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let result = TestSupport.kb(["search", expectation.query, "--format", "json"], in: dir, environment: throughServer)
        #expect(result.code == (expectation.ids.isEmpty ? 1 : 0), "\(expectation.query): \(result.stderr)", sourceLocation: sourceLocation)
        let hits = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(hits.compactMap { $0["id"] as? String } == expectation.ids, "\(expectation.query)", sourceLocation: sourceLocation)
    }

    @Test(arguments: SearchIndexFreshnessTests.changes)
    func searchThroughTheServerFollowsTheChange(_ change: SearchIndexFreshnessTests.Change) throws {
        let dir = try SearchIndexFreshnessTests.makeKnowledgeBase()
        defer { TestSupport.remove(dir) }
        let server = try RunningServer(in: dir)
        var searches = 0
        for expectation in SearchIndexFreshnessTests.initially {
            try Self.check(expectation, in: dir)
            searches += 1
        }
        for step in change.steps {
            // Searched at once after the change, as a user who saves and searches would.
            try step.apply(dir)
            for expectation in step.expectations {
                try Self.check(expectation, in: dir)
                searches += 1
            }
        }
        // Every search was the server's (a client that found no server would have searched itself).
        #expect(server.status() == searches)
        let stopped = try #require(server.stop())
        #expect(stopped.code == 0)
        #expect(stopped.stdout.contains("search server stopped: asked to stop"), "\(stopped.stdout)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/.kb/search.sock"))
    }

    @Test func aServerAnswersAsTheCommandDoesWithoutIt() throws {
        let dir = try SearchIndexFreshnessTests.makeKnowledgeBase()
        defer { TestSupport.remove(dir) }
        let server = try RunningServer(in: dir)
        defer { _ = server.stop() }
        for arguments in [["search", "颜色"], ["search", "颜色", "--explain"], ["search", "颜色", "--format", "json"],
                          ["search", "hourglass"], ["search", "沙漏", "--lang", "ko"], ["--verbose", "search", "企鹅", "--limit", "1"]] {
            let direct = TestSupport.kb(arguments, in: dir, environment: ["KB_SEARCH_SERVER": "off"])
            let served = TestSupport.kb(arguments, in: dir, environment: Self.throughServer)
            #expect(served.code == direct.code, "\(arguments)")
            #expect(served.stdout == direct.stdout, "\(arguments)")
            let note = served.stderr.split(separator: "\n").filter { !$0.hasPrefix("answered by the search server") }
            #expect(note == direct.stderr.split(separator: "\n"), "\(arguments)")
        }
        #expect(server.status() == 6)
    }

    @Test func oneServerPerKnowledgeBase() throws {
        let dir = try SearchIndexFreshnessTests.makeKnowledgeBase()
        defer { TestSupport.remove(dir) }
        let server = try RunningServer(in: dir)
        // Only its owner may connect.
        let socket = try FileManager.default.attributesOfItem(atPath: dir + "/.kb/search.sock")
        #expect((socket[.posixPermissions] as? Int) == 0o600)
        let second = TestSupport.kb(["index", "--watch"], in: dir)
        #expect(second.code == 1)
        #expect(second.stderr.contains("a search server already runs for this knowledge base"), "\(second.stderr)")
        #expect(server.stop()?.code == 0)
        #expect(TestSupport.kb(["index", "--status"], in: dir).stdout.contains("no search server runs"))
    }

    /// `kb search` starts no second server while one holds the lock (starting, or not answering),
    /// and says when `KB_SEARCH_SERVER` has a value it does not know.
    @Test func noSecondServerIsStartedAndUnknownModesAreNamed() throws {
        let dir = try SearchIndexFreshnessTests.makeKnowledgeBase()
        defer { TestSupport.remove(dir) }
        func client() throws -> SearchServerClient {
            var context = CommandContext(workingDirectory: dir, stdout: OutputStream(capturingAsTerminal: false),
                                         stderr: OutputStream(capturingAsTerminal: false), environment: ["KB_SEARCH_SERVER": "on"])
            context.root = try KnowledgeBaseRoot.discover(workingDirectory: dir, environment: [:], explicit: nil).0
            return try #require(SearchServerClient(context: context))
        }
        #expect(try !client().serverHoldsTheLock())
        let server = try RunningServer(in: dir)
        #expect(try client().serverHoldsTheLock())
        #expect(server.stop()?.code == 0)
        #expect(try !client().serverHoldsTheLock())
        let unknown = TestSupport.kb(["search", "颜色"], in: dir, environment: ["KB_SEARCH_SERVER": "yes"])
        #expect(unknown.code == 0)
        #expect(unknown.stderr.contains("warning: KB_SEARCH_SERVER=yes is not auto, on or off; auto is used"), "\(unknown.stderr)")
    }

    @Test func aServerOfAnotherBuildDeclinesAndStops() throws {
        let dir = try SearchIndexFreshnessTests.makeKnowledgeBase()
        defer { TestSupport.remove(dir) }
        let server = try RunningServer(in: dir)
        let socket = try #require(UnixSocket.connect(to: dir + "/.kb/search.sock"))
        try socket.send(message: SearchServerRequest(kind: .status, version: TroubleshootKBVersion.string, executable: "another build",
                                                     entriesDirectory: dir + "/entries", cacheDirectory: dir + "/.kb"))
        #expect(try socket.receive(SearchServerReply.self)?.status == .declined)
        let stopped = try #require(server.stopped())
        #expect(stopped.stdout.contains("a client of another build of kb"), "\(stopped.stdout)")
    }

    @Test func aServerStopsWhenIdle() throws {
        let dir = try SearchIndexFreshnessTests.makeKnowledgeBase()
        defer { TestSupport.remove(dir) }
        let server = try RunningServer(in: dir, arguments: ["--idle-timeout", "1"])
        let stopped = try #require(server.stopped(within: 10))
        #expect(stopped.stdout.contains("no search for 1 s"), "\(stopped.stdout)")
    }

    /// A moved entries folder cannot be followed: the server stops, and the search is made without it.
    @Test func aServerStopsWhenTheEntriesFolderMoves() throws {
        let dir = try SearchIndexFreshnessTests.makeKnowledgeBase()
        defer { TestSupport.remove(dir) }
        let server = try RunningServer(in: dir)
        try FileManager.default.moveItem(atPath: dir + "/entries", toPath: dir + "/moved")
        try FileManager.default.moveItem(atPath: dir + "/moved", toPath: dir + "/entries")
        try Self.check(.init(query: "颜色", ids: ["title-color"]), in: dir)
        let stopped = try #require(server.stopped())
        #expect(stopped.stdout.contains("was removed or moved"), "\(stopped.stdout)")
    }

    /// A glossary linked from outside the entries folder: its target is watched too.
    @Test func anEditedLinkedGlossaryIsSeen() throws {
        let dir = try SearchIndexFreshnessTests.makeKnowledgeBase()
        defer { TestSupport.remove(dir) }
        TestSupport.write(SearchIndexFreshnessTests.glossary(en: "hourglass"), to: dir + "/shared/glossary.yaml")
        try FileManager.default.createSymbolicLink(atPath: dir + "/entries/glossary.yaml", withDestinationPath: "../shared/glossary.yaml")
        let server = try RunningServer(in: dir)
        try Self.check(.init(query: "hourglass", ids: ["old-name"]), in: dir)
        try SearchIndexFreshnessTests.rewriteInPlace(dir + "/shared/glossary.yaml", "hourglass", "sandglass", keepModificationTime: true)
        try Self.check(.init(query: "sandglass", ids: ["old-name"]), in: dir)
        try Self.check(.init(query: "hourglass", ids: []), in: dir)
        #expect(server.status() == 3)
        #expect(server.stop()?.code == 0)
    }

    /// A linked entries folder pointed at another folder: the server stops, and the search is
    /// made, without it, in the folder the link now leads to.
    @Test func aServerStopsWhenItsLinkedEntriesFolderLeadsElsewhere() throws {
        let dir = try SearchIndexFreshnessTests.makeKnowledgeBase()
        defer { TestSupport.remove(dir) }
        let fm = FileManager.default
        try fm.moveItem(atPath: dir + "/entries", toPath: dir + "/first")
        try fm.copyItem(atPath: dir + "/first", toPath: dir + "/second")
        try SearchIndexFreshnessTests.rewriteInPlace(dir + "/second/title-color/entry.md", "颜色", "颜料", keepModificationTime: true)
        try fm.createSymbolicLink(atPath: dir + "/entries", withDestinationPath: "first")
        let server = try RunningServer(in: dir)
        try Self.check(.init(query: "颜色", ids: ["title-color"]), in: dir)
        try fm.removeItem(atPath: dir + "/entries")
        try fm.createSymbolicLink(atPath: dir + "/entries", withDestinationPath: "second")
        try Self.check(.init(query: "颜料", ids: ["title-color"]), in: dir)
        let stopped = try #require(server.stopped())
        #expect(stopped.stdout.contains("now leads to"), "\(stopped.stdout)")
    }

    @Test func theWatcherTellsWhatMayMatter() throws {
        let dir = try SearchIndexFreshnessTests.makeKnowledgeBase()
        defer { TestSupport.remove(dir) }
        let watcher = try EntriesWatcher(entriesDirectory: dir + "/entries")
        #expect(watcher.changes() == .none)
        // An editor's swap file beside an entry and a hidden file in the entries folder do not matter.
        TestSupport.write("swap", to: dir + "/entries/title-color/.entry.md.swp")
        TestSupport.write("notes", to: dir + "/entries/.notes")
        #expect(watcher.changes() == .none)
        TestSupport.write("more", to: dir + "/entries/title-color/entry.md")
        #expect(watcher.changes() == .some)
        // A new entry folder is watched from then on.
        TestSupport.write(TestSupport.entry(id: "new", body: "## 问题\n\n新的。\n"), to: dir + "/entries/new/entry.md")
        #expect(watcher.changes() == .some)
        TestSupport.write("changed", to: dir + "/entries/new/entry.md")
        #expect(watcher.changes() == .some)
        // Any name in the folder a linked entry points into.
        TestSupport.write("other", to: dir + "/entries/.shelf/linked.md")
        #expect(watcher.changes() == .some)
    }

    /// Where inotify does not see every change (a network or FUSE file system), no server is started.
    @Test(arguments: [("/srv/kb/entries", "nfs4"), ("/srv/kb", "nfs4"), ("/home/me/kb/entries", nil), ("/srv/kbx/entries", nil),
                      ("/mnt/my disk/kb", "fuse.sshfs"), ("/srv/kb/local/entries", nil)] as [(String, String?)])
    func networkFileSystemsAreNotWatched(_ path: String, _ type: String?) {
        let table = """
        22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw
        40 22 0:45 / /srv/kb rw,relatime shared:20 - nfs4 server:/kb rw,vers=4.2
        41 40 254:1 / /srv/kb/local rw,relatime shared:21 - ext4 /dev/vdb rw
        42 22 0:46 / /mnt/my\\040disk rw,nosuid shared:22 - fuse.sshfs me@host:/ rw
        """
        #expect(EntriesWatcher.networkFileSystem(of: path, mountTable: table) == type)
    }

    /// As a process: `kb search` starts a server in the background without keeping the caller
    /// waiting (its output ends when `kb search` exits), the next search is the server's, and
    /// `kb index --stop` ends it.
    @Test func kbSearchStartsAServerInTheBackground() throws {
        let binary = try #require(KBBinaryLocator.locate(environment: ProcessInfo.processInfo.environment,
                                                         repositoryRoot: TestSupport.repositoryRoot), "no kb binary (swift build)")
        let dir = try SearchIndexFreshnessTests.makeKnowledgeBase()
        defer { TestSupport.remove(dir) }
        func run(_ arguments: [String]) throws -> (code: Int32, stdout: String, stderr: String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments
            process.currentDirectoryURL = URL(fileURLWithPath: dir)
            var environment = ProcessInfo.processInfo.environment
            environment["KB_SEARCH_SERVER"] = "on"
            environment["NO_COLOR"] = "1"
            process.environment = environment
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            // Read to the end: a server that kept the pipes would hold this past the deadline below.
            let stdout = out.fileHandleForReading.readDataToEndOfFile(), stderr = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
        }
        let started = Date()
        let first = try run(["search", "颜色", "--limit", "1"])
        #expect(Date().timeIntervalSince(started) < 15)
        #expect(first.code == 0 && first.stdout.contains("title-color"), "\(first)")
        #expect(first.stderr.contains("started a search server"), "\(first.stderr)")
        var second = try run(["--verbose", "search", "颜色", "--limit", "1"])
        let deadline = Date().addingTimeInterval(20)
        while !second.stderr.contains("answered by the search server"), Date() < deadline {
            usleep(100_000)
            second = try run(["--verbose", "search", "颜色", "--limit", "1"])
        }
        #expect(second.stderr.contains("answered by the search server"), "\(second.stderr)")
        #expect(second.stdout == first.stdout)
        let stop = try run(["index", "--stop"])
        #expect(stop.stdout.contains("stopped the search server"), "\(stop)")
        // Its log says why it stopped.
        let logDeadline = Date().addingTimeInterval(10)
        var log = ""
        while !log.contains("search server stopped"), Date() < logDeadline {
            usleep(50_000)
            log = (try? String(contentsOfFile: dir + "/.kb/search-server.log", encoding: .utf8)) ?? ""
        }
        #expect(log.contains("search server stopped: asked to stop"), "\(log)")
    }

    /// As a process: `kb index --watch` stopped by SIGINT, SIGTERM or SIGHUP says so, exits 0
    /// and takes its socket with it (a stale socket would be refused by the next search anyway,
    /// but a server should leave its folder as it found it).
    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func aSignalStopsTheServerCleanly(_ signal: Int32) throws {
        let binary = try #require(KBBinaryLocator.locate(environment: ProcessInfo.processInfo.environment,
                                                         repositoryRoot: TestSupport.repositoryRoot), "no kb binary (swift build)")
        let dir = try SearchIndexFreshnessTests.makeKnowledgeBase()
        defer { TestSupport.remove(dir) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["index", "--watch"]
        process.currentDirectoryURL = URL(fileURLWithPath: dir)
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let started = TestSupport.read(out, until: "listening at")
        #expect(started.contains("listening at"), "\(started)")
        #expect(FileManager.default.fileExists(atPath: dir + "/.kb/search.sock"))
        kill(process.processIdentifier, signal)
        let rest = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        #expect(rest.contains("search server stopped: signal"), "\(rest)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/.kb/search.sock"))
    }
}
