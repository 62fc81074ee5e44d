import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

/// `kb search` follows every kind of change made to a knowledge base after it was indexed: the
/// check that keeps a warm search fast (docs/search.md §12) must not miss one.
@Suite struct SearchIndexFreshnessTests {
    /// What a query must return: the ids of its results, best first.
    struct Expectation: Sendable {
        let query: String
        let ids: [String]
    }

    /// One change to the knowledge base and what `kb search` must answer after it.
    struct Step: Sendable {
        let apply: @Sendable (_ dir: String) throws -> Void
        let expectations: [Expectation]
    }

    /// A named sequence of changes, applied right after the knowledge base was indexed (within
    /// the same second, as an editor saving twice would).
    struct Change: Sendable, CustomTestStringConvertible {
        let name: String
        let steps: [Step]
        var testDescription: String { name }
    }

    /// What the knowledge base answers before any change.
    static let initially = [
        Expectation(query: "颜色", ids: ["title-color"]),
        Expectation(query: "沙漏", ids: ["old-name"]),
        Expectation(query: "企鹅", ids: ["linked"]),
        Expectation(query: "hourglass", ids: []),
    ]

    static let changes: [Change] = [
        Change(name: "an entry edited in place: one character, same size, same modification time", steps: [
            Step(apply: { try rewriteInPlace($0 + "/entries/title-color/entry.md", "颜色", "颜料", keepModificationTime: true) },
                 expectations: [.init(query: "颜料", ids: ["title-color"]), .init(query: "颜色", ids: [])]),
        ]),
        Change(name: "an entry edited in place twice within the same second, same size", steps: [
            Step(apply: { try rewriteInPlace($0 + "/entries/title-color/entry.md", "颜色", "颜料", keepModificationTime: false) },
                 expectations: [.init(query: "颜料", ids: ["title-color"])]),
            Step(apply: { try rewriteInPlace($0 + "/entries/title-color/entry.md", "颜料", "颜值", keepModificationTime: false) },
                 expectations: [.init(query: "颜值", ids: ["title-color"]), .init(query: "颜料", ids: [])]),
        ]),
        Change(name: "an entry replaced by rename, as editors save", steps: [
            Step(apply: { try replaceByRename($0 + "/entries/title-color/entry.md", "颜色不对", "背景图看不见", keepModificationTime: false) },
                 expectations: [.init(query: "背景图", ids: ["title-color"]), .init(query: "颜色", ids: [])]),
        ]),
        Change(name: "an entry replaced by rename with the same size and modification time, as rsync -t does", steps: [
            Step(apply: { try replaceByRename($0 + "/entries/title-color/entry.md", "颜色", "颜料", keepModificationTime: true) },
                 expectations: [.init(query: "颜料", ids: ["title-color"]), .init(query: "颜色", ids: [])]),
        ]),
        Change(name: "an entry added", steps: [
            Step(apply: { TestSupport.write(TestSupport.entry(id: "otter", body: "## 问题\n\n水獭图标不见了。\n"), to: $0 + "/entries/otter/entry.md") },
                 expectations: [.init(query: "水獭", ids: ["otter"]), .init(query: "颜色", ids: ["title-color"])]),
        ]),
        Change(name: "an entry removed", steps: [
            Step(apply: { try FileManager.default.removeItem(atPath: $0 + "/entries/old-name") },
                 expectations: [.init(query: "沙漏", ids: []), .init(query: "颜色", ids: ["title-color"])]),
        ]),
        Change(name: "an entry folder renamed, with its id", steps: [
            Step(apply: { dir in
                     try FileManager.default.moveItem(atPath: dir + "/entries/old-name", toPath: dir + "/entries/new-name")
                     try rewriteInPlace(dir + "/entries/new-name/entry.md", "id: old-name", "id: new-name", keepModificationTime: true)
                 },
                 expectations: [.init(query: "沙漏", ids: ["new-name"])]),
        ]),
        Change(name: "the target of a symbolically linked entry edited in place, same size and time", steps: [
            Step(apply: { try rewriteInPlace($0 + "/entries/.shelf/linked.md", "企鹅", "海豹", keepModificationTime: true) },
                 expectations: [.init(query: "海豹", ids: ["linked"]), .init(query: "企鹅", ids: [])]),
        ]),
        Change(name: "the glossary added, then edited in place with the same size and time", steps: [
            Step(apply: { TestSupport.write(glossary(en: "hourglass"), to: $0 + "/entries/glossary.yaml") },
                 expectations: [.init(query: "hourglass", ids: ["old-name"])]),
            Step(apply: { try rewriteInPlace($0 + "/entries/glossary.yaml", "hourglass", "sandglass", keepModificationTime: true) },
                 expectations: [.init(query: "sandglass", ids: ["old-name"]), .init(query: "hourglass", ids: [])]),
        ]),
    ]

