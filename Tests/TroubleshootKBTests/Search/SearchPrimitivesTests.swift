import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

/// Differential tests of the search code's unsafe primitives: each against a plain Swift version.
@Suite struct SearchPrimitivesTests {
    // MARK: WebDigits.write

    @Test(arguments: [("head", WebDigits.headT), ("length", WebDigits.lengthT), ("small", WebDigits.smallT)])
    func webDigitsWriteMatchesThePlainAppend(_ kind: String, _ t: UInt32) {
        var random = SplitMix64(state: UInt64(t))
        let values: [UInt32] = [0, 1, t - 1, t, t + 1, 8_099, 8_100, .max] + (0..<500).map { _ in UInt32.random(in: 0...UInt32.max, using: &random) >> UInt32.random(in: 0..<32, using: &random) }
        for v in values {
            var plain: [UInt8] = []
            WebDigits.append(Int(v), t, to: &plain)
            var written = [UInt8](repeating: 0, count: WebDigits.maxLength)
            let n = written.withUnsafeMutableBytes { WebDigits.write(v, t, to: $0.baseAddress!, WebDigits.table) }
            #expect(Array(written[0..<n]) == plain, "\(kind) \(v)")
        }
    }

    // MARK: Varint.write

    @Test func varintWriteMatchesThePlainAppend() {
        var random = SplitMix64(state: 0x7F)
        let values: [UInt32] = [0, 1, 0x7F, 0x80, 0x3FFF, 0x4000, 0x1F_FFFF, 0x20_0000, 0xFFF_FFFF, 0x1000_0000, .max]
            + (0..<500).map { _ in UInt32.random(in: 0...UInt32.max, using: &random) >> UInt32.random(in: 0..<32, using: &random) }
        for v in values {
            var plain: [UInt8] = []
            Varint.append(v, to: &plain)
            var written = [UInt8](repeating: 0, count: 5)
            let n = written.withUnsafeMutableBytes { Varint.write(v, to: $0.baseAddress!) }
            #expect(Array(written[0..<n]) == plain, "\(v)")
            #expect(n == Varint.length(v), "\(v)")
        }
    }

    // MARK: PostingsAccumulator (ChunkTokens, RecordWriter)

    /// The binary records of `documents` (numbered from 0) per token, made the plain way: each
    /// text tokenized on its own, its distinct tokens in order of first occurrence, each record
    /// appended with `Varint.append` as docs/search.md §7 describes it; the first record of a
    /// token without its head (the document gap).
    static func plainBinaryRecords(_ documents: [SearchDocument], cap: Int, glossary: SearchGlossary) -> [String: [UInt8]] {
        var streams: [String: [UInt8]] = [:]
        var lastDocument: [String: Int] = [:]
        var lastText: [String: Int] = [:]
        for (d, document) in documents.enumerated() {
            var textNumber = 0
            for field in SearchField.allCases {
                for ft in document.fields[field] ?? [] {
                    let tokens = SearchAnalyzer.analyze(ft.text, mode: .document, glossary: field == .code ? .empty : glossary)
                    var order: [String] = []
                    var positions: [String: [Int32]] = [:]
                    for token in tokens {
                        if positions[token.text] == nil { order.append(token.text) }
                        positions[token.text, default: []].append(Int32(token.position))
                    }
                    for token in order {
                        var bytes = streams[token] ?? []
                        if lastDocument[token] == d {
                            Varint.append(UInt32(2 * (textNumber - lastText[token]! - 1)), to: &bytes)
                        } else {
                            if let last = lastDocument[token] { Varint.append(UInt32(2 * (d - last) + 1), to: &bytes) }
                            Varint.append(UInt32(textNumber), to: &bytes)
                        }
                        lastDocument[token] = d
                        lastText[token] = textNumber
                        let p = positions[token]!
                        let first = cap > 0 ? p[0] : 0
                        Varint.append(UInt32(2 * first) + (p.count > 1 ? 1 : 0), to: &bytes)
                        if p.count > 1 { Varint.append(UInt32(p.count - 2), to: &bytes) }
                        var previous = first
                        for q in p.prefix(cap).dropFirst() {
                            Varint.append(UInt32(q - previous), to: &bytes)
                            previous = q
                        }
                        streams[token] = bytes
                    }
                    textNumber += 1
                }
            }
        }
        return streams
    }

