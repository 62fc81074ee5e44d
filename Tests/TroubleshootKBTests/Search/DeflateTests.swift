import Foundation
import Testing
@testable import KBSearch

/// The `Deflate` primitive against node's zlib (a differential test): streams it makes are what
/// node's `inflateRawSync` reads, and streams node's `deflateRawSync` makes are what it reads;
/// and the site's packed files (`WebPacking`) round-trip.
@Suite struct DeflateTests {
    static let node = ["/usr/bin/node", "/usr/local/bin/node"].first { FileManager.default.isExecutableFile(atPath: $0) }

    static let samples: [(String, [UInt8])] = {
        var generator = SystemRandomNumberGenerator()
        let random = (0..<100_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return [("empty", []), ("one byte", [42]), ("incompressible", random),
                ("repetitive", Array(repeating: 7, count: 1 << 20)),
                ("text", Array(String(repeating: "{\"texts\":[[1,\"导航栏的阴影线 navigation bar hairline\"]]}\n", count: 3_000).utf8))]
    }()

    /// Runs `node -e script` with `input` on standard input and returns standard output.
    static func node(_ script: String, input: [UInt8]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(node))
        process.arguments = ["-e", script]
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

    static let inflate = "process.stdout.write(require('zlib').inflateRawSync(require('fs').readFileSync(0)))"
    static let deflate = "process.stdout.write(require('zlib').deflateRawSync(require('fs').readFileSync(0), {level: 9}))"

    @Test(.enabled(if: node != nil, "node is missing (scripts/install-deps.sh test installs it)"), arguments: samples.map(\.0))
    func streamsAgreeWithNode(_ name: String) throws {
        let bytes = try #require(Self.samples.first { $0.0 == name }?.1)
        let ours = Deflate.compress(bytes)
        #expect(try Self.node(Self.inflate, input: ours) == bytes, "node reads our stream")
        let theirs = try Self.node(Self.deflate, input: bytes)
        #expect(Deflate.decompress(theirs, limit: bytes.count) == bytes, "we read node's stream")
        #expect(Deflate.decompress(ours, limit: bytes.count) == bytes)
        // However the input is cut into pieces, the stream is the same.
        let cuts = [0, 1, bytes.count / 3, bytes.count / 2, bytes.count].filter { $0 <= bytes.count }.sorted()
        let pieced = bytes.withUnsafeBytes { all in
            Deflate.compress(zip(cuts, cuts.dropFirst()).map { UnsafeRawBufferPointer(rebasing: all[$0..<$1]) })
        }
        #expect(pieced == ours)
    }

    @Test(arguments: samples.map(\.0))
    func damagedStreamsAreRefused(_ name: String) throws {
        let bytes = try #require(Self.samples.first { $0.0 == name }?.1)
        let stream = Deflate.compress(bytes)
        #expect(Deflate.decompress(Array(stream.dropLast()), limit: 1 << 30) == nil, "cut short")
        #expect(Deflate.decompress(stream + [0], limit: 1 << 30) == nil, "something after the stream")
        if !bytes.isEmpty { #expect(Deflate.decompress(stream, limit: bytes.count - 1) == nil, "over the limit") }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            var damaged = stream
            let i = Int.random(in: 0..<damaged.count, using: &generator)
            damaged[i] ^= UInt8.random(in: 1...255, using: &generator)
            // A flipped byte may still make a valid stream; it must never crash or exceed the limit.
            if let out = Deflate.decompress(damaged, limit: 1 << 21) { #expect(out.count <= 1 << 21) }
        }
    }

    @Test func packedFilesRoundTrip() throws {
        let doc = Data("__kbSearchData(\"doc\",7,{\"id\":\"a\",\"lang\":\"zh\",\"url\":null,\"texts\":[[0,\"\\u003cscript\\u003e 导航栏\"]]});\n".utf8)
        let packed = try #require(WebPacking.pack(doc, name: .doc(7)))
        let text = String(decoding: packed, as: UTF8.self)
        #expect(text.hasPrefix("__kbSearchData(\"doc\",7,\"") && text.hasSuffix("\");\n"))
        #expect(!text.contains("<") && !text.contains("&"), "base64 holds no markup")
        #expect(WebPacking.unpack([UInt8](packed), name: .doc(7)) == [UInt8](doc))
        #expect(WebPacking.unpack([UInt8](packed), name: .doc(8)) == nil, "another file's name")
        #expect(WebPacking.unpack([UInt8](doc), name: .doc(7)) == nil, "an unpacked file")
        #expect(WebPacking.pack(Data("{\"id\":\"a\"}\n".utf8), name: .doc(7)) == nil, "not a script")
        #expect(WebPacking.packs(.doc(0)) && WebPacking.packs(.token(0)))
        #expect(!WebPacking.packs(.meta) && !WebPacking.packs(.shard(0)) && !WebPacking.packs(.vocabulary(0)) && !WebPacking.packs(.filters))
        // In pieces, cut anywhere (a token file is written from its record streams).
        for cut in [0, 1, 5, 24, 25, 26, doc.count - 2, doc.count] {
            let pieced = doc.withUnsafeBytes { all in
                WebPacking.pack([UnsafeRawBufferPointer(rebasing: all[0..<cut]), UnsafeRawBufferPointer(rebasing: all[cut...])], name: .doc(7))
            }
            #expect(pieced == packed, "cut at \(cut)")
        }
    }
}
