import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

@Suite struct SearchCommandTests {
    /// A knowledge base of two entries in a temporary folder.
    static func makeKnowledgeBase() -> String {
        let dir = TestSupport.temporaryDirectory()
        TestSupport.write(TestSupport.entry(id: "bar-shadow", lang: "ko", body: """
            ## 문제

            내비게이션 바 아래 그림자가 남는다.

            ### 시도 1: shadowColor

            - **결과:** 실패 — 경계선이 그대로다.
            """), to: dir + "/entries/bar-shadow/entry.md")
        TestSupport.write(TestSupport.entry(id: "title-color", body: "## 问题\n\n大标题颜色不对。\n"), to: dir + "/entries/title-color/entry.md")
        return dir
    }

    @Test func searchFindsRanksAndPointsAtTheAttempt() throws {
        let dir = Self.makeKnowledgeBase()
        defer { TestSupport.remove(dir) }
        let result = TestSupport.kb(["search", "경계선", "그대로"], in: dir)
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("1. bar-shadow"))
        #expect(result.stdout.contains("entries/bar-shadow/entry.md#attempt-1"))
        #expect(result.stdout.contains("matched in 시도 1 — 결과"))
        let json = TestSupport.kb(["search", "大标题", "--format", "json"], in: dir)
        let hits = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        #expect(hits?.first?["id"] as? String == "title-color")
        let filtered = TestSupport.kb(["search", "大标题", "--lang", "ko"], in: dir)
        #expect(filtered.code == 1)
        #expect(filtered.stderr.contains("kb list"))
    }

    @Test func theIndexIsReusedAndRebuiltWhenAnEntryChangesOrTheFileIsCorrupt() throws {
        let dir = Self.makeKnowledgeBase()
        defer { TestSupport.remove(dir) }
        let store = SearchIndexStore(entriesDirectory: dir + "/entries", cacheDirectory: dir + "/.kb/index")
        #expect(try store.open().freshness == .built)
        #expect(try store.open().freshness == .reused)
        // Same content, new modification time: reused after hashing.
        let path = dir + "/entries/title-color/entry.md"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 100)], ofItemAtPath: path)
        #expect(try store.open().freshness == .reused)
        // New content: rebuilt, and the new words are found.
        TestSupport.write(text + "\n换了新背景图以后看不见。\n", to: path)
        let (index, freshness, _) = try store.open()
        #expect(freshness == .rebuiltChanged)
        #expect(index.search(query: "新背景图").first?.id == "title-color")
        // A corrupt file is never trusted.
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: dir + "/.kb/index/search.bin"))
        #expect(try store.open().freshness == .rebuiltInvalid)
        #expect(try store.open().freshness == .reused)
        // A new entry is noticed.
        TestSupport.write(TestSupport.entry(id: "third", body: "x"), to: dir + "/entries/third/entry.md")
        #expect(try store.open().freshness == .rebuiltChanged)
    }

    @Test func anEntryEditedInPlaceIsPickedUpWhateverItsSize() throws {
        let dir = Self.makeKnowledgeBase()
        defer { TestSupport.remove(dir) }
        let store = SearchIndexStore(entriesDirectory: dir + "/entries", cacheDirectory: dir + "/.kb/index")
        #expect(try store.open().freshness == .built)
        #expect(try store.open(forceRebuild: true).freshness == .rebuiltChanged)
        #expect(try store.open().freshness == .reused)
        // The hashes a rebuild takes from the bytes it parses are those of the files: a new
        // modification time alone does not rebuild.
        let path = dir + "/entries/title-color/entry.md"
        for file in [path, dir + "/entries/bar-shadow/entry.md"] {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 20)], ofItemAtPath: file)
        }
        #expect(try store.open().freshness == .reused)
        // Rewritten in place (the folder's modification time does not change), same size.
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let edited = text.replacingOccurrences(of: "大标题颜色不对", with: "小标题字体不对")
        #expect(edited.utf8.count == text.utf8.count && edited != text)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.write(contentsOf: Data(edited.utf8))
        try handle.close()
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 50)], ofItemAtPath: path)
        let (index, freshness, _) = try store.open()
        #expect(freshness == .rebuiltChanged)
        #expect(index.search(query: "小标题字体").first?.id == "title-color")
        #expect(index.search(query: "颜色").isEmpty)
        #expect(try store.open().freshness == .reused)
        // Two entries changed at once: both are read again, and the next open reuses the index.
        TestSupport.write(edited + "\n改了第二次。\n", to: path)
        let other = dir + "/entries/bar-shadow/entry.md"
        TestSupport.write(try String(contentsOfFile: other, encoding: .utf8) + "\n그림자 두 번째 수정\n", to: other)
        let (again, freshnessAgain, _) = try store.open()
        #expect(freshnessAgain == .rebuiltChanged)
        #expect(again.search(query: "第二次").first?.id == "title-color")
        #expect(again.search(query: "두 번째 수정").first?.id == "bar-shadow")
        #expect(try store.open().freshness == .reused)
    }

    @Test func aManifestOfAnotherFormatOrAStaleOneIsNotTrusted() throws {
        let dir = Self.makeKnowledgeBase()
        defer { TestSupport.remove(dir) }
        let store = SearchIndexStore(entriesDirectory: dir + "/entries", cacheDirectory: dir + "/.kb/index")
        #expect(try store.open().freshness == .built)
        let manifest = dir + "/.kb/index/manifest.tsv"
        let lines = try String(contentsOfFile: manifest, encoding: .utf8)
        #expect(lines.hasPrefix(SearchIndexStore.manifestHeader))
        // Without its header line (an older manifest): rebuilt, then reused.
        try Data(lines.dropFirst(SearchIndexStore.manifestHeader.count).utf8).write(to: URL(fileURLWithPath: manifest))
        #expect(try store.open().freshness == .rebuiltChanged)
        #expect(try store.open().freshness == .reused)
        // A manifest whose hash no longer matches the index's fingerprint: the index is rebuilt.
        let current = try String(contentsOfFile: manifest, encoding: .utf8)
        var rows = current.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Rows follow the header and the scan time; the hash is a row's last field.
        var fields = rows[2].split(separator: "\t").map(String.init)
        fields[fields.count - 1] = "1234"
        rows[2] = fields.joined(separator: "\t")
        // A scan time long after the files changed: their statuses are trusted, not hashed again.
        rows[1] = SearchIndexStore.scanTimePrefix + String(Int64.max / 2)
        try Data(rows.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: manifest))
        #expect(try store.open().freshness == .rebuiltInvalid)
        #expect(try store.open().freshness == .reused)
    }

    @Test func analyzePrintsTokensWithPositionsAndKinds() {
        let result = TestSupport.kb(["analyze", "大标题 UINavigationBarAppearance"], in: "/")
        #expect(result.code == 0)
        let lines = result.stdout.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        #expect(lines.contains(["0", "大标", "bigram"]))
        #expect(lines.contains { $0.count == 3 && $0[1] == "uinavigationbarappearance" && $0[2] == "identifier" })
        #expect(lines.contains { $0.count == 3 && $0[1] == "navigation" && $0[2] == "part" })
        #expect(TestSupport.kb(["analyze"], in: "/").code == 64)
    }
}