    @Test(arguments: [("no positions", 0), ("one position", 1), ("the default positions", SearchParameters.default.maxPositions)])
    func accumulatedStreamsMatchAPlainEncoding(_ label: String, _ cap: Int) {
        let documents = SearchTestCorpus.documents
        var accumulator = PostingsAccumulator<BinaryPostings>(cap: cap, glossary: SearchTestCorpus.glossary)
        _ = accumulator.beginBatch(firstDocument: 0)
        for (d, document) in documents.enumerated() { accumulator.add(document, number: Int32(d)) }
        accumulator.finish()
        let expected = Self.plainBinaryRecords(documents, cap: cap, glossary: SearchTestCorpus.glossary)
        #expect(accumulator.vocabulary.count == expected.count, "\(label)")
        for t in 0..<accumulator.vocabulary.count {
            let token = accumulator.vocabulary.string(t)
            #expect(Array(accumulator.streams.bytes(t)) == expected[token], "\(label): \(token)")
        }
    }

    // MARK: ChunkParts

    /// Parts begun and ended in an interleaved order (as tokens of a batch are met), across the
    /// buffer's growth, read back as an array of the same operations keeps them.
    @Test(arguments: [("within the first block", 10), ("across two growths", 5_000)])
    func chunkPartsMatchAPlainArray(_ label: String, _ count: Int) {
        var random = SplitMix64(state: UInt64(count))
        let parts = ChunkParts()
        var plain: [ChunkPart] = []
        var open: [Int32] = []
        for k in 0..<count {
            let token = Int32.random(in: 0..<1_000, using: &random)
            let p = parts.begin(token: token, firstDoc: Int32(k), from: k * 3)
            plain.append(ChunkPart(token: token, firstDoc: Int32(k), from: k * 3))
            #expect(Int(p) == plain.count - 1, "\(label): part number")
            open.append(p)
            // End a random open part now and then, the rest at the end.
            if Bool.random(using: &random), let i = open.indices.randomElement(using: &random) {
                let ended = open.remove(at: i)
                parts.end(ended, lastDoc: Int32(k), to: k * 3 + 2)
                plain[Int(ended)].lastDoc = Int32(k)
                plain[Int(ended)].to = k * 3 + 2
            }
        }
        for p in open {
            parts.end(p, lastDoc: Int32(count), to: count * 3)
            plain[Int(p)].lastDoc = Int32(count)
            plain[Int(p)].to = count * 3
        }
        #expect(parts.count == plain.count)
        for i in plain.indices {
            let (a, b) = (parts[i], plain[i])
            #expect(a.token == b.token && a.firstDoc == b.firstDoc && a.lastDoc == b.lastDoc && a.from == b.from && a.to == b.to,
                    "\(label): part \(i)")
        }
    }

    // MARK: ByteRegion

    /// The one-allocation concatenation holds the bytes `Array.joined()` makes, and a slice of
    /// it (and of a part of it) the bytes of the same range.
    @Test(arguments: [("no parts", [Int]()), ("empty parts", [0, 0, 0]), ("mixed sizes", [1, 0, 7, 8, 9, 4_096, 3])])
    func byteRegionConcatenationMatchesJoined(_ label: String, _ sizes: [Int]) {
        var random = SplitMix64(state: UInt64(sizes.count + 1))
        let parts = sizes.map { n in (0..<n).map { _ in UInt8.random(in: 0...255, using: &random) } }
        let plain = Array(parts.joined())
        // A region's buffer points into the region: it is read while the region is alive.
        let region = ByteRegion(concatenating: parts)
        withExtendedLifetime(region) {
            #expect(region.count == plain.count, "\(label)")
            #expect(Array(region.buffer) == plain, "\(label)")
            if plain.count >= 4 {
                let range = 1..<(plain.count - 1)
                #expect(Array(region.slice(range)) == Array(plain[range]), "\(label): slice")
                let part = ByteRegion(region, offset: 1, count: plain.count - 2)
                withExtendedLifetime(part) { #expect(Array(part.buffer) == Array(plain[range]), "\(label): part") }
            }
        }
        let whole = ByteRegion(plain)
        withExtendedLifetime(whole) { #expect(Array(whole.buffer) == plain, "\(label): from one array") }
    }
}
