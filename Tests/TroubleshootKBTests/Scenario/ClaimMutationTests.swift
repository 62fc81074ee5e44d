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
        // A closing quote or an ellipsis at the end of a line joins (cmark-cjk-softbreak-space).
        Mutation(entry: "cmark-cjk-softbreak-space", program: "cmark",
                 original: "而且标准输出包含「<p>他说：“好的。”然后走了。</p>」",
                 changed: "而且标准输出包含「<p>他说：“好的。” 然后走了。</p>」", anchor: "fix"),
        Mutation(entry: "cmark-cjk-softbreak-space", program: "cmark",
                 original: "那么标准输出包含「<p>话没说完……他就走了。</p>」",
                 changed: "那么标准输出包含「<p>话没说完…… 他就走了。</p>」", anchor: "fix"),
        // Half-width katakana: NFKC alone leaves the dakuten apart on Linux (swift-linux-bywords-unavailable).
        Mutation(entry: "swift-linux-bywords-unavailable", program: "swiftc",
                 original: "그리고 표준 출력에 \"NFKC만: 30CA+30D2 30D2+3099 3099+30B1 30B1+3099 3099+30FC 30FC+30B7\"이 포함된다",
                 changed: "그리고 표준 출력에 \"NFKC만: ナビ ビゲ ゲー ーシ ショ ョン\"이 포함된다", anchor: "fix"),
        Mutation(entry: "swift-linux-bywords-unavailable", program: "swiftc",
                 original: "그리고 표준 출력에 \"NFKD+NFC: ナビ ビゲ ゲー ーシ ショ ョン\"이 포함된다",
                 changed: "그리고 표준 출력에 \"NFKD+NFC: 30CA+30D2 30D2+3099 3099+30B1\"이 포함된다", anchor: "fix"),
    ]

    static var cmarkMutations: [Mutation] { mutations.filter { $0.program == "cmark" } }
    static var swiftcMutations: [Mutation] { mutations.filter { $0.program == "swiftc" } }

    @Test(.enabled(if: CheckTestSupport.has("cmark"), "cmark is not installed (scripts/install-deps.sh installs it)"), arguments: cmarkMutations)
    func changedCmarkClaimIsStale(_ mutation: Mutation) throws {
        try changedClaimIsStale(mutation)
    }

    @Test(.enabled(if: CheckTestSupport.has("swiftc"), "swiftc is not on PATH"), arguments: swiftcMutations)
    func changedSwiftClaimIsStale(_ mutation: Mutation) throws {
        try changedClaimIsStale(mutation)
    }

    func changedClaimIsStale(_ mutation: Mutation) throws {
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
