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

    // MARK: PostingsAccumulator (ChunkTokens, RecordWriter)

    /// The binary records of `documents` (numbered from 0) per token, made the plain way: each
    /// text tokenized on its own, its distinct tokens in order of first occurrence, each record
    /// appended with `Varint.append`; the first record of a token without its document gap.
    static func plainBinaryRecords(_ documents: [SearchDocument], cap: Int, glossary: SearchGlossary) -> [String: [UInt8]] {
        var streams: [String: [UInt8]] = [:]
        var lastDocument: [String: Int] = [:]
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
                        if let last = lastDocument[token] { Varint.append(UInt32(d - last), to: &bytes) }
                        lastDocument[token] = d
                        Varint.append(UInt32(textNumber), to: &bytes)
                        let p = positions[token]!
                        Varint.append(UInt32(p.count), to: &bytes)
                        var previous: Int32 = 0
                        for q in p.prefix(cap) {
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
}
