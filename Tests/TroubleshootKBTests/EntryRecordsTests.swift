import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

/// Tests over the real entries in `entries/`.
@Suite struct EntryRecordsTests {
    static var ids: [String] { TestSupport.entryIDs }

    static func load(_ id: String) throws -> Entry {
        let path = TestSupport.entriesDirectory + "/" + id + "/entry.md"
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let result = EntryParser().parse(bytes: bytes, path: "entries/\(id)/entry.md", folderName: id)
        return try #require(result.entry)
    }

    /// Golden record dumps: `KB_RECORD=1 swift test` re-records them.
    @Test(arguments: ids)
    func recordsMatchGoldenDump(id: String) throws {
        let entry = try Self.load(id)
        let json = try JSONOutput.string(EntryExport(entry)) + "\n"
        let golden = TestSupport.goldenDirectory + "/records/\(id).json"
        if TestSupport.isRecording {
            TestSupport.write(json, to: golden)
            return
        }
        let expected = try? String(contentsOfFile: golden, encoding: .utf8)
        try #require(expected != nil, "no golden file \(golden); record it with KB_RECORD=1 swift test")
        #expect(json == expected, "records of \(id) differ from \(golden); re-record with KB_RECORD=1 if the change is intended")
    }

    /// Nothing is silently dropped: every top-level block is in exactly one record, either
    /// itself or (for lists split by labels) through all of its items.
    @Test(arguments: ids)
    func everyBlockLandsInExactlyOneRecord(id: String) throws {
        let entry = try Self.load(id)
        try Self.assertCoverage(entry)
    }

    static func assertCoverage(_ entry: Entry) throws {
        var counts: [SourceLocation: Int] = [:]
        for (_, block) in entry.recordBlocks { counts[block.range.start, default: 0] += 1 }
        // Comments are in no record by design (docs/entry-format.md); the title is the first other block.
        let content = entry.body.blocks.filter { !$0.isHTMLComment }
        for (index, block) in content.enumerated() {
            if index == 0, entry.titleHeading != nil, case .heading(1) = block.kind { continue }
            if let count = counts[block.range.start] {
                #expect(count == 1, "\(entry.path):\(block.range.start): block is in \(count) records")
            } else if case .list = block.kind {
                for item in block.children {
                    #expect(counts[item.range.start] == 1, "\(entry.path):\(item.range.start): list item is in no record")
                }
            } else {
                Issue.record("\(entry.path):\(block.range.start): block is in no record")
            }
        }
    }

    @Test(arguments: ids)
    func entryIsLintClean(id: String) throws {
        let loader = KnowledgeBaseLoader(workingDirectory: TestSupport.repositoryRoot)
        let kb = try loader.load(paths: [TestSupport.entriesDirectory + "/" + id])
        let diagnostics = Linter.standard.lint(kb.items, knownIDs: Set(Self.ids))
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.formatted).joined(separator: "\n"))")
    }
}
