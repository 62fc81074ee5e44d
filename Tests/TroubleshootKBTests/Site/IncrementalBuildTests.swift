import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

/// `kb build` over a site it made before rebuilds only what changed, and the result is the
/// clean build's, byte for byte (the manifest included).
@Suite struct IncrementalBuildTests {
    /// A change to a copy of the repository's entries.
    struct Edit: CustomStringConvertible, Sendable {
        let description: String
        /// Whether the second build is expected to be incremental.
        let incremental: Bool
        let apply: @Sendable (_ entries: String) throws -> Void
    }

    static func replace(_ file: String, _ old: String, _ new: String) throws {
        let text = try String(contentsOfFile: file, encoding: .utf8)
        guard let range = text.range(of: old) else { throw CocoaError(.fileReadCorruptFile) }
        try text.replacingCharacters(in: range, with: new).write(toFile: file, atomically: false, encoding: .utf8)
    }

    static func entry(_ entries: String, _ id: String) -> String { entries + "/" + id + "/entry.md" }

    static let edits: [Edit] = [
        Edit(description: "title", incremental: true) { entries in
            try replace(entry(entries, "csv-utf8-bom-first-column"), "title: \"Excel", "title: \"Edited: Excel")
        },
        Edit(description: "a word in an attempt", incremental: true) { entries in
            let file = entry(entries, "nav-bar-shadow-ios17")
            let text = try String(contentsOfFile: file, encoding: .utf8)
            try (text + "\nZyxwvutsrq 새로운단어 新しい語\n").write(toFile: file, atomically: true, encoding: .utf8)
        },
        Edit(description: "a new tag, a tag gone", incremental: true) { entries in
            let file = entry(entries, "wave-dash-shift-jis-cp932")
            let text = try String(contentsOfFile: file, encoding: .utf8)
            let tags = text.components(separatedBy: "\n").first { $0.hasPrefix("tags:") }!
            try replace(file, tags, "tags: [brand-new-tag]")
        },
        Edit(description: "updated date (order of the lists)", incremental: true) { entries in
            let file = entry(entries, "euc-kr-cp949-iconv")
            let text = try String(contentsOfFile: file, encoding: .utf8)
            let updated = text.components(separatedBy: "\n").first { $0.hasPrefix("updated:") }!
            try replace(file, updated, "updated: 2020-01-01")
        },
        Edit(description: "status of an entry others list as related", incremental: true) { entries in
            let file = entry(entries, "cmark-cjk-softbreak-space")
            try replace(file, "status: resolved", "status: open")
        },
        Edit(description: "language (the lists' status word and attempt marks follow it)", incremental: true) { entries in
            try replace(entry(entries, "csv-utf8-bom-first-column"), "lang: zh-Hans", "lang: zh-Hant")
        },
        Edit(description: "symptoms", incremental: true) { entries in
            let file = entry(entries, "git-quotepath-chinese-filenames")
            let text = try String(contentsOfFile: file, encoding: .utf8)
            let symptoms = text.components(separatedBy: "\n").first { $0.hasPrefix("symptoms:") }!
            try replace(file, symptoms, symptoms + "\n  - 一个全新的症状描述")
        },
        Edit(description: "scenario file edited", incremental: true) { entries in
            let file = entries + "/halfwidth-katakana-nfkc-search/scenario.feature"
            let text = try String(contentsOfFile: file, encoding: .utf8)
            try (text + "\n# 追記\n").write(toFile: file, atomically: true, encoding: .utf8)
        },
        Edit(description: "scenario file removed", incremental: true) { entries in
            try FileManager.default.removeItem(atPath: entries + "/gb2312-gbk-gb18030-iconv/scenario.feature")
        },
        Edit(description: "two entries", incremental: true) { entries in
            try replace(entry(entries, "csv-utf8-bom-first-column"), "title: \"Excel", "title: \"Excel (1)")
            try replace(entry(entries, "cmark-cjk-softbreak-space"), "status: resolved", "status: workaround")
        },
        Edit(description: "nothing", incremental: true) { _ in },
        Edit(description: "entry added", incremental: false) { entries in
            try FileManager.default.createDirectory(atPath: entries + "/added-entry", withIntermediateDirectories: true)
            try "---\nid: added-entry\ntitle: Added\nlang: en\nsummary: A new entry.\nsymptoms: [something breaks]\nstatus: open\nupdated: 2026-01-01\n---\n\n# Added\n\n## Problem\n\nSomething.\n"
                .write(toFile: entries + "/added-entry/entry.md", atomically: true, encoding: .utf8)
        },
        Edit(description: "entry removed", incremental: false) { entries in
            try FileManager.default.removeItem(atPath: entries + "/nfd-hangul-filenames-macos")
        },
    ]

