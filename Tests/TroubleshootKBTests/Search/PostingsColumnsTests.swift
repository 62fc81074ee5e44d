import Foundation
import Testing
@testable import KBCore
@testable import KBSearch

/// Large posting lists are stored in compressed columns (`BinaryPostingsColumns`, docs/search.md
/// §7): what they decode to is what their plain records say, the stored bytes are what the
/// columns of those records make, and damage is refused, never trusted.
@Suite struct PostingsColumnsTests {
    /// 300 documents sharing some words (lists well above the threshold), each with words of its own.
    static let documents: [SearchDocument] = (0..<300).map { i in
        SearchDocument(id: String(format: "doc-%03d", i), lang: i % 3 == 0 ? "en" : "zh-Hans", title: "Entry \(i): navigation bar shadow",
                       fields: [.symptoms: [FieldText("导航栏阴影线消失 \(i)")],
                                .body: [FieldText("The navigation bar hairline \(i) shows when scrolling, scrolling again, and again."),
                                        FieldText(i % 2 == 0 ? "scrollEdgeAppearance nil" : "standardAppearance shadowColor \(i * 7)")]])
    }
    static let index = SearchIndex.build(documents: documents)

    /// The records of `list` written plainly, as docs/search.md §7 describes them.
    static func plainRecords(_ list: PostingList, cap: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var previousDoc: Int32 = 0, previousText: Int32 = -1
        for r in 0..<list.count {
            let doc = list.doc[r], text = list.text[r], tf = list.tf[r]
            if r == 0 || doc != previousDoc {
                Varint.append(UInt32(2 * (doc - previousDoc) + 1), to: &bytes)
                Varint.append(UInt32(text), to: &bytes)
            } else {
                Varint.append(UInt32(2 * (text - previousText - 1)), to: &bytes)
            }
            let m = min(Int(tf), cap)
            let start = Int(list.posStart[r])
            let first = m > 0 ? list.pos[start] : 0
            Varint.append(UInt32(2 * first) + (tf > 1 ? 1 : 0), to: &bytes)
            if tf > 1 { Varint.append(UInt32(tf - 2), to: &bytes) }
            for k in 1..<max(m, 1) { Varint.append(UInt32(list.pos[start + k] - list.pos[start + k - 1]), to: &bytes) }
            previousDoc = doc
            previousText = text
        }
        return bytes
    }

    @Test func largeListsDecodeAsTheirPlainRecords() throws {
        let index = Self.index
        let cap = index.parameters.maxPositions
        let large = (0..<index.tokenCount).filter { Int(index.recordCount[$0]) > BinaryPostingsColumns.threshold }
        #expect(large.count >= 5, "the corpus has lists in columns")
        #expect((0..<index.tokenCount).contains { !large.contains($0) }, "and lists of plain records")
        for t in large {
            let list = try #require(index.decodePostings(t))
            let plain = Self.plainRecords(list, cap: cap)
            // The stored bytes are the columns of the plain records ...
            let stored = Array(index.postingBytes.slice(Int(index.postingOffset[t])..<Int(index.postingOffset[t + 1])))
            #expect(BinaryPostingsColumns.store(plain: plain, recordCount: list.count, cap: cap) == stored)
            #expect(stored.count < plain.count, "columns are smaller than the records")
            // ... and the plain records decode to the same list.
            let fromPlain = plain.withUnsafeBytes { raw -> PostingList? in
                var source = PlainRecords(reader: VarintReader(raw.bindMemory(to: UInt8.self)))
                return index.decodeRecords(list.count, from: &source)
            }
            #expect(fromPlain.map { [$0.doc, $0.text, $0.tf, $0.posStart, $0.pos] } == [list.doc, list.text, list.tf, list.posStart, list.pos])
        }
    }

    @Test func anIndexWithColumnsReadsBackAndSearchesTheSame() throws {
        let data = Self.index.serialized(fingerprint: "c")
        let loaded = try SearchIndex(serialized: data, expectedFingerprint: "c", texts: .documents(Self.documents))
        for query in ["navigation bar", "导航栏 阴影", "hairline scrolling", "scrollEdgeAppearance", "shadowColor 70", "Entry 12"] {
            #expect(loaded.search(query: query) == Self.index.search(query: query), "\(query)")
        }
    }

    /// Damage inside a list in columns: a changed byte (caught by the list's checksum), and,
    /// with the checksum made to match, frames cut short or followed by more bytes, and a plain
    /// length larger than the records can make (refused before anything is decompressed); a
    /// record count larger than the index's texts is refused when the file is opened.
    @Test func damagedColumnsAreRefused() throws {
        var index = Self.index
        let t = try #require((0..<index.tokenCount).max { index.recordCount[$0] < index.recordCount[$1] })
        let stored = Array(index.postingBytes.slice(Int(index.postingOffset[t])..<Int(index.postingOffset[t + 1])))
        #expect(index.decodeWith(bytes: stored, token: t) != nil)
        var flipped = stored
        flipped[flipped.count / 2] ^= 0x5A
        #expect(index.decodeWith(bytes: flipped, token: t, matchingChecksum: false) == nil)
        #expect(index.decodeWith(bytes: Array(stored.dropLast()), token: t) == nil)
        #expect(index.decodeWith(bytes: stored + [0], token: t) == nil)
        let firstLength = stored.firstIndex { $0 < 0x80 }! + 1
        var longer: [UInt8] = []
        Varint.append(UInt32(Int(index.recordCount[t]) * Varint.maxLength + 1), to: &longer)
        #expect(index.decodeWith(bytes: longer + stored.dropFirst(firstLength), token: t) == nil)
        index.recordCount[t] = Int32(index.textField.count + 1)
        #expect(throws: SearchIndexError.corrupt("postings")) { try SearchIndex(serialized: index.serialized()) }
    }
}

extension SearchIndex {
    /// Token `t` decoded from `bytes` instead of its stored bytes, with the list's checksum made
    /// to match them unless told otherwise.
    func decodeWith(bytes: [UInt8], token t: Int, matchingChecksum: Bool = true) -> PostingList? {
        var copy = self
        var all = Array(postingBytes.slice(0..<postingBytes.count))
        let lo = Int(postingOffset[t]), hi = Int(postingOffset[t + 1])
        all.replaceSubrange(lo..<hi, with: bytes)
        let delta = Int64(bytes.count - (hi - lo))
        copy.postingBytes = ByteRegion(all)
        copy.postingOffset = postingOffset.enumerated().map { $0.offset > t ? $0.element + delta : $0.element }
        if matchingChecksum { copy.postingChecksum[t] = ContentChecksum.of(bytes[...]) }
        return copy.decodePostings(t)
    }
}