    @Test(arguments: changes)
    func searchFollowsTheChange(_ change: Change) throws {
        let dir = try Self.makeKnowledgeBase()
        defer { TestSupport.remove(dir) }
        let store = SearchIndexStore(entriesDirectory: dir + "/entries", cacheDirectory: dir + "/.kb/index")
        #expect(try store.open().freshness == .built)
        #expect(try store.open().freshness == .reused)
        for expectation in Self.initially { try Self.check(expectation, in: dir) }
        for step in change.steps {
            try step.apply(dir)
            for expectation in step.expectations { try Self.check(expectation, in: dir) }
            // The change was saved: the next command reuses the index and still answers the same.
            #expect(try store.open().freshness == .reused)
            for expectation in step.expectations { try Self.check(expectation, in: dir) }
        }
    }

    /// The limit of the guarantee, checked from both sides: a file whose size, times and inode
    /// all still match the manifest is re-read only while its change time is within the racy
    /// window of the scan the manifest was written after.
    @Test(arguments: [true, false])
    func aFileWhoseStatusMatchesIsReReadOnlyInTheRacyWindow(racy: Bool) throws {
        let dir = try Self.makeKnowledgeBase()
        defer { TestSupport.remove(dir) }
        let store = SearchIndexStore(entriesDirectory: dir + "/entries", cacheDirectory: dir + "/.kb/index")
        #expect(try store.open().freshness == .built)
        let path = dir + "/entries/title-color/entry.md"
        try Self.rewriteInPlace(path, "颜色", "颜料", keepModificationTime: true)
        // Make the manifest agree with the file's new status, as if it had been scanned after
        // the edit, and move the scan time the manifest records before or after the racy window.
        let manifestPath = dir + "/.kb/index/" + SearchIndexStore.manifestName
        var manifest = try #require(SearchIndexStore.Manifest.read(manifestPath))
        let status = try #require(SearchIndexStore.FileStatus(path: path))
        let row = try #require(manifest.states.firstIndex { $0.path == path })
        manifest.states[row].status = status
        manifest.scanTime = racy ? status.changeTime : status.changeTime + SearchIndexStore.racyWindow + 1_000_000_000
        try manifest.write(to: manifestPath)
        let (index, freshness, _) = try store.open()
        if racy {
            #expect(freshness == .rebuiltChanged)
            #expect(index.search(query: "颜料").map(\.id) == ["title-color"])
        } else {
            // Outside the window the status is trusted: the index is reused as it is (§12 says so).
            #expect(freshness == .reused)
            #expect(index.search(query: "颜色").map(\.id) == ["title-color"])
        }
    }

    /// `search.bin` keeps no entry text: a result's snippet is read from its entry (through a
    /// symbolic link too) and checked against the index, so an entry changed after the check
    /// and before its result is shown is noticed (`kb search` then rebuilds), never shown stale.
    @Test func snippetsAreReadFromTheEntriesAndChecked() throws {
        let dir = try Self.makeKnowledgeBase()
        defer { TestSupport.remove(dir) }
        let store = SearchIndexStore(entriesDirectory: dir + "/entries", cacheDirectory: dir + "/.kb/index")
        #expect(try store.open().freshness == .built)
        let (index, freshness, _) = try store.open()
        #expect(freshness == .reused && !index.storesTexts)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: dir + "/.kb/index/search.bin"))
        #expect(bytes.range(of: Data("大标题颜色不对".utf8)) == nil)
        #expect(index.search(query: "企鹅").first?.snippet?.text.contains("企鹅图标模糊") == true)
        #expect(index.search(query: "颜色").first?.snippet?.text.contains("大标题颜色不对") == true)
        #expect(!index.isDamaged)

        let (reused, _, _) = try store.open()
        try Self.rewriteInPlace(dir + "/entries/title-color/entry.md", "颜色不对", "颜色不准", keepModificationTime: false)
        let stale = reused.search(query: "颜色")
        #expect(stale.map(\.id) == ["title-color"] && stale[0].snippet == nil)
        #expect(reused.entriesChanged && reused.isDamaged)
        let output = TestSupport.kb(["search", "颜色"], in: dir)
        #expect(output.code == 0 && output.stdout.contains("颜色不准"), "\(output.stdout)\(output.stderr)")
    }

