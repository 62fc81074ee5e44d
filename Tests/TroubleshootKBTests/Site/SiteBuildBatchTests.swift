import Foundation
import Testing
@testable import KBCore
@testable import KBSite

/// A clean build reads its entries in batches, writing each page as its entry is parsed (pages
/// that link related entries once the index exists, from a second reading) and adding each
/// batch to the search index: the site must be the same bytes however the batches fall (folder
/// names where one is another's prefix included: their paths sort apart from their ids).
@Suite struct SiteBuildBatchTests {
    static func makeKnowledgeBase() -> String {
        let dir = TestSupport.temporaryDirectory()
        let entries: [(id: String, related: [String], body: String)] = [
            ("a", ["a-b"], "大标题颜色不对。"), ("a-b", [], "네비게이션 바 그림자가 사라졌다."),
            ("a-b-c", ["a", "b"], "太字にならない。"), ("b", [], "Toolbar color scheme is ignored."),
            ("c", [], "返回按钮文字消失。"), ("d", ["c"], "見出しの色が変わらない。"),
        ]
        for entry in entries {
            TestSupport.write(TestSupport.entry(id: entry.id, related: entry.related, body: "## 问题\n\n\(entry.body)\n"),
                              to: dir + "/entries/\(entry.id)/entry.md")
        }
        return dir
    }

    static func build(_ dir: String, batchSize: Int, into name: String) throws -> [String: Data] {
        var options = SiteBuilder.Options(entriesDirectory: dir + "/entries", assetsDirectory: nil, outputDirectory: dir + "/" + name,
                                          workingDirectory: dir, checkReportPath: dir + "/.kb/check-report.json")
        options.batchSize = batchSize
        let summary = try SiteBuilder(options: options).build()
        #expect(summary.entries == 6)
        var files = SiteTestSupport.snapshot(dir + "/" + name)
        // The manifest holds the stamps of the files as each build saw them.
        files[BuildManifest.fileName] = nil
        return files
    }

    @Test(arguments: [1, 2, 4])
    func batchesMakeTheSameSite(batchSize: Int) throws {
        let dir = Self.makeKnowledgeBase()
        defer { TestSupport.remove(dir) }
        let whole = try Self.build(dir, batchSize: 100, into: "whole")
        let batched = try Self.build(dir, batchSize: batchSize, into: "batched")
        #expect(whole.keys.sorted() == batched.keys.sorted())
        for (path, data) in whole { #expect(batched[path] == data, "\(path)") }
        // The pages that link related entries show their titles.
        let page = SiteTestSupport.text(whole["entries/a-b-c.html"])
        #expect(page.contains("entries/a.html") && page.contains("entries/b.html"))
        #expect(whole.keys.contains("search/doc-5.js") && !whole.keys.contains("search/doc-6.js"))
    }

    @Test func aBuildWithLintErrorsWritesNothing() throws {
        let dir = Self.makeKnowledgeBase()
        defer { TestSupport.remove(dir) }
        TestSupport.write(TestSupport.entry(id: "not-e", body: "## 问题\n\n编号与文件夹不符。\n"), to: dir + "/entries/e/entry.md")
        var options = SiteBuilder.Options(entriesDirectory: dir + "/entries", assetsDirectory: nil, outputDirectory: dir + "/site",
                                          workingDirectory: dir, checkReportPath: dir + "/.kb/check-report.json")
        options.batchSize = 2
        #expect(throws: SiteBuildError.self) { try SiteBuilder(options: options).build() }
        #expect(!FileManager.default.fileExists(atPath: dir + "/site"))
        // Nothing is left beside the entries: the staging folder was removed.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["entries"])
    }

    /// A page that links related entries is rendered from a second reading of its entry, once
    /// the index exists: an entry edited in between fails the build instead of mixing versions.
    @Test func anEntryEditedBeforeItsPageIsRenderedFailsTheBuild() throws {
        let dir = Self.makeKnowledgeBase()
        defer { TestSupport.remove(dir) }
        let options = SiteBuilder.Options(entriesDirectory: dir + "/entries", assetsDirectory: nil, outputDirectory: dir + "/site",
                                          workingDirectory: dir, checkReportPath: dir + "/.kb/check-report.json")
        let builder = SiteBuilder(options: options)
        let input = try builder.load()
        let writer = try SiteWriter(output: dir + "/site", protected: [dir, dir + "/entries"], sources: [dir + "/entries"])
        defer { writer.discard() }
        try writer.createFolders(["entries"])
        let pages = SiteWriter.Pages(writer, label: "test")
        let parsed = try builder.parseAndRenderEntries(input.locations, input: input, glossary: .empty, checkReport: nil, base: .root,
                                                       pages: pages, documentFiles: nil)
        // a, a-b-c and d link related entries.
        #expect(parsed.deferred.map { input.locations[$0].folderName } == ["a", "a-b-c", "d"])
        let index = try SiteIndex.make(parsed.listings)
        let edited = dir + "/entries/a-b-c/entry.md"
        TestSupport.write(try String(contentsOfFile: edited, encoding: .utf8) + "\n又改了一句。\n", to: edited)
        #expect {
            try builder.renderDeferredPages(parsed.deferred, of: input.locations, files: parsed.files, index: index, checkReport: nil,
                                            base: .root, pages: pages)
        } throws: { error in
            "\(error)".contains("a-b-c/entry.md") && "\(error)".contains("changed while the site was being built")
        }
        try? pages.finish()
    }
}
