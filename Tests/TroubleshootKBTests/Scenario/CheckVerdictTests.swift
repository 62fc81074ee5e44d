import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

/// `CheckVerdict` is the one verdict type of the check report: `kb check` writes it, the site
/// reads it back, older spellings (docs/site.md) included, and nothing else.
@Suite struct CheckVerdictTests {
    struct Spelling: Sendable, CustomTestStringConvertible {
        let text: String
        let verdict: CheckVerdict
        var testDescription: String { "\(text) → \(verdict.rawValue)" }
    }

    static let written = CheckVerdict.allCases.map { Spelling(text: $0.rawValue, verdict: $0) }
    static let older = [
        Spelling(text: "pass", verdict: .reproduces), Spelling(text: "fail", verdict: .stale),
        Spelling(text: "error", verdict: .broken), Spelling(text: "skip", verdict: .skipped),
    ]

    static func decode(_ text: String) throws -> CheckVerdict {
        try JSONDecoder().decode(CheckVerdict.self, from: Data("\"\(text)\"".utf8))
    }

    @Test("what kb check writes is read back as the same verdict", arguments: written)
    func writtenSpellingRoundTrips(_ spelling: Spelling) throws {
        let encoded = String(decoding: try JSONEncoder().encode(spelling.verdict), as: UTF8.self)
        #expect(encoded == "\"\(spelling.text)\"")
        #expect(try Self.decode(spelling.text) == spelling.verdict)
    }

    @Test("the site's first report format is still read", arguments: older)
    func olderSpellingIsRead(_ spelling: Spelling) throws {
        #expect(try Self.decode(spelling.text) == spelling.verdict)
        #expect(CheckVerdict.olderSpellings[spelling.text] == spelling.verdict)
    }

    @Test("any other spelling is refused", arguments: ["passed", "ok", "failed", "Pass", "REPRODUCES", "", "other"])
    func otherSpellingIsRefused(_ text: String) {
        #expect(throws: DecodingError.self) { try Self.decode(text) }
    }

    /// The report `kb check` writes, read by the site: every verdict arrives as written.
    @Test func siteReadsTheReportKbCheckWrites() throws {
        let report = CheckReportTests.sampleReport()
        let read = try JSONDecoder().decode(SiteCheckReport.self, from: try report.jsonData())
        #expect(read.entries.map(\.id) == report.entries.map(\.id))
        #expect(read.entries.map(\.verdict) == report.entries.map(\.verdict))
        #expect(read.entries.map { $0.attempts.map(\.verdict) } == report.entries.map { $0.attempts.map(\.verdict) })
        #expect(read.entries.map { $0.attempts.map(\.anchor) } == report.entries.map { $0.attempts.map { $0.anchor ?? "" } })
    }

    @Test func siteRefusesAReportWithAnUnknownVerdict() {
        let json = #"{"entries": [{"id": "a", "verdict": "passed", "checkedAt": "2026-11-29T10:00:00Z"}]}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(SiteCheckReport.self, from: Data(json.utf8)) }
    }

    /// Several scenarios for one record: the site keeps the worst verdict, in `severity` order.
    @Test(arguments: [(CheckVerdict.reproduces, CheckVerdict.stale, CheckVerdict.stale), (.broken, .stale, .broken),
                      (.skipped, .reproduces, .skipped), (.stale, .broken, .broken)])
    func worstVerdictOfARecordWins(first: CheckVerdict, second: CheckVerdict, worst: CheckVerdict) {
        let report = SiteCheckReport(entries: [
            .init(id: "a", verdict: worst, checkedAt: "2026-11-29T10:00:00Z",
                  attempts: [.init(anchor: "fix", verdict: first), .init(anchor: "fix", verdict: second)]),
        ])
        #expect(report.latestByEntry()["a"]?.attempts.map(\.verdict) == [worst])
    }
}
