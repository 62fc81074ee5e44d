import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

/// The entries hold what their fact sheets say: every attempt, numbered as the sheet numbers
/// it, with its outcome, and a fix.
struct ExpectedEntry: CustomTestStringConvertible, Sendable {
    let id: String
    let lang: String
    /// Attempt numbers with the outcomes the sheet allows for each.
    let attempts: [(number: String, outcomes: Set<Outcome>)]
    var testDescription: String { id }
}

@Suite struct KnowledgeBaseContentTests {
    static let expected: [ExpectedEntry] = [
        ExpectedEntry(id: "large-title-custom-background", lang: "zh-Hans", attempts: [
            ("0", [.rejected]), ("1", [.failed]), ("2", [.rejected]), ("3", [.failed]), ("4", [.failed]),
        ]),
        ExpectedEntry(id: "nav-bar-shadow-ios17", lang: "ko", attempts: [
            ("1", [.partial]), ("2", [.failed]), ("3", [.worked]), ("4", [.worked, .partial]), ("4-1", [.failed]), ("4-2", [.worked]),
        ]),
        ExpectedEntry(id: "title-attributes-pop-timing", lang: "zh-Hans", attempts: [
            ("1", [.failed]), ("2", [.partial]),
        ]),
        ExpectedEntry(id: "scoped-navigation-bar-appearance", lang: "ja", attempts: [
            ("1", [.failed]),
        ]),
        // The sheet numbers the authors' fix as item 3.
        ExpectedEntry(id: "cmark-cjk-emphasis-punctuation", lang: "ja", attempts: [
            ("1", [.failed]), ("2", [.partial]), ("3", [.worked]),
        ]),
        // Item 3 "works but makes diffs painful (PARTIAL)"; item 4 is the fix.
        ExpectedEntry(id: "cmark-cjk-softbreak-space", lang: "zh-Hans", attempts: [
            ("1", [.failed]), ("2", [.failed]), ("3", [.partial]), ("4", [.worked]),
        ]),
        ExpectedEntry(id: "swift-linux-bywords-unavailable", lang: "ko", attempts: [
            ("1", [.failed]), ("2", [.partial]), ("3", [.worked]), ("4", [.rejected]),
        ]),
        // The encoding entries have no fact sheet: their attempts and outcomes are the ones their
        // scenarios reproduce with real programs (EveryScenarioCanFailTests changes each claim).
        ExpectedEntry(id: "csv-utf8-bom-first-column", lang: "zh-Hans", attempts: [
            ("1", [.failed]), ("2", [.partial]), ("3", [.worked]),
        ]),
        ExpectedEntry(id: "euc-kr-cp949-iconv", lang: "ko", attempts: [
            ("1", [.failed]), ("2", [.failed]), ("3", [.failed]), ("4", [.failed]), ("5", [.failed]),
        ]),
        ExpectedEntry(id: "gb2312-gbk-gb18030-iconv", lang: "zh-Hans", attempts: [
            ("1", [.failed]), ("2", [.failed]), ("3", [.failed]), ("4", [.partial]), ("5", [.worked]),
        ]),
        ExpectedEntry(id: "git-quotepath-chinese-filenames", lang: "zh-Hans", attempts: [
            ("1", [.failed]), ("2", [.partial]), ("3", [.failed]),
        ]),
        ExpectedEntry(id: "halfwidth-katakana-nfkc-search", lang: "ja", attempts: [
            ("1", [.failed]), ("2", [.failed]), ("3", [.failed]),
        ]),
        ExpectedEntry(id: "nfd-hangul-filenames-macos", lang: "ko", attempts: [
            ("1", [.failed]), ("2", [.failed]), ("3", [.failed]), ("4", [.failed]), ("5", [.partial]),
        ]),
        ExpectedEntry(id: "non-bmp-kanji-surrogate-pairs", lang: "ja", attempts: [
            ("1", [.failed]), ("2", [.failed]), ("3", [.partial]), ("4", [.failed]), ("5", [.failed]), ("6", [.failed]), ("7", [.failed]),
        ]),
        ExpectedEntry(id: "wave-dash-shift-jis-cp932", lang: "ja", attempts: [
            ("1", [.failed]), ("2", [.failed]), ("3", [.failed]), ("4", [.failed]), ("5", [.partial]),
        ]),
    ]

    @Test func everyFactSheetHasItsEntry() {
        #expect(Set(Self.expected.map(\.id)) == Set(TestSupport.entryIDs))
    }

    @Test(arguments: expected)
    func attemptsOutcomesAndFixMatchTheFactSheet(_ expected: ExpectedEntry) throws {
        let entry = try EntryRecordsTests.load(expected.id)
        #expect(entry.metadata.lang == expected.lang)
        #expect(entry.attempts.map(\.number.description) == expected.attempts.map(\.number))
        for (attempt, wanted) in zip(entry.attempts, expected.attempts) {
            #expect(wanted.outcomes.contains(attempt.outcome), "attempt \(attempt.number) of \(expected.id) is \(attempt.outcome)")
            #expect(!attempt.idea.isEmpty || !attempt.details.isEmpty, "attempt \(attempt.number) of \(expected.id) has no idea")
        }
        let fix = try #require(entry.fix, "\(expected.id) has no fix")
        #expect(!fix.code.isEmpty, "\(expected.id): the fix has no code")
        #expect(entry.lessons != nil && entry.references != nil)
        #expect(entry.metadata.symptoms.filter { $0.unicodeScalars.allSatisfy { $0.isASCII } }.count >= 2,
                "\(expected.id) needs at least two English symptoms")
    }

    /// Every query of the development set names an entry that exists.
    @Test(.enabled(if: TestSupport.hasSharedData, TestSupport.sharedDataMissing))
    func devQueriesNameExistingEntries() throws {
        let path = TestSupport.sharedDirectory + "/queries/dev.tsv"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let ids = Set(TestSupport.entryIDs)
        let rows = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: "\t") }
        #expect(rows.count > 10)
        for row in rows {
            #expect(ids.contains(String(row[1])), "query '\(row[0])' names unknown entry \(row[1])")
        }
    }
}