    /// Name lists whose byte order the scan must reproduce: ties in the first 16 bytes, a name
    /// that begins another, non-ASCII bytes.
    static let nameLists: [[String]] = [
        ["kb-000010", "kb-000002", "kb-000001", "kb-0000010"],
        ["a-very-long-common-prefix-b", "a-very-long-common-prefix-a", "a-very-long-common-prefix", "a-very-long-common-prefi"],
        ["z", "é", "e", "E", "ß", "ab", "a"],
        ["0123456789abcdef", "0123456789abcdeg", "0123456789abcde", "0123456789abcdef0"],
    ]

    @Test(arguments: nameLists)
    func theScanOrderIsTheBytesOrder(_ names: [String]) {
        var joined: [UInt8] = []
        var ranges: [Range<Int>] = []
        for name in names {
            let start = joined.count
            joined += Array(name.utf8)
            ranges.append(start..<joined.count)
        }
        let order = joined.withUnsafeBufferPointer { b in
            SearchIndexStore.byteOrder(count: names.count) { UnsafeBufferPointer(rebasing: b[ranges[$0]]) }
        }
        #expect(order.map { names[$0] } == names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
    }

    // MARK: - The knowledge base and its changes

    /// Three entries (one reached through a symbolic link to a file inside the entries folder),
    /// no glossary.
    static func makeKnowledgeBase() throws -> String {
        let dir = TestSupport.temporaryDirectory()
        TestSupport.write(TestSupport.entry(id: "title-color", body: "## 问题\n\n大标题颜色不对。\n"),
                          to: dir + "/entries/title-color/entry.md")
        TestSupport.write(TestSupport.entry(id: "old-name", body: "## 问题\n\n沙漏一直在转。\n"),
                          to: dir + "/entries/old-name/entry.md")
        TestSupport.write(TestSupport.entry(id: "linked", body: "## 问题\n\n企鹅图标模糊。\n"),
                          to: dir + "/entries/.shelf/linked.md")
        try FileManager.default.createDirectory(atPath: dir + "/entries/linked", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir + "/entries/linked/entry.md", withDestinationPath: "../.shelf/linked.md")
        return dir
    }

    static func glossary(en term: String) -> String {
        """
        concepts:
          - id: hourglass
            en: [\(term)]
            zh-Hans: [沙漏]

        """
    }

    /// Runs `kb search <query> --format json` in `dir` and compares the ids it returns.
    static func check(_ expectation: Expectation, in dir: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let result = TestSupport.kb(["search", expectation.query, "--format", "json"], in: dir)
        #expect(result.code == (expectation.ids.isEmpty ? 1 : 0), "\(expectation.query): \(result.stderr)", sourceLocation: sourceLocation)
        let hits = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(hits.compactMap { $0["id"] as? String } == expectation.ids, "\(expectation.query)", sourceLocation: sourceLocation)
    }

    /// Replaces `old` by `new` in the file's own bytes (the folder does not change); with
    /// `keepModificationTime` the file's modification time is set back to what it was, to the
    /// nanosecond.
    static func rewriteInPlace(_ path: String, _ old: String, _ new: String, keepModificationTime: Bool) throws {
        let before = try status(path)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(old))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(text.replacingOccurrences(of: old, with: new).utf8))
        try handle.close()
        if keepModificationTime { try setTimes(path, as: before) }
    }

    /// Writes the new text to a file beside `path` and renames it over `path`.
    static func replaceByRename(_ path: String, _ old: String, _ new: String, keepModificationTime: Bool) throws {
        let before = try status(path)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(old))
        let temporary = path + ".tmp"
        try Data(text.replacingOccurrences(of: old, with: new).utf8).write(to: URL(fileURLWithPath: temporary))
        if keepModificationTime { try setTimes(temporary, as: before) }
        #expect(rename(temporary, path) == 0)
    }

    static func status(_ path: String) throws -> stat {
        var info = stat()
        guard stat(path, &info) == 0 else { throw KBError("cannot stat \(path)") }
        return info
    }

    /// Sets the file's access and modification times to those of `before`, to the nanosecond.
    static func setTimes(_ path: String, as before: stat) throws {
        let times = [before.st_atim, before.st_mtim]
        guard utimensat(AT_FDCWD, path, times, 0) == 0 else { throw KBError("cannot set the times of \(path)") }
        let after = try status(path)
        #expect(after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
    }
}
