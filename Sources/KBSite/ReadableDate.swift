import KBCore
import KBSearch
import KBScenarios
/// A date of the check report or the front matter as a reader of the page's language writes it:
/// `2026年12月2日` (zh, ja), `2026년 12월 2일` (ko), `2 Dec 2026` (en). Made from the digits of the
/// text as written (`2026-12-02` or `2026-12-02T05:33:21Z`, the calendar date of its own offset),
/// never from the machine's locale or time zone, so a page is the same on every machine.
enum ReadableDate {
    /// How a language writes a date; the first row whose prefix the tag starts with wins.
    enum Style: Sendable {
        /// `2026年12月2日`
        case yearMonthDayKanji
        /// `2026년 12월 2일`
        case yearMonthDayHangul
        /// `2 Dec 2026`
        case dayMonthNameYear
    }

    static let styles: [(prefix: String, style: Style)] = [
        ("zh", .yearMonthDayKanji), ("ja", .yearMonthDayKanji), ("ko", .yearMonthDayHangul), ("en", .dayMonthNameYear),
    ]

    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func style(_ lang: String) -> Style {
        styles.first { lang.hasPrefix($0.prefix) }?.style ?? .dayMonthNameYear
    }

    /// The year, month and day at the start of `text` (`YYYY-MM-DD…`), if they make a date.
    static func parts(_ text: String) -> (year: Int, month: Int, day: Int)? {
        let digits = Array(text.utf8.prefix(10))
        guard digits.count == 10, digits[4] == UInt8(ascii: "-"), digits[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for k in range {
                guard digits[k] >= UInt8(ascii: "0"), digits[k] <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(digits[k] - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              (1...12).contains(month), (1...31).contains(day) else { return nil }
        return (year, month, day)
    }

    /// `text` as the language writes the date, or `text` itself when it does not start with one.
    static func format(_ text: String, lang: String) -> String {
        guard let (year, month, day) = parts(text) else { return text }
        switch style(lang) {
        case .yearMonthDayKanji: return "\(year)年\(month)月\(day)日"
        case .yearMonthDayHangul: return "\(year)년 \(month)월 \(day)일"
        case .dayMonthNameYear: return "\(day) \(monthNames[month - 1]) \(year)"
        }
    }
}
