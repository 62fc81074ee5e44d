import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

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
        let result = try Self.check(mutation.entry) { original in
            #expect(original.components(separatedBy: mutation.original).count == 2, "the claim is not in the scenario exactly once")
            return original.replacingOccurrences(of: mutation.original, with: mutation.changed)
        }
        #expect(result.verdict == .stale, "\(result.reason ?? "")")
        #expect(result.attempts.contains { $0.anchor == mutation.anchor && $0.verdict == .stale }, "\(result.reason ?? "")")
    }

    /// Checks a copy of `entry` in a scratch knowledge base whose scenario file is `change`d.
    static func check(_ entry: String, changingScenario change: (String) throws -> String) throws -> EntryCheck {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(dir) }
        try FileManager.default.createDirectory(atPath: dir + "/entries", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: TestSupport.entriesDirectory + "/" + entry, toPath: dir + "/entries/" + entry)
        let scenario = dir + "/entries/" + entry + "/scenario.feature"
        try change(try String(contentsOfFile: scenario, encoding: .utf8)).write(toFile: scenario, atomically: true, encoding: .utf8)
        return EntryChecker(settings: CheckTestSupport.settings).check(try CheckTestSupport.item(dir + "/entries", entry))
    }
}

/// Every scenario of the entries that reproduce for real (issue 21's encoding entries) can fail:
/// for each scenario, its first positive output assertion is changed and the record the scenario
/// is tagged with must turn stale.
@Suite(.serialized) struct EveryScenarioCanFailTests {
    /// Entries whose scenarios run real programs end to end.
    static let entries = [
        "wave-dash-shift-jis-cp932", "non-bmp-kanji-surrogate-pairs", "halfwidth-katakana-nfkc-search",
        "git-quotepath-chinese-filenames", "gb2312-gbk-gb18030-iconv", "csv-utf8-bom-first-column",
        "nfd-hangul-filenames-macos", "euc-kr-cp949-iconv",
    ]

    /// A positive "output contains" step with its expected text in quotes, in any of the step
    /// library's languages; group 1 is the text.
    static let positiveStep = try! NSRegularExpression(pattern: [
        #"(?:标准输出|标准错误)包含「(.+)」\s*$"#,
        #"(?:표준 출력|표준 오류)에 "(.+)"(?:이|가) 포함된다\s*$"#,
        #"(?:標準出力|標準エラー出力)に「(.+)」が含まれる\s*$"#,
        #"(?:standard output|standard error|stdout|stderr) contains "(.+)"\s*$"#,
    ].joined(separator: "|"))

