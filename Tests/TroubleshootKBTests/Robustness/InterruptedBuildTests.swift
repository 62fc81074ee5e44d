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

/// `kb build` killed halfway (SIGINT, SIGKILL) leaves the previous site complete, and the next
/// build removes what the killed one left behind. Runs the `kb` binary as a process on a
/// generated knowledge base of 2,000 entries.
@Suite("Interrupted builds leave the previous site complete", .serialized)
struct InterruptedBuildTests {
    static let entryCount = 2_000

    static var kbBinary: String? {
        KBBinaryLocator.locate(environment: ProcessInfo.processInfo.environment, repositoryRoot: TestSupport.repositoryRoot)
    }

    /// `entries/` with `entryCount` entries: the shared bench generator when it is there, else
    /// entries written here.
    static func generate(into root: String) throws {
        let generator = TestSupport.sharedDirectory + "/bench/gen_corpus.py"
        if FileManager.default.fileExists(atPath: generator), FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = [generator, "--n", "\(entryCount)", "--out", root, "--layout", "kb"]
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            if process.terminationStatus == 0 { return }
        }
        for n in 0..<entryCount {
            var text = BrokenInputCorpus.frontMatter("generated-\(n)") + "# Generated entry \(n)\n\n## Problem\n\n"
            for paragraph in 0..<40 { text += "Paragraph \(paragraph) of entry \(n): the build has something to render here.\n\n" }
            text += "## Attempts\n\n### Attempt 1: restart\n\nResult: failed.\n"
            try BrokenInputCorpus.write(text, root + "/entries/generated-\(n)/entry.md")
        }
    }

    static func run(_ binary: String, _ arguments: [String], in root: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: root)
        var environment = ProcessInfo.processInfo.environment
        environment["KB_SITE"] = SiteTestSupport.assetsDirectory
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    static func staging(in root: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).filter { $0.hasPrefix("._site.") }.sorted()
    }

    static func fileCount(_ folder: String) -> Int {
        var count = 0
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while enumerator?.nextObject() != nil { count += 1 }
        return count
    }

    @Test("SIGINT and SIGKILL halfway through kb build", arguments: [SIGINT, SIGKILL])
    func interrupt(_ signal: Int32) throws {
        let binary = try #require(Self.kbBinary, "no kb binary (swift build)")
        let root = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(root) }
        try Self.generate(into: root)
        let first = try Self.run(binary, ["build"], in: root)
        first.waitUntilExit()
        try #require(first.terminationStatus == 0)
        let previous = SiteTestSupport.snapshot(root + "/_site")
        try #require(previous.count > Self.entryCount)

        // Change an entry so the next site differs, then kill the build while it writes pages.
        let names = try FileManager.default.contentsOfDirectory(atPath: root + "/entries").filter { !$0.hasPrefix(".") }.sorted()
        let changed = root + "/entries/" + names[0] + "/entry.md"
        let original = try String(contentsOfFile: changed, encoding: .utf8)
        try (original + "\nAdded after the first build.\n").write(toFile: changed, atomically: true, encoding: .utf8)

        let build = try Self.run(binary, ["build"], in: root)
        let deadline = Date().addingTimeInterval(120)
        var killedWhileWriting = false
        while build.isRunning && Date() < deadline {
            if let folder = Self.staging(in: root).first, Self.fileCount(root + "/" + folder) > 50 {
                kill(build.processIdentifier, signal)
                killedWhileWriting = true
                break
            }
            usleep(2_000)
        }
        build.waitUntilExit()
        #expect(killedWhileWriting, "the build finished before it could be interrupted")
        #expect(build.terminationReason == .uncaughtSignal || build.terminationStatus == 130, "\(build.terminationStatus)")

        // The previous site, byte for byte.
        let after = SiteTestSupport.snapshot(root + "/_site")
        #expect(after.count == previous.count)
        #expect(after == previous, "the interrupted build changed the previous site")

        // The next build completes and removes the killed build's leftovers.
        let next = try Self.run(binary, ["build"], in: root)
        next.waitUntilExit()
        #expect(next.terminationStatus == 0)
        #expect(Self.staging(in: root).isEmpty, "left behind: \(Self.staging(in: root))")
        let rebuilt = SiteTestSupport.snapshot(root + "/_site")
        #expect(rebuilt.count == previous.count)
        #expect(rebuilt != previous)
    }
}
