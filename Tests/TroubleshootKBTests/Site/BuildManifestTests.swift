import Foundation
import Testing
@testable import KBCore
@testable import KBSite

/// The build manifest's bytes (`BuildManifest.encoded`, `decode`): records in blocks with their
/// shared strings kept once and their lengths listed first, read back as they were written.
@Suite struct BuildManifestTests {
    /// `count` records over more than one block, sharing tags, languages and lint messages, with
    /// strings that differ only in Unicode normalization (two keys, as they are two byte sequences).
    static func records(_ count: Int) -> [BuildManifest.EntryRecord] {
        (0..<count).map { k in
            let id = String(format: "e-%05d", k)
            let title = k % 2 == 0 ? "Caf\u{E9} \(k)" : "Cafe\u{301} \(k)" // é precomposed, then decomposed
            let listing = SiteListing(
                id: id, title: title, lang: ["zh-Hans", "ko", "ja", "en"][k % 4], updated: "2026-0\(1 + k % 9)-01",
                status: k % 3 == 0 ? nil : .resolved, tags: ["tag-\(k % 7)", "shared"], summary: "요약 \(k % 5)",
                related: k % 10 == 0 ? ["e-00001"] : [],
                symptoms: [.init(phrase: "大标题看不见 \(k % 11)", entryLang: "zh-Hans", fragment: "symptom-1")], usesModelWorld: k % 13 == 0,
                attempts: [.init(number: "1", outcome: .failed), .init(number: "2", outcome: .worked)])
            let diagnostics = k % 4 == 0 ? [] : [
                Diagnostic(path: "entries/\(id)/entry.md", location: SourceLocation(line: 5, column: 1), severity: .warning,
                           message: "unknown key 'date' (kept)", rule: .unknownKey),
            ]
            return BuildManifest.EntryRecord(
                file: id + "/entry.md", folder: .init(size: 96, modified: Int64(k) * 1_000, inode: UInt64(k)),
                entry: .init(size: Int64(k), modified: -1, inode: UInt64(k) + 1),
                scenario: k % 5 == 0 ? id + "/scenario.feature" : nil, scenarioStamp: .missing,
                listing: listing, diagnostics: diagnostics)
        }
    }

    static func manifest(_ entries: [BuildManifest.EntryRecord]) -> BuildManifest {
        BuildManifest(fingerprint: "kb test", entriesFolder: .init(size: 1, modified: 2, inode: 3),
                      knownIDs: entries.map(\.listing.id), entries: entries, searchState: Array("{}".utf8))
    }

    @Test(arguments: [0, 1, BuildManifest.blockSize - 1, BuildManifest.blockSize, 2 * BuildManifest.blockSize + 452])
    func recordsReadBackAsWritten(count: Int) throws {
        let manifest = Self.manifest(Self.records(count))
        // (Read into a variable first: a failed #require would print every byte of its operand.)
        let read = BuildManifest(decoding: manifest.encoded())
        let decoded = try #require(read)
        #expect(decoded == manifest)
        // Canonically equivalent titles stay the bytes they were.
        if count > 1 {
            #expect(Array(decoded.entries[0].listing.title.utf8) == Array(manifest.entries[0].listing.title.utf8))
            #expect(Array(decoded.entries[1].listing.title.utf8) == Array(manifest.entries[1].listing.title.utf8))
        }
    }

    @Test func keptBlocksEqualBlocksEncodedAgain() throws {
        let size = BuildManifest.blockSize
        var entries = Self.records(2 * size + size / 2)
        let read = BuildManifest.decode(Self.manifest(entries).encoded())
        let (_, blocks) = try #require(read)
        #expect(blocks.count == 3)
        let edited = size + size / 2
        var listing = entries[edited].listing
        listing = SiteListing(id: listing.id, title: "Edited", lang: listing.lang, updated: listing.updated, status: listing.status,
                              tags: listing.tags, summary: listing.summary, related: listing.related, symptoms: listing.symptoms,
                              usesModelWorld: listing.usesModelWorld, attempts: listing.attempts)
        entries[edited].listing = listing
        let patched = BuildManifest.encodedBlocks(entries, previous: blocks, changed: [edited])
        let encodedAgain = BuildManifest.encodedBlocks(entries)
        let samePatched = patched.map(Array.init) == encodedAgain.map(Array.init)
        #expect(samePatched, "the blocks kept and made again differ from the blocks all made again")
        let kept = Array(patched[0]) == Array(blocks[0]) && Array(patched[2]) == Array(blocks[2])
        #expect(kept, "an unchanged block was not kept as read")
        let madeAgain = Array(patched[1]) != Array(blocks[1])
        #expect(madeAgain, "the changed block was kept")
        let readAgain = BuildManifest(decoding: Self.manifest(entries).encoded(blocks: patched))
        let decoded = try #require(readAgain)
        #expect(decoded.entries[edited].listing.title == "Edited")
    }

    @Test func aDamagedOrShortManifestIsRefused() throws {
        let bytes = Self.manifest(Self.records(3 * BuildManifest.blockSize / 2)).encoded()
        for offset in [bytes.count / 3, bytes.count / 2, bytes.count - 9] {
            var damaged = bytes
            damaged[offset] ^= 0x20
            let read = BuildManifest(decoding: damaged)
            #expect(read == nil, "a byte changed at \(offset) was not noticed")
        }
        let short = BuildManifest(decoding: Array(bytes.dropLast(100)))
        #expect(short == nil)
    }
}