    /// A positive doc-string form (`标准输出包含：` and a doc string below).
    static let positiveDocStep = try! NSRegularExpression(pattern:
        #"(?:(?:标准输出|标准错误)包含[：:]|(?:표준 출력|표준 오류)에 다음 내용이 포함된다:|(?:標準出力|標準エラー出力)に次の内容が含まれる[：:]|(?:standard output|standard error) contains:)\s*$"#)

    struct Mutation: CustomTestStringConvertible, Sendable {
        let entry: String
        let anchor: String
        let line: Int
        let original: String
        let changed: String
        var testDescription: String { "\(entry) @\(anchor) line \(line)" }
    }

    /// One mutation per scenario: the first positive assertion after its record tag.
    static func mutations(of entry: String) -> [Mutation] {
        guard let text = try? String(contentsOfFile: TestSupport.entriesDirectory + "/\(entry)/scenario.feature", encoding: .utf8) else { return [] }
        let lines = text.components(separatedBy: "\n")
        var result: [Mutation] = []
        var anchor: String? = nil
        var i = 0
        while i < lines.count {
            let line = lines[i]
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("@") {
                let tags = trimmed.split(separator: " ")
                if let tag = tags.first(where: { $0.hasPrefix("@attempt-") || $0 == "@fix" }) {
                    anchor = tag == "@fix" ? "fix" : String(tag.dropFirst()).replacingOccurrences(of: ".", with: "-")
                }
            }
            if let current = anchor {
                let range = NSRange(line.startIndex..., in: line)
                if let match = positiveStep.firstMatch(in: line, range: range) {
                    let group = (1...4).map { match.range(at: $0) }.first { $0.location != NSNotFound }!
                    let expected = String(line[Range(group, in: line)!])
                    result.append(Mutation(entry: entry, anchor: current, line: i + 1, original: line,
                                           changed: line.replacingOccurrences(of: expected, with: expected + "✗")))
                    anchor = nil
                } else if positiveDocStep.firstMatch(in: line, range: range) != nil, i + 2 < lines.count,
                          lines[i + 1].trimmingCharacters(in: .whitespaces) == "\"\"\"" {
                    result.append(Mutation(entry: entry, anchor: current, line: i + 3, original: lines[i + 2], changed: lines[i + 2] + "✗"))
                    anchor = nil
                }
            }
            i += 1
        }
        return result
    }

    static var all: [Mutation] { entries.flatMap(mutations(of:)) }

    /// Programs the entries' scenarios require (`@requires:`) that this machine lacks.
    static var missingPrograms: [String] {
        let texts = entries.compactMap { try? String(contentsOfFile: TestSupport.entriesDirectory + "/\($0)/scenario.feature", encoding: .utf8) }
        let required = Set(texts.flatMap { $0.matches(of: /@requires:([\w.+-]+)/).map { String($0.1) } }).subtracting(["kb"])
        return required.filter { !CheckTestSupport.has($0) }.sorted()
    }

    @Test func everyRecordedScenarioHasAnAssertionToChange() throws {
        for entry in Self.entries where FileManager.default.fileExists(atPath: TestSupport.entriesDirectory + "/" + entry) {
            let item = try CheckTestSupport.item(TestSupport.entriesDirectory, entry)
            let anchors = Set(RecordAnchor.records(of: try #require(item.entry)).map(\.fragment))
            let mutated = Set(Self.mutations(of: entry).map(\.anchor))
            #expect(mutated == anchors, "\(entry): scenarios with a positive assertion cover \(mutated.sorted()), records are \(anchors.sorted())")
        }
    }

    @Test(.enabled(if: missingPrograms.isEmpty, "a program these scenarios run is missing (scripts/install-deps.sh test installs them all)"),
          arguments: all)
    func changedExpectationIsStale(_ mutation: Mutation) throws {
        let result = try ClaimMutationTests.check(mutation.entry) { text in
            var lines = text.components(separatedBy: "\n")
            #expect(lines[mutation.line - 1] == mutation.original)
            lines[mutation.line - 1] = mutation.changed
            return lines.joined(separator: "\n")
        }
        #expect(result.verdict == .stale, "\(mutation.testDescription): \(result.verdict) \(result.reason ?? "")")
        #expect(result.attempts.contains { $0.anchor == mutation.anchor && $0.verdict == .stale }, "\(result.reason ?? "")")
    }
}

/// Each encoding entry is found first by `kb search` for its own error text, pasted verbatim as
/// the program printed it.
@Suite struct ErrorTextSearchTests {
    static let cases: [(query: String, entry: String)] = [
        ("UnicodeDecodeError: 'shift_jis' codec can't decode byte 0x87 in position 77: illegal multibyte sequence", "wave-dash-shift-jis-cp932"),
        ("ERROR 1366 (22007) at line 5: Incorrect string value: '\\xF0\\xA0\\xAE\\xB7\\xE9\\x87...' for column `shop`.`stores`.`name` at row 1", "non-bmp-kanji-surrogate-pairs"),
        ("UnicodeEncodeError: 'utf-8' codec can't encode character '\\ud842' in position 0: surrogates not allowed", "non-bmp-kanji-surrogate-pairs"),
        ("U+30CF U+309B -> U+30CF U+0020 U+3099", "halfwidth-katakana-nfkc-search"),
        (" M \"\\346\\226\\207\\346\\241\\243.md\"", "git-quotepath-chinese-filenames"),
        ("UnicodeEncodeError: 'gb2312' codec can't encode character '\\u9555' in position 3: illegal multibyte sequence", "gb2312-gbk-gb18030-iconv"),
        ("iconv: illegal input sequence at position 13", "gb2312-gbk-gb18030-iconv"),
        ("KeyError: '\\ufeffid'", "csv-utf8-bom-first-column"),
        ("cat: 보고서/한글.txt: No such file or directory", "nfd-hangul-filenames-macos"),
        ("UnicodeDecodeError: 'euc_kr' codec can't decode byte 0x8c in position 12: illegal multibyte sequence", "euc-kr-cp949-iconv"),
        ("iconv: illegal input sequence at position 17", "euc-kr-cp949-iconv"),
    ]

    @Test(arguments: cases.indices)
    func errorTextFindsItsEntryFirst(_ i: Int) throws {
        let (query, entry) = Self.cases[i]
        let cache = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(cache) }
        let result = TestSupport.kb(["search", query, "--format", "json", "--limit", "3"], in: TestSupport.repositoryRoot, environment: ["KB_CACHE": cache])
        let hits = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]], "\(result.stderr)")
        #expect(hits.first?["id"] as? String == entry, "\(query) → \(hits.map { $0["id"] as? String ?? "" })")
    }
}
