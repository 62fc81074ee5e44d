import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

/// A raw write-up and what its draft must contain.
struct ImportFixture: Sendable, CustomTestStringConvertible {
    let name: String
    let path: String
    let id: String
    let lang: String
    /// Attempt numbers in order with the outcome the draft gives (`unknown` where the text says nothing).
    let attempts: [(number: String, outcome: Outcome)]
    /// Attempts whose outcome is drafted from phrases that describe what happened (`基本失效`)
    /// rather than stated with an outcome word; the draft asks the author to confirm each.
    let drafted: Set<String>
    /// Outcomes the fact sheet gives (nil where it gives none, e.g. a group heading): an outcome
    /// read from the text must never contradict them.
    let factOutcomes: [Set<Outcome>?]
    /// Fence languages of the code blocks, in order.
    let codeLanguages: [String]
    let mediaNotes: Int
    let referenceLinks: Int

    var testDescription: String { name }

    static let rawDirectory = TestSupport.sharedDirectory + "/fixtures/raw"
    static let ownDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path + "/Fixtures"

    /// The fixtures to run: the project's own, and the shared ones where `../shared` is present
    /// (`sharedFixturesAreReadable` is disabled, with the reason, where it is not).
    static var all: [ImportFixture] { listed.filter { !$0.isShared || TestSupport.hasSharedData } }
    var isShared: Bool { path.hasPrefix(Self.rawDirectory) }

    static let listed: [ImportFixture] = [
        // The raw Chinese write-up names no outcome word (失败/无效/成功/放弃…) in any result: its
        // results describe what happened ("基本失效", "用户不接受", "总是 nil"), so every outcome is drafted.
        ImportFixture(name: "large-title-custom-background (zh, shared)", path: rawDirectory + "/large-title-custom-background.zh.txt",
                      id: "large-title-custom-background", lang: "zh-Hans",
                      attempts: [("0", .rejected), ("1", .failed), ("2", .rejected), ("3", .failed), ("4", .failed)],
                      drafted: ["0", "1", "2", "3", "4"],
                      factOutcomes: [[.rejected], [.failed], [.partial, .rejected], [.failed], [.failed]],
                      codeLanguages: ["swift", "swift", "swift", "swift", "swift", "swift", "swift", "swift"],
                      mediaNotes: 0, referenceLinks: 0),
        // The raw Korean write-up states outcomes only for 4-1 ("탐색에 실패함") and 4-2 ("결과: … 성공함");
        // 1–3 are drafted from "변경되나 … 존재하지 않음", "적용 안 됨" and "모두 적용"; 4 groups 4-1 and 4-2.
        ImportFixture(name: "nav-bar-shadow-ios17 (ko, shared)", path: rawDirectory + "/nav-bar-shadow-ios17.ko.txt",
                      id: "nav-bar-shadow-ios17", lang: "ko",
                      attempts: [("1", .partial), ("2", .failed), ("3", .worked), ("4", .unknown), ("4-1", .failed), ("4-2", .worked)],
                      drafted: ["1", "2", "3"],
                      factOutcomes: [[.partial], [.failed], [.worked], nil, [.failed], [.worked]],
                      codeLanguages: [], mediaNotes: 1, referenceLinks: 0),
        // Wiki style: bare headings with their text right below, labels, shell and Swift, a screenshot table.
        ImportFixture(name: "widget-app-group-defaults (ja, wiki)", path: ownDirectory + "/widget-app-group-defaults.ja.txt",
                      id: "widget-app-group-defaults", lang: "ja",
                      attempts: [("1", .failed), ("2", .failed), ("3", .worked)],
                      drafted: ["2"],
                      factOutcomes: [[.failed], [.failed], [.worked]],
                      codeLanguages: ["swift", "sh", "swift", "swift"], mediaNotes: 1, referenceLinks: 2),
        // Chat thread: one message per line, attempts typed as "Try n:", command output after prompts, JSON.
        ImportFixture(name: "xcode15-script-sandbox-rsync (en, chat)", path: ownDirectory + "/xcode15-script-sandbox-rsync.en.txt",
                      id: "xcode15-script-sandbox-rsync", lang: "en",
                      attempts: [("1", .failed), ("2", .failed), ("3", .failed), ("4", .worked)],
                      drafted: ["2"],
                      factOutcomes: [[.failed], [.failed], [.failed], [.worked]],
                      codeLanguages: ["sh", "sh", "sh", "sh", "json"], mediaNotes: 0, referenceLinks: 2),
        // Blog style, one per language (our own test data): the way commonly shown first, then "but …"
        // (drafted as attempt 1, outcome left to the author), then usage / implementation headings
        // (drafted as the fix).
    ] + ["sheet-dismiss-confirmation.ja", "load-more-at-list-end.zh", "keyboard-covers-button.ko", "urlsession-retry-backoff.en"].map { name in
        let lang = ["ja": "ja", "zh": "zh-Hans", "ko": "ko", "en": "en"][String(name.split(separator: ".").last!)]!
        return ImportFixture(name: "\(name) (blog)", path: ownDirectory + "/\(name).txt", id: String(name.split(separator: ".").first!), lang: lang,
                             attempts: [("1", .unknown)], drafted: [], factOutcomes: [nil],
                             codeLanguages: ["swift", "swift", "swift"], mediaNotes: 0, referenceLinks: 0)
    }

