import Foundation
import Testing
@testable import KBCore
@testable import KBSearch

/// A `.kb/index` rebuild reads, lints and indexes its entries a batch at a time: the index must
/// be the same bytes however the documents were batched, and the lint gate must see what one
/// load sees (rules across entries included).
@Suite struct SearchIndexBatchTests {
    /// How the test corpus (in index order) is cut into batches: the sizes of the batches, in order.
    struct Split: CustomTestStringConvertible, Sendable {
        let name: String
        let sizes: @Sendable (Int) -> [Int]
        var testDescription: String { name }
    }

    static let splits: [Split] = [
        Split(name: "one batch") { [$0] },
        Split(name: "one document per batch") { Array(repeating: 1, count: $0) },
        Split(name: "an empty batch first and in the middle") { n in [0, n / 2, 0, n - n / 2] },
        Split(name: "uneven batches") { n in [3, 1, n - 7, 2, 1].filter { $0 >= 0 } },
    ]

    static let documentsInIndexOrder: [SearchDocument] = {
        let all = SearchTestCorpus.documents
        return SearchIndex.documentOrder(all).map { all[$0] }
    }()

    @Test(arguments: splits, [nil, 1, 3])
    func batchesMakeTheSameIndexAsOneBuild(_ split: Split, chunkCount: Int?) throws {
        let documents = Self.documentsInIndexOrder
        let whole = SearchIndex.build(documents: documents, parameters: .default, glossary: SearchTestCorpus.glossary,
                                      chunkCount: chunkCount)
        let folder = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(folder) }
        // Texts kept in memory and postings joined in memory, and the way `.kb/index` builds:
        // only the texts' checksums kept (the texts read from a source), postings joined into a file.
        for asStored in [false, true] {
            var builder = SearchIndexBuilder(glossary: SearchTestCorpus.glossary, chunkCount: chunkCount,
                                             keepsTexts: !asStored, spillingInto: asStored ? folder : nil)
            var start = 0
            for size in split.sizes(documents.count) {
                let batch = Array(documents[start..<start + size])
                #expect(builder.follows(batch))
                builder.add(batch)
                start += size
            }
            #expect(start == documents.count)
            var batched = asStored ? try builder.finish() : builder.finishInMemory()
            #expect(batched.serialized(fingerprint: "f") == whole.serialized(fingerprint: "f"), "as stored: \(asStored)")
            #expect(batched.storesTexts == !asStored)
            if asStored {
                // Without texts of its own and without a source, results have no snippets.
                #expect(batched.search(query: "大标题").allSatisfy { $0.snippet == nil })
                batched.textSource = .documents(documents)
            }
            let results = batched.search(query: "大标题")
            #expect(!results.isEmpty && results.allSatisfy { $0.snippet != nil })
            #expect(results == whole.search(query: "大标题"))
            #expect(!batched.isDamaged)
            // Written to a file (the spilled postings copied from their file) and read back.
            let url = URL(fileURLWithPath: folder + "/search-\(asStored).bin")
            try batched.write(to: url, fingerprint: "f")
            #expect(FileManager.default.contents(atPath: url.path) == whole.serialized(fingerprint: "f"))
        }
        // The spill's file was unlinked when made: nothing is left beside the written indexes.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["search-false.bin", "search-true.bin"])
    }

    @Test func aBatchBeforeTheDocumentsAddedIsRefused() {
        let documents = Self.documentsInIndexOrder
        var builder = SearchIndexBuilder()
        let added = builder.add(Array(documents[2...]))
        #expect(added)
        #expect(!builder.follows([documents[0]]))
        // Refused and not added.
        let refused = !builder.add([documents[0]])
        #expect(refused)
        #expect(builder.documentCount == documents.count - 2)
        #expect(builder.follows([documents[documents.count - 1]]))
        #expect(!SearchIndexBuilder().follows([documents[1], documents[0]]))
    }

    /// Nine entries, so that a batch size of 2 makes five batches; `extra` adds entries.
    static func makeKnowledgeBase(extra: [(folder: String, text: String)] = []) -> String {
        let dir = TestSupport.temporaryDirectory()
        let bodies = ["大标题颜色不对。", "沙漏一直在转。", "企鹅图标模糊。", "네비게이션 바 그림자가 사라졌다.", "太字にならない。",
                      "Toolbar color scheme is ignored.", "返回按钮文字消失。", "탭 바 배경이 투명해졌다.", "見出しの色が変わらない。"]
        for (k, body) in bodies.enumerated() {
            let id = "entry-\(k + 1)"
            TestSupport.write(TestSupport.entry(id: id, body: "## 问题\n\n\(body)\n"), to: dir + "/entries/\(id)/entry.md")
        }
        for (folder, text) in extra { TestSupport.write(text, to: dir + "/entries/\(folder)/entry.md") }
        return dir
    }

    static func open(_ dir: String, batchSize: Int, cache: String) throws -> (index: SearchIndex, freshness: SearchIndexStore.Freshness,
                                                                           diagnostics: [Diagnostic], bytes: Data?) {
        var store = SearchIndexStore(entriesDirectory: dir + "/entries", cacheDirectory: dir + "/" + cache)
        store.rebuildBatchSize = batchSize
        let (index, freshness, diagnostics) = try store.open(forceRebuild: true)
        return (index, freshness, diagnostics, FileManager.default.contents(atPath: dir + "/" + cache + "/search.bin"))
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let extra: [(folder: String, text: String)]
        let saved: Bool
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "valid entries", extra: [], saved: true),
        Case(name: "a broken related link in a later batch (lint error)",
             extra: [("entry-95", TestSupport.entry(id: "entry-95", related: ["no-such-entry"], body: "## 问题\n\n相关条目不存在。\n"))],
             saved: false),
        Case(name: "an id out of folder order (id-mismatch: the entries are loaded again whole)",
             extra: [("aaa-first", TestSupport.entry(id: "zzz-last", body: "## 问题\n\n文件夹名和编号不一致。\n"))],
             saved: false),
    ]

    @Test(arguments: cases)
    func aRebuildInBatchesMatchesOneInOneBatch(_ testCase: Case) throws {
        let dir = Self.makeKnowledgeBase(extra: testCase.extra)
        defer { TestSupport.remove(dir) }
        let batched = try Self.open(dir, batchSize: 2, cache: "batched")
        let whole = try Self.open(dir, batchSize: 4096, cache: "whole")
        #expect(batched.freshness == whole.freshness)
        #expect(batched.diagnostics.map(\.formatted) == whole.diagnostics.map(\.formatted))
        #expect(batched.index.serialized(fingerprint: "f") == whole.index.serialized(fingerprint: "f"))
        #expect(batched.index.documentCount == 9 + testCase.extra.count)
        if testCase.saved {
            #expect(batched.freshness != .notSaved && batched.diagnostics.isEmpty)
            #expect(batched.bytes != nil && batched.bytes == whole.bytes)
        } else {
            #expect(batched.freshness == .notSaved && !batched.diagnostics.isEmpty)
            #expect(batched.bytes == nil && whole.bytes == nil)
        }
        for query in ["沙漏", "그림자", "toolbar color"] {
            #expect(batched.index.search(query: query).map(\.id) == whole.index.search(query: query).map(\.id), "\(query)")
            #expect(!batched.index.search(query: query).isEmpty, "\(query)")
        }
    }

    @Test func theBatchedLoadLintsAsOneLoadDoes() throws {
        // Two entries with one id in different batches: the duplicate is found across batches.
        let dir = Self.makeKnowledgeBase(extra: [("entry-99", TestSupport.entry(id: "entry-1", body: "## 问题\n\n重复的编号。\n"))])
        defer { TestSupport.remove(dir) }
        let loader = KnowledgeBaseLoader(workingDirectory: dir)
        let (locations, locatorDiagnostics) = try EntryLocator.locate([dir + "/entries"], workingDirectory: dir)
        let hook = EntryHook<Void, String?>(beforeReading: { _ in }, afterParsing: { item, _ in item.entry?.id })
        var seen: [String?] = []
        var ranges: [Range<Int>] = []
        let batched = loader.load(locations, locatorDiagnostics: locatorDiagnostics, options: .init(lints: true, hashesContent: true),
                                  hook: hook, batchSize: 3) { extras, range in
            seen += extras
            ranges.append(range)
        }
        let (whole, extras) = loader.load(locations, locatorDiagnostics: locatorDiagnostics, options: .linted, hook: hook)
        #expect(ranges == [0..<3, 3..<6, 6..<9, 9..<10])
        #expect(seen == extras)
        let diagnostics = try #require(batched.lintDiagnostics)
        #expect(diagnostics.map(\.formatted) == whole.lintDiagnostics?.map(\.formatted))
        #expect(diagnostics.contains { $0.rule == .duplicateID })
        #expect(batched.items.count == 10 && batched.items.allSatisfy { $0.entry == nil && $0.contentHash != nil })
    }

    /// The site's search files made batch by batch (`SearchWebExportBuilder`) are the files one
    /// export of all the documents makes, handed over or held, however the batches fall.
    @Test(arguments: splits, [nil, 1, 3])
    func webBatchesMakeTheSameFilesAsOneExport(_ split: Split, batchCount: Int?) {
        let documents = Self.documentsInIndexOrder
        let whole = SearchWebExport.build(documents: documents, glossary: SearchTestCorpus.glossary, ownFileRecords: 4, framing: .script)
        var builder = SearchWebExportBuilder(glossary: SearchTestCorpus.glossary, ownFileRecords: 4, framing: .script, batchCount: batchCount)
        var start = 0
        for size in split.sizes(documents.count) {
            let batch = Array(documents[start..<start + size])
            #expect(builder.follows(batch.map(\.id)))
            do { let added = builder.add(batch); #expect(added) }
            start += size
        }
        #expect(builder.documentCount == documents.count)
        let batched = builder.finish()
        #expect(!whole.tokenFiles.isEmpty)
        #expect(batched.meta == whole.meta && batched.filters == whole.filters)
        #expect(batched.shards == whole.shards && batched.tokenFiles == whole.tokenFiles)
        #expect(batched.docs == whole.docs && batched.vocabularies == whole.vocabularies)
        #expect(batched.patchState == whole.patchState)
    }

    @Test func aWebBatchOutOfIdOrderIsRefused() {
        let documents = Self.documentsInIndexOrder
        var builder = SearchWebExportBuilder(glossary: SearchTestCorpus.glossary)
        do { let added = builder.add(Array(documents[2...3])); #expect(added) }
        // Before the last id added, or unsorted within itself: nothing is added.
        #expect(!builder.follows([documents[1].id]))
        do { let added = builder.add([documents[1]]); #expect(!added) }
        do { let added = builder.add([documents[5], documents[4]]); #expect(!added) }
        #expect(builder.documentCount == 2)
        do { let added = builder.add(Array(documents[4...])); #expect(added) }
        #expect(builder.documentCount == documents.count - 2)
    }
}
