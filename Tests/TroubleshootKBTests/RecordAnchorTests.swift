import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

/// `RecordAnchor` spells every record link: page fragments, search anchors, the check report and
/// scenario tags.
@Suite struct RecordAnchorTests {
    struct Spelling: Sendable, CustomTestStringConvertible {
        let anchor: RecordAnchor
        let fragment: String
        var testDescription: String { fragment }
    }

    static let spellings = [
        Spelling(anchor: .attempt(AttemptNumber([1])), fragment: "attempt-1"),
        Spelling(anchor: .attempt(AttemptNumber([4, 1])), fragment: "attempt-4-1"),
        Spelling(anchor: .attempt(AttemptNumber([0])), fragment: "attempt-0"),
        Spelling(anchor: .fix, fragment: "fix"),
    ]

    @Test(arguments: spellings)
    func fragmentAndTag(_ spelling: Spelling) {
        #expect(spelling.anchor.fragment == spelling.fragment)
        #expect(spelling.anchor.tag == "@" + spelling.fragment)
        #expect(RecordAnchor(fragment: Substring(spelling.fragment)) == spelling.anchor)
        #expect(RecordAnchor.reading(tag: spelling.anchor.tag) == .record(spelling.anchor))
    }

    /// Entry pages write the fragment straight into the page; it must be the same text.
    @Test(arguments: spellings)
    func pageWritesTheSameFragment(_ spelling: Spelling) {
        var html = HTMLBuffer()
        EntryPageRenderer.fragment(spelling.anchor, into: &html)
        #expect(String(decoding: html.bytes, as: UTF8.self) == spelling.fragment)
    }

    struct TagCase: Sendable, CustomTestStringConvertible {
        let tag: String
        let reading: RecordAnchor.TagReading?
        var testDescription: String { tag }
    }

    @Test(arguments: [
        TagCase(tag: "@attempt-4.1", reading: .record(.attempt(AttemptNumber([4, 1])))),
        TagCase(tag: "@attempt-２", reading: .record(.attempt(AttemptNumber([2])))),
        TagCase(tag: "@attempt-x", reading: .unreadable(text: "attempt-x")),
        TagCase(tag: "@attempt-", reading: .unreadable(text: "attempt-")),
        TagCase(tag: "@fix", reading: .record(.fix)),
        TagCase(tag: "@fixes", reading: nil),
        TagCase(tag: "@world:navigation-bar", reading: nil),
        TagCase(tag: "fix", reading: nil),
    ])
    func readsScenarioTags(_ example: TagCase) {
        #expect(RecordAnchor.reading(tag: example.tag) == example.reading)
    }

    @Test(arguments: ["attempt-x", "attempt-", "Fix", "attempts", ""])
    func refusesOtherFragments(_ text: String) {
        #expect(RecordAnchor(fragment: Substring(text)) == nil)
    }

    @Test func recordsOfAnEntryAreItsAttemptsThenTheFix() throws {
        let body = "## 尝试过的方案\n\n### 方案 1：一\n\n结果：失败。\n\n### 方案 2：二\n\n结果：成功。\n\n## 最终方案\n\n就这样。\n"
        let entry = try #require(TestSupport.parse(TestSupport.entry(status: "resolved", body: body)).entry)
        #expect(RecordAnchor.records(of: entry) == [.attempt(AttemptNumber([1])), .attempt(AttemptNumber([2])), .fix])
    }
}
