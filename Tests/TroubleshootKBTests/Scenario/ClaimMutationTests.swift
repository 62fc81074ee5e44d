import Foundation
import Testing
@testable import TroubleshootKB

/// The scenario cases added for the entries' corrected claims can fail: with a claim changed
/// (the expected output replaced by what the entry used to say, or by its opposite), the record
/// they check turns stale. Each case copies the entry into a scratch knowledge base, changes
/// one line of its scenario and runs the check for real.
@Suite(.serialized) struct ClaimMutationTests {
    struct Mutation: CustomTestStringConvertible, Sendable {
        let entry: String
        let program: String
        let original: String
        let changed: String
        /// The record that must turn stale.
        let anchor: String
        var testDescription: String { "\(entry): \(changed)" }
    }

    static let mutations: [Mutation] = [
        // ASCII punctuation, links, code spans and __ (cmark-cjk-emphasis-punctuation).
        Mutation(entry: "cmark-cjk-emphasis-punctuation", program: "cmark",
                 original: "かつ標準出力に「<p>**注意:**この</p>」が含まれる",
                 changed: "かつ標準出力に「<p><strong>注意:</strong>この</p>」が含まれる", anchor: "attempt-1"),
        Mutation(entry: "cmark-cjk-emphasis-punctuation", program: "cmark",
                 original: "かつ標準出力に「<p>これは__強調__した</p>」が含まれる",
                 changed: "かつ標準出力に「<p>これは<strong>強調</strong>した</p>」が含まれる", anchor: "attempt-1"),
        Mutation(entry: "cmark-cjk-emphasis-punctuation", program: "cmark",
                 original: "かつ標準出力に「<p><a href=\"url\"><strong>リンク</strong></a>を参照</p>」が含まれる",
                 changed: "かつ標準出力に「<p>**<a href=\"url\">リンク</a>**を参照</p>」が含まれる", anchor: "attempt-3"),
        Mutation(entry: "cmark-cjk-emphasis-punctuation", program: "cmark",
                 original: "    ならば終了コードは1\n",
                 changed: "    ならば終了コードは0\n", anchor: "fix"),
    ]

    @Test(arguments: mutations)
    func changedClaimIsStale(_ mutation: Mutation) throws {
        try #require(CheckTestSupport.has(mutation.program), "\(mutation.program) is not installed")
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(dir) }
        try FileManager.default.createDirectory(atPath: dir + "/entries", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: TestSupport.entriesDirectory + "/" + mutation.entry, toPath: dir + "/entries/" + mutation.entry)
        let scenario = dir + "/entries/" + mutation.entry + "/scenario.feature"
        let original = try String(contentsOfFile: scenario, encoding: .utf8)
        #expect(original.components(separatedBy: mutation.original).count == 2, "the claim is not in the scenario exactly once")
        try original.replacingOccurrences(of: mutation.original, with: mutation.changed).write(toFile: scenario, atomically: true, encoding: .utf8)
        let result = EntryChecker(settings: CheckTestSupport.settings).check(try CheckTestSupport.item(dir + "/entries", mutation.entry))
        #expect(result.verdict == .stale, "\(result.reason ?? "")")
        #expect(result.attempts.contains { $0.anchor == mutation.anchor && $0.verdict == .stale }, "\(result.reason ?? "")")
    }
}