    func read() -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}

@Suite struct ImportFixtureTests {
    static let today = "2026-04-01"

    /// Drafts the fixture, writes it to a temporary `entries/<id>/entry.md`, and parses it back.
    static func importFixture(_ fixture: ImportFixture) throws -> (raw: String, markdown: String, entry: Entry, lint: [String: Any]) {
        let raw = try #require(fixture.read(), "\(fixture.path) cannot be read")
        let draft = EntryImporter().draft(raw, options: .init(id: fixture.id, today: today))
        let markdown = try #require(draft.markdown)
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(dir) }
        TestSupport.write(markdown, to: "\(dir)/entries/\(fixture.id)/entry.md")
        let lint = TestSupport.kb(["lint", "--format", "json"], in: dir)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(lint.stdout.utf8)) as? [String: Any])
        let parsed = TestSupport.parse(markdown, folder: fixture.id)
        let entry = try #require(parsed.entry)
        return (raw, markdown, entry, report)
    }

    @Test(.enabled(if: TestSupport.hasSharedData, TestSupport.sharedDataMissing))
    func sharedFixturesAreReadable() {
        let shared = ImportFixture.listed.filter(\.isShared)
        #expect(!shared.isEmpty)
        for fixture in shared { #expect(fixture.read() != nil, "\(fixture.path) cannot be read") }
    }

    @Test(arguments: ImportFixture.all)
    func draftLintsCleanAndHasTheAttemptsAndFix(_ fixture: ImportFixture) throws {
        let (_, markdown, entry, report) = try Self.importFixture(fixture)
        let diagnostics = report["diagnostics"] as? [[String: Any]] ?? []
        let errors = diagnostics.filter { $0["severity"] as? String == "error" }
        #expect(report["errors"] as? Int == 0, "lint errors: \(errors)")
        // Warnings are the importer's questions and the unknown outcomes only.
        let rules = Set(diagnostics.compactMap { $0["rule"] as? String })
        #expect(rules.isSubset(of: ["import-todo", "unknown-outcome"]), "\(rules)")

        #expect(entry.metadata.lang == fixture.lang)
        #expect(entry.metadata.id == fixture.id)
        #expect(entry.metadata.updated == Self.today)
        #expect(!entry.metadata.symptoms.isEmpty && !entry.metadata.summary.isEmpty)
        #expect(entry.metadata.status == .resolved)
        #expect(entry.fix != nil, "no fix section in:\n\(markdown)")

        #expect(entry.attempts.map(\.number.description) == fixture.attempts.map(\.number))
        #expect(entry.attempts.map(\.outcome) == fixture.attempts.map(\.outcome))
        for (index, (attempt, facts)) in zip(entry.attempts, fixture.factOutcomes).enumerated() {
            let todos = TestSupport.comments(underAttempt: index, of: entry).filter { $0.contains("TODO(kb-import)") }
            if attempt.outcome == .unknown {
                // Where the text states no outcome the draft asks instead of guessing.
                #expect(!todos.isEmpty, "attempt \(attempt.number) is unknown without a TODO(kb-import)")
            }
            // A drafted outcome always comes with the phrases it was drafted from and a question.
            let asksToConfirm = todos.contains { $0.contains("attempt \(attempt.number): outcome") && $0.contains("drafted from \"") }
            #expect(asksToConfirm == fixture.drafted.contains(attempt.number.description),
                    "attempt \(attempt.number): drafted-outcome question \(asksToConfirm ? "present" : "missing") in \(todos)")
            if attempt.outcome != .unknown, let facts {
                #expect(facts.contains(attempt.outcome), "attempt \(attempt.number): \(attempt.outcome) contradicts the fact sheet")
            }
        }
    }

    @Test(arguments: ImportFixture.all)
    func everyCodeRunIsFencedWithALanguage(_ fixture: ImportFixture) throws {
        let (_, markdown, entry, _) = try Self.importFixture(fixture)
        var languages: [String] = []
        var mediaNotes = 0
        for block in entry.body.blocks {
            block.walk { node in
                if case .codeBlock(let info) = node.kind { languages.append(info) }
            }
            if block.kind == .htmlBlock, block.literal.contains("kb-import: media") { mediaNotes += 1 }
        }
        #expect(languages == fixture.codeLanguages)
        #expect(mediaNotes == fixture.mediaNotes)
        #expect((entry.references?.links.count ?? 0) == fixture.referenceLinks)
        // Outside fences nothing may look like Swift (or a shell prompt / JSON line).
        let swiftLooking = try NSRegularExpression(pattern: #"^\s*(func |let |var |guard |struct |enum |final class |class [A-Z]|override |private |fileprivate |extension [A-Z]|import [A-Z]|@objc|@MainActor|\.[a-z]\w*[({]|\}|\{$|.*\{\s*$|//|\$ |"[^"]+"\s*:)"#)
        var inFence = false
        var inFrontMatter = false
        for (index, line) in markdown.components(separatedBy: "\n").enumerated() {
            if index == 0 && line == "---" { inFrontMatter = true; continue }
            if inFrontMatter { if line == "---" { inFrontMatter = false }; continue }
            if line.hasPrefix("```") || line.hasPrefix("~~~") { inFence.toggle(); continue }
            guard !inFence else { continue }
            let range = NSRange(line.startIndex..., in: line)
            #expect(swiftLooking.firstMatch(in: line, range: range) == nil, "code outside a fence: \(line)")
        }
        #expect(!inFence)
    }

    /// Text as compared: no Markdown the importer adds (`**`, `<>` of autolinks, escapes), single spaces.
    static func normalised(_ text: String) -> String {
        let stripped = text.unicodeScalars.filter { !"*<>\\".unicodeScalars.contains($0) }
        return String(String.UnicodeScalarView(stripped)).split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// The pieces of an input line the draft may put apart: the line without its bullet, split at
    /// its label colon (`시도 4-1 (…): text` becomes a heading and a paragraph) and at sentence ends
    /// (a closing sentence with the outcome moves under a result label).
    static func pieces(of line: String) -> [String] {
        var text = line.trimmingCharacters(in: .whitespaces)
        if let first = text.first, "•·・◦‣▪●-*+".contains(first), text.dropFirst().first.map({ $0 == " " || !"-*+".contains(first) }) ?? false {
            text = String(text.dropFirst()).trimmingCharacters(in: .whitespaces)
        }
        var parts = [text]
        if let split = ImportText.splitAtLabelColon(text) { parts = [split.head, split.body] }
        return parts.flatMap { part -> [String] in
            var sentences: [String] = []
            var current = ""
            let characters = Array(part)
            for (i, c) in characters.enumerated() {
                current.append(c)
                if "。！？".contains(c) || (".!?".contains(c) && (i + 1 == characters.count || characters[i + 1] == " ")) {
                    sentences.append(current)
                    current = ""
                }
            }
            sentences.append(current)
            return sentences.map(normalised).filter { !$0.isEmpty }
        }
    }

    @Test(arguments: ImportFixture.all)
    func nothingIsLost(_ fixture: ImportFixture) throws {
        let (raw, markdown, _, _) = try Self.importFixture(fixture)
        let body = markdown.components(separatedBy: "\n---\n").dropFirst().joined(separator: "\n---\n")
        let draft = Self.normalised(body)
        var missing: [String] = []
        for line in raw.components(separatedBy: "\n") where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            for piece in Self.pieces(of: line) where !draft.contains(piece) {
                missing.append(piece)
            }
        }
        #expect(missing.isEmpty, "not in the draft: \(missing)")
    }
}
