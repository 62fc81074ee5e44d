import Foundation
import Testing
@testable import KBCommands
@testable import KBScenarios
#if canImport(Glibc)
import Glibc
#endif

/// Standard output that cannot be written (the reader of a pipe went away, a full disk) ends
/// `kb` with exit 1, quietly for a closed pipe and with `Error: …` otherwise: never a trap.
/// Runs the `kb` binary as a process.
@Suite("Output that cannot be written", .serialized)
struct OutputFailureTests {
    static let binary = KBBinaryLocator.locate(environment: ProcessInfo.processInfo.environment,
                                               repositoryRoot: TestSupport.repositoryRoot)

    /// Runs kb in `directory` with `stdout` as its standard output; its exit status and standard error.
    static func run(_ arguments: [String], stdout: FileHandle, in directory: String = TestSupport.repositoryRoot) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(binary))
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardOutput = stdout
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    @Test("a full disk: exit 1 with the reason", .enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full"),
          arguments: [["--help"], ["list", "--format", "json"], ["export"]])
    func fullDisk(_ arguments: [String]) throws {
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        defer { try? full.close() }
        let (status, stderr) = try Self.run(arguments, stdout: full)
        #expect(status == 1)
        #expect(stderr.contains("Error: cannot write to standard output: No space left on device"), "\(stderr)")
        #expect(!stderr.contains("Fatal error") && !stderr.contains("crashed"), "\(stderr)")
    }

    /// What the command said on standard error before is not lost with standard output.
    @Test("a full disk: what was said on standard error is kept", .enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full"))
    func fullDiskKeepsStandardError() throws {
        let root = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(root) }
        TestSupport.write(TestSupport.entry(id: "good", body: "## 问题背景\n\n好的。\n"), to: root + "/entries/good/entry.md")
        TestSupport.write("---\nid: bad-yaml\ntitle: [unclosed\n---\n# x\n", to: root + "/entries/bad-yaml/entry.md")
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        defer { try? full.close() }
        let (status, stderr) = try Self.run(["export"], stdout: full, in: root)
        #expect(status == 1)
        #expect(stderr.contains("entries/bad-yaml/entry.md:4:1: error: invalid YAML in front matter"), "\(stderr)")
        #expect(stderr.contains("Error: cannot write to standard output: No space left on device"), "\(stderr)")
    }

    @Test("a reader that went away: exit 1, nothing on standard error")
    func closedPipe() throws {
        // With the reading end closed, the first write fails (EPIPE).
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        let (status, stderr) = try Self.run(["export"], stdout: pipe.fileHandleForWriting)
        #expect(status == 1)
        #expect(stderr.isEmpty, "\(stderr)")
    }
}
