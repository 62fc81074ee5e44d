import Foundation
import Testing
@testable import KBSearch

/// The `Zstd` primitive against the `zstd` command-line tool (a differential test): frames it
/// makes are what the tool decompresses, and frames the tool makes are what it decompresses.
@Suite struct ZstdTests {
    static let tool = ["/usr/bin/zstd", "/bin/zstd"].first { FileManager.default.isExecutableFile(atPath: $0) }

    static let samples: [(String, [UInt8])] = {
        var generator = SystemRandomNumberGenerator()
        let random = (0..<100_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let varints: [UInt8] = (0..<50_000).flatMap { i -> [UInt8] in
            var bytes: [UInt8] = []
            Varint.append(UInt32(i % 97 * 3 + i / 1000), to: &bytes)
            return bytes
        }
        return [("empty", []), ("one byte", [42]), ("incompressible", random),
                ("repetitive", Array(repeating: 7, count: 1 << 20)), ("varints", varints),
                ("text", Array(String(repeating: "导航栏的阴影线 navigation bar hairline\n", count: 2_000).utf8))]
    }()

    static func run(_ arguments: [String], input: [UInt8]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(tool))
        process.arguments = arguments
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        let writer = Thread { stdin.fileHandleForWriting.write(Data(input)); try? stdin.fileHandleForWriting.close() }
        writer.start()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return [UInt8](output)
    }

    @Test(.enabled(if: tool != nil, "the zstd tool is missing (scripts/install-deps.sh test installs it)"),
          arguments: samples.map(\.0))
    func framesAgreeWithTheTool(_ name: String) throws {
        let bytes = try #require(Self.samples.first { $0.0 == name }?.1)
        let ours = Zstd.compress(bytes)
        #expect(try Self.run(["-d", "-c", "-q"], input: ours) == bytes, "the tool reads our frame")
        // From a file, so that the tool writes the content size in the frame's header (as
        // `Zstd.compress` does; a frame without it is refused).
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("kb-zstd-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(bytes).write(to: file)
        let theirs = try Self.run(["-c", "-q", "-19", file.path], input: [])
        // Streamed from standard input, the tool leaves the length out of the header of a
        // non-empty frame: such a frame is refused.
        if !bytes.isEmpty {
            var streamed: [UInt8] = []
            let fromStream = try Self.run(["-c", "-q"], input: bytes)
            #expect(!fromStream.withUnsafeBytes { Zstd.decompress($0, rawLength: bytes.count, appendingTo: &streamed) },
                    "a frame whose header does not say its length is refused")
        }
        var back: [UInt8] = [1, 2, 3]
        #expect(theirs.withUnsafeBytes { Zstd.decompress($0, rawLength: bytes.count, appendingTo: &back) })
        #expect(back == [1, 2, 3] + bytes, "we read the tool's frame, appended")
    }

    @Test(arguments: samples.map(\.0))
    func damagedOrMislabelledFramesAreRefused(_ name: String) throws {
        let bytes = try #require(Self.samples.first { $0.0 == name }?.1)
        let frame = Zstd.compress(bytes)
        func decompress(_ frame: [UInt8], _ length: Int) -> [UInt8]? {
            var out: [UInt8] = []
            return frame.withUnsafeBytes { Zstd.decompress($0, rawLength: length, appendingTo: &out) } ? out : nil
        }
        #expect(decompress(frame, bytes.count) == bytes)
        #expect(decompress(frame, bytes.count + 1) == nil, "a longer length than the frame holds")
        if !bytes.isEmpty { #expect(decompress(frame, bytes.count - 1) == nil, "a shorter length") }
        #expect(decompress(Array(frame.dropLast()), bytes.count) == nil, "a frame cut short")
        #expect(decompress([0x28, 0xB5, 0x2F, 0xFD, 0, 0, 0], bytes.count) == nil, "a bare frame header")
        #expect(decompress(Array("not a frame".utf8), bytes.count) == nil)
    }
}
