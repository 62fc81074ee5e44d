import Foundation
import Testing
@testable import KBSearch

/// The quantized field lengths of docs/search.md §3.1 (`SearchFieldLength`), and the table
/// `Tests/js/field-length.test.mjs` checks `search-core.js` against
/// (`field-length-codes.json`; re-record with `KB_RECORD_SEARCH=1`).
@Suite struct SearchFieldLengthTests {
    static let url = SearchVectors.directory.appendingPathComponent("field-length-codes.json")

    /// Every length up to 2,100, then the bucket edges of each doubling up to `Int32.max`.
    static let lengths: [Int] = {
        var lengths = Array(0...2_100)
        for e in 12...30 {
            let p = 1 << e
            lengths += [p - 1, p, p + 1, p + p / 8 - 1, p + p / 8, p * 2 - p / 8 - 1, p * 2 - p / 8]
        }
        lengths.append(Int(Int32.max))
        return Array(Set(lengths)).sorted()
    }()

    @Test func shortLengthsAreExact() {
        for length in 0..<SearchFieldLength.exactBelow {
            #expect(SearchFieldLength.code(length) == length)
            #expect(SearchFieldLength.length(length) == length)
        }
        #expect(SearchFieldLength.exactBelow == 16)
    }

    /// Worked values: buckets 2 wide from 16, 4 from 32, 32 from 256, 64 from 512.
    @Test(arguments: [(16, 16, 16), (17, 16, 16), (18, 17, 18), (31, 23, 30), (32, 24, 32), (35, 24, 32), (36, 25, 36),
                      (300, 49, 288), (319, 49, 288), (320, 50, 320), (960, 63, 960), (1_023, 63, 960), (1_024, 64, 1_024)])
    func workedValues(_ length: Int, _ code: Int, _ scored: Int) {
        #expect(SearchFieldLength.code(length) == code)
        #expect(SearchFieldLength.scored(length) == scored)
    }

    @Test func codesAreMonotoneAndScoredLengthsAtMostOneNinthShort() {
        var previous = -1
        for length in Self.lengths {
            let code = SearchFieldLength.code(length), scored = SearchFieldLength.scored(length)
            #expect(code >= previous, "code(\(length)) = \(code) after \(previous)")
            previous = code
            #expect(scored == length || (scored < length && 9 * (length - scored) < length), "\(length) scored as \(scored)")
        }
        // A length below 1,024 is one digit of the web postings (t = 64).
        #expect(SearchFieldLength.code(1_023) < Int(WebDigits.lengthT))
        #expect(SearchFieldLength.code(Int(Int32.max)) < 256)
    }

    @Test func everyCodeRoundTrips() {
        let last = SearchFieldLength.code(Int(Int32.max))
        var previous = -1
        for code in 0...last {
            let length = SearchFieldLength.length(code)
            #expect(length > previous, "length(\(code)) = \(length)")
            previous = length
            #expect(SearchFieldLength.code(length) == code)
            // The next code starts where this one's bucket ends.
            #expect(SearchFieldLength.code(SearchFieldLength.length(code + 1) - 1) == code)
        }
    }

    /// The table the JS test reads: lengths, their codes and scored lengths.
    @Test func tableForTheBrowserIsUpToDate() throws {
        let table: [String: [Int]] = [
            "lengths": Self.lengths,
            "codes": Self.lengths.map(SearchFieldLength.code),
            "scored": Self.lengths.map(SearchFieldLength.scored),
        ]
        let data = try JSONSerialization.data(withJSONObject: table, options: [.sortedKeys]) + Data("\n".utf8)
        if SearchVectors.recording {
            try data.write(to: Self.url)
        } else {
            let committed = try Data(contentsOf: Self.url)
            #expect(committed == data, "field-length-codes.json is stale; re-record with KB_RECORD_SEARCH=1")
        }
    }
}