    /// A knowledge base with the repository's entries and kb.yaml in a temporary folder.
    static func knowledgeBase() throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("kb-incremental-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: TestSupport.repositoryRoot + "/entries", toPath: root + "/entries")
        // Files written just before a build are read again by the next one (their stamps are not
        // trusted yet): the copies are dated an hour back, so only the edited files count as changed.
        let past = Date(timeIntervalSinceNow: -3600)
        let paths = [root + "/entries"] + (FileManager.default.subpaths(atPath: root + "/entries") ?? []).map { root + "/entries/" + $0 }
        for path in paths { try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: path) }
        return root
    }

    @Test(arguments: edits)
    func incrementalBuildEqualsCleanBuild(_ edit: Edit) throws {
        let root = try Self.knowledgeBase()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let first = SiteTestSupport.build(["--out", "site"], in: root)
        #expect(first.code == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("Built "))
        try edit.apply(root + "/entries")
        let second = SiteTestSupport.build(["--out", "site"], in: root)
        #expect(second.code == 0, "\(second.stderr)")
        #expect(second.stdout.hasPrefix(edit.incremental ? "Updated " : "Built "), "\(second.stdout)")
        let clean = SiteTestSupport.build(["--out", "clean", "--clean"], in: root)
        #expect(clean.code == 0, "\(clean.stderr)")
        let incremental = SiteTestSupport.snapshot(root + "/site"), expected = SiteTestSupport.snapshot(root + "/clean")
        #expect(Set(incremental.keys) == Set(expected.keys), "files only in one: \(Set(incremental.keys).symmetricDifference(expected.keys).sorted())")
        // The manifests differ only in the stamps: a file changed just before a build is not
        // trusted yet, and the two builds ran at different times.
        let differing = expected.keys.filter { $0 != BuildManifest.fileName && incremental[$0] != expected[$0] }.sorted()
        #expect(differing.isEmpty, "differ from a clean build: \(differing)")
        #expect(Self.withoutStamps(incremental[BuildManifest.fileName]) == Self.withoutStamps(expected[BuildManifest.fileName]))
        // And once more with nothing changed: nothing is written.
        let third = SiteTestSupport.build(["--out", "site"], in: root)
        #expect(third.code == 0 && (third.stdout.contains("nothing changed") || third.stdout.contains(" 0 files written")), "\(third.stdout)")
    }

    /// A knowledge base of `count` small generated entries: lists of several pages (two tags with
    /// most entries), symptom groups of several pages, related links.
    static func generatedKnowledgeBase(count: Int) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("kb-incremental-gen-\(UUID().uuidString)").path
        let past = Date(timeIntervalSinceNow: -3600)
        for k in 0..<count {
            let id = String(format: "gen-%04d", k)
            let folder = root + "/entries/" + id
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let tags = k % 7 == 0 ? "[common, rare-\(k % 3)]" : "[common, other]"
            let related = k > 0 ? "\nrelated: [\(String(format: "gen-%04d", k - 1))]" : ""
            let text = """
            ---
            id: \(id)
            title: "Generated problem \(k) with the toolbar"
            lang: en
            summary: "Summary \(k)."
            symptoms: ["toolbar symptom \(k) alpha", "toolbar symptom \(k) beta", "shared phrase"]
            tags: \(tags)
            status: \(k % 2 == 0 ? "resolved" : "open")
            updated: 2026-\(String(format: "%02d", 1 + k % 12))-\(String(format: "%02d", 1 + k % 28))\(related)
            ---

            # Generated problem \(k)

            ## Problem

            The toolbar misbehaves in case \(k).

            ## Attempts

            ### Attempt 1: hide it

            - **Idea:** hide the toolbar.
            - **Result:** failed. It came back.
            - **Cause:** the system shows it again.

            ## Fix

            Set it once more in case \(k).

            """
            try text.write(toFile: folder + "/entry.md", atomically: false, encoding: .utf8)
            try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: folder + "/entry.md")
            try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: folder)
        }
        try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: root + "/entries")
        return root
    }

    static let generatedEdits: [Edit] = [
        Edit(description: "title", incremental: true) { entries in
            try replace(entry(entries, "gen-0150"), "title: \"Generated problem 150", "title: \"Renamed problem 150")
        },
        Edit(description: "status and summary: its line changes in place on the list pages", incremental: true) { entries in
            try replace(entry(entries, "gen-0151"), "status: open", "status: resolved")
            try replace(entry(entries, "gen-0151"), "summary: \"Summary 151.", "summary: \"A longer summary of case 151.")
        },
        Edit(description: "title of an entry on a long list and a short one", incremental: true) { entries in
            try replace(entry(entries, "gen-0007"), "title: \"Generated problem 7 ", "title: \"Another problem 7 ")
        },
        Edit(description: "date: moves to another list page", incremental: true) { entries in
            try replace(entry(entries, "gen-0150"), "updated: 2026-", "updated: 2019-")
        },
        Edit(description: "symptom phrases", incremental: true) { entries in
            try replace(entry(entries, "gen-0150"), "\"toolbar symptom 150 alpha\"", "\"a phrase that sorts first\"")
        },
        Edit(description: "the last entry of a tag", incremental: true) { entries in
            try replace(entry(entries, "gen-0000"), "[common, rare-0]", "[common]")
        },
    ]

    @Test(arguments: generatedEdits)
    func incrementalBuildOfManyEntriesEqualsCleanBuild(_ edit: Edit) throws {
        let root = try Self.generatedKnowledgeBase(count: 260)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let first = SiteTestSupport.build(["--out", "site"], in: root)
        #expect(first.code == 0, "\(first.stderr.prefix(2000))")
        #expect(FileManager.default.fileExists(atPath: root + "/site/tags/common/page-3.html"))
        #expect(FileManager.default.fileExists(atPath: root + "/site/symptoms/en-2.html"))
        try edit.apply(root + "/entries")
        let second = SiteTestSupport.build(["--out", "site"], in: root)
        #expect(second.code == 0, "\(second.stderr)")
        #expect(second.stdout.hasPrefix("Updated "), "\(second.stdout)")
        #expect(SiteTestSupport.build(["--out", "clean", "--clean"], in: root).code == 0)
        let incremental = SiteTestSupport.snapshot(root + "/site"), expected = SiteTestSupport.snapshot(root + "/clean")
        #expect(Set(incremental.keys) == Set(expected.keys), "files only in one: \(Set(incremental.keys).symmetricDifference(expected.keys).sorted())")
        let differing = expected.keys.filter { $0 != BuildManifest.fileName && incremental[$0] != expected[$0] }.sorted()
        #expect(differing.isEmpty, "differ from a clean build: \(differing)")
    }

    // MARK: Quantized field lengths

    /// Distinct one-token words (letters only: no stop word, no plural `s`) for a long body.
    static let fillerWords: [String] = (0..<48).map { k in
        let letters = Array("bcdfghjklmnpqrtvwxz")
        return "zq" + String(letters[k % letters.count]) + String(letters[k / letters.count]) + "o"
    }

    /// Inode and modification time of each file under `root`, by relative path.
    static func stamps(_ root: String) -> [String: String] {
        var result: [String: String] = [:]
        for path in FileManager.default.subpaths(atPath: root) ?? [] {
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: root + "/" + path),
                  attributes[.type] as? FileAttributeType == .typeRegular else { continue }
            let time = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            result[path] = "\(attributes[.systemFileNumber] ?? "") \(time)"
        }
        return result
    }

    /// The number of literal tokens of the body of entry `id` (its `len[d][body]`).
    static func bodyLength(_ root: String, _ id: String) throws -> Int {
        let kb = try KnowledgeBaseLoader(workingDirectory: root).load(paths: [root + "/entries"])
        let entry = try #require(kb.entries.first { $0.id == id })
        let document = SearchDocument(entry: entry)
        let length = (document.fields[.body] ?? []).reduce(0) { $0 + SearchAnalyzer.analyze($1.text, mode: .document).count }
        // The index scores the body by its quantized length.
        let index = SearchIndex.build(documents: [document])
        #expect(Int(index.fieldLengths[SearchField.body.rawValue]) == SearchFieldLength.scored(length))
        return length
    }

    /// The shard file of `token` in the site's search export.
    static func searchShard(of token: String, site: String) throws -> String {
        let meta = SiteTestSupport.text(FileManager.default.contents(atPath: site + "/search/meta.js"))
        let count = try #require(meta.split(separator: "\"shardCount\":").dropFirst().first.flatMap { Int($0.prefix { $0.isNumber }) })
        return "search/shard-\(SearchAnalyzer.tokenHash(token) % UInt32(count)).js"
    }

    /// A sentence appended to a long body: when the body's length code stays, the search files of
    /// the body's other words are not written again; when it changes, they are (every record of
    /// the document in the body carries the code). Either way the site equals a clean build.
    @Test func sentenceAddedToALongBodyLeavesTheOtherBodyWordsFiles() throws {
        let root = try Self.generatedKnowledgeBase(count: 24)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let id = "gen-0010", file = Self.entry(root + "/entries", "gen-0010")
        let paragraph = (0..<175).map { Self.fillerWords[$0 % Self.fillerWords.count] }.joined(separator: " ")
        let original = try String(contentsOfFile: file, encoding: .utf8)
        try (original + "\n## Lessons learned\n\n" + paragraph + ".\n").write(toFile: file, atomically: false, encoding: .utf8)
        #expect(SiteTestSupport.build(["--out", "site"], in: root).code == 0)

        /// Appends `text` to the entry, builds the site again and compares it with a clean build;
        /// returns the stamps and bytes of the site before and after, and the body's lengths.
        func edit(_ text: String) throws -> (changed: Set<String>, rewritten: Set<String>, lengths: (Int, Int)) {
            let before = try Self.bodyLength(root, id)
            let stamps = Self.stamps(root + "/site"), bytes = SiteTestSupport.snapshot(root + "/site")
            let current = try String(contentsOfFile: file, encoding: .utf8)
            try (current + "\n" + text + "\n").write(toFile: file, atomically: false, encoding: .utf8)
            let build = SiteTestSupport.build(["--out", "site"], in: root)
            #expect(build.code == 0, "\(build.stderr)")
            #expect(build.stdout.hasPrefix("Updated "), "\(build.stdout)")
            let clean = SiteTestSupport.build(["--out", "clean", "--clean"], in: root)
            #expect(clean.code == 0, "\(clean.stderr)")
            let site = SiteTestSupport.snapshot(root + "/site"), expected = SiteTestSupport.snapshot(root + "/clean")
            let differing = Set(site.keys).union(expected.keys).filter { $0 != BuildManifest.fileName && site[$0] != expected[$0] }
            #expect(differing.isEmpty, "differ from a clean build: \(differing.sorted())")
            let newStamps = Self.stamps(root + "/site")
            let changed = Set(site.keys.filter { site[$0] != bytes[$0] })
            let rewritten = Set(newStamps.keys.filter { newStamps[$0] != stamps[$0] })
            // A file is written again only when its bytes change.
            #expect(rewritten.subtracting([BuildManifest.fileName]) == changed.subtracting([BuildManifest.fileName]))
            return (changed, rewritten, (before, try Self.bodyLength(root, id)))
        }

        // A sentence of 4 tokens (observation, bar, stay, transparent) within the body's bucket.
        let sentence = "Observation: the bar stays transparent."
        let first = try edit(sentence)
        let (short, long) = first.lengths
        #expect(long == short + 4)
        try #require(short >= SearchFieldLength.exactBelow && SearchFieldLength.code(short) == SearchFieldLength.code(long),
                     "the body's length \(short) → \(long) should keep its code")
        let sentenceShards = try Set(SearchAnalyzer.tokenize(sentence, mode: .document).map { try Self.searchShard(of: $0, site: root + "/site") })
        var kept = 0
        for word in Self.fillerWords {
            let shard = try Self.searchShard(of: word, site: root + "/site")
            guard !sentenceShards.contains(shard) else { continue }
            let written = first.rewritten.contains(shard)
            #expect(!written, "\(shard) (\(word)) was written again")
            kept += 1
        }
        #expect(kept >= 10, "only \(kept) body words have shards of their own")
        #expect(first.rewritten.contains { sentenceShards.contains($0) })

        // Enough of one body word to move the body to another bucket: every record of the body
        // changes, so the shards of the other body words are written again.
        let repeated = Self.fillerWords[0]
        let second = try edit(Array(repeating: repeated, count: 40).joined(separator: " ") + ".")
        try #require(SearchFieldLength.code(second.lengths.0) != SearchFieldLength.code(second.lengths.1))
        let repeatedShard = try Self.searchShard(of: repeated, site: root + "/site")
        var moved = 0
        for word in Self.fillerWords.dropFirst() {
            let shard = try Self.searchShard(of: word, site: root + "/site")
            guard shard != repeatedShard else { continue }
            let written = second.rewritten.contains(shard)
            #expect(written, "\(shard) (\(word)) was not written again")
            moved += 1
        }
        #expect(moved >= 10)
    }

    static func withoutStamps(_ data: Data?) -> BuildManifest? {
        guard let data, var manifest = BuildManifest(decoding: [UInt8](data)) else { return nil }
        // The entries folder's stamp too: an entry added or removed changes the folder, and whether
        // a build kept its time or -1 (changed within two seconds) depends on how soon it ran.
        manifest.entriesFolder = .missing
        for k in manifest.entries.indices {
            manifest.entries[k].folder = .missing
            manifest.entries[k].entry = .missing
            manifest.entries[k].scenarioStamp = .missing
        }
        return manifest
    }

    @Test func lintErrorLeavesTheSiteAndTheNextBuildRecovers() throws {
        let root = try Self.knowledgeBase()
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(SiteTestSupport.build(["--out", "site"], in: root).code == 0)
        let before = SiteTestSupport.snapshot(root + "/site")
        let file = Self.entry(root + "/entries", "csv-utf8-bom-first-column")
        try Self.replace(file, "title: \"Excel", "title: \"Excel\" broken")
        let failed = SiteTestSupport.build(["--out", "site"], in: root)
        #expect(failed.code == 1)
        #expect(failed.stderr.contains("entries/csv-utf8-bom-first-column/entry.md:"), "\(failed.stderr)")
        #expect(SiteTestSupport.snapshot(root + "/site") == before, "a failed build changed the site")
        try Self.replace(file, "title: \"Excel\" broken", "title: \"Excel fixed")
        let fixed = SiteTestSupport.build(["--out", "site"], in: root)
        #expect(fixed.code == 0, "\(fixed.stderr)")
        #expect(fixed.stdout.hasPrefix("Updated "), "\(fixed.stdout)")
        #expect(SiteTestSupport.text(SiteTestSupport.snapshot(root + "/site")["entries/csv-utf8-bom-first-column.html"]).contains("Excel fixed"))
    }

    @Test func damagedManifestMeansACleanBuild() throws {
        let root = try Self.knowledgeBase()
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(SiteTestSupport.build(["--out", "site"], in: root).code == 0)
        let manifest = root + "/site/" + BuildManifest.fileName
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: manifest)))
        bytes.removeLast(7)
        try Data(bytes).write(to: URL(fileURLWithPath: manifest))
        let again = SiteTestSupport.build(["--out", "site", "--verbose"], in: root)
        #expect(again.code == 0)
        #expect(again.stdout.hasPrefix("Built "), "\(again.stdout)")
        #expect(again.stderr.contains("clean build: no manifest of a previous build"), "\(again.stderr)")
    }

    @Test func manifestRoundTrips() throws {
        let root = try Self.knowledgeBase()
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(SiteTestSupport.build(["--out", "site"], in: root).code == 0)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: root + "/site/" + BuildManifest.fileName)))
        let manifest = try #require(BuildManifest(decoding: bytes))
        #expect(manifest.entries.count == 15)
        #expect(manifest.encoded() == bytes)
        for cut in [1, 10, bytes.count / 2, bytes.count - 1] {
            #expect(BuildManifest(decoding: Array(bytes.prefix(cut))) == nil, "a manifest cut at \(cut) bytes was read")
        }
    }
}
