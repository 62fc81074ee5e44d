import Foundation
import KBCore

extension WebDigits {
    /// The value of each byte as a digit, or -1 for a byte that is not one.
    static let values: [Int8] = {
        var values = [Int8](repeating: -1, count: 256)
        for (v, c) in alphabet.enumerated() { values[Int(c)] = Int8(v) }
        return values
    }()

    /// Appends `v` with terminal count `t` (the same characters as `write`).
    static func append(_ v: Int, _ t: UInt32, to out: inout [UInt8]) {
        let t = Int(t), c = Int(radix) - t
        var v = v
        while v >= t {
            v -= t
            out.append(alphabet[t + v % c])
            v /= c
        }
        out.append(alphabet[v])
    }
}

/// Walks the records of one token's web postings (docs/search.md §6) and decodes them: the
/// document, text, field, field length, tf and positions of each, and where it lies in the
/// string (so that a document's records can be cut out and the head of the record after them
/// written anew).
struct WebPostingsScanner {
    /// One record, with its byte range in the postings.
    struct Record: Equatable {
        var document = 0
        var text = 0
        var field = 0
        /// The length of the record's field in its document, as scored (decoded from its
        /// `SearchFieldLength` code; filled only when the scanner decodes values).
        var fieldLength = 0
        var tf = 0
        /// Whether it is the first record of its document (an odd head).
        var isFirstInDocument = false
        /// Where the record starts, where its head ends, and where it ends.
        var start = 0
        var headEnd = 0
        var end = 0
    }

    /// Malformed postings.
    struct Malformed: Error, CustomStringConvertible {
        var offset: Int
        var description: String { "malformed postings at byte \(offset)" }
    }

    let bytes: [UInt8]
    let range: Range<Int>
    /// `maxPositions` of the export.
    let cap: Int
    /// Whether `record.fieldLength` and `positions` are filled; else those numbers are read
    /// and dropped: locating a document's records needs only each record's document and place.
    var decodesValues = false
    private(set) var offset: Int
    /// The record `next()` read last.
    private(set) var record = Record()
    /// Its first `min(tf, maxPositions)` positions (filled only when the scanner decodes values).
    private(set) var positions: [Int] = []
    /// Records read so far.
    private(set) var count = 0
    /// `WebDigits.values`, held here so the loop reads it without the global's access check.
    private let digitValues = WebDigits.values

    /// A scanner over the postings `bytes[range]`.
    init(_ bytes: [UInt8], range: Range<Int>? = nil, maxPositions cap: Int) {
        self.bytes = bytes
        self.range = range ?? bytes.startIndex..<bytes.endIndex
        self.cap = max(0, cap)
        offset = self.range.lowerBound
    }

    var isAtEnd: Bool { offset >= range.upperBound }

    /// Reads the next record into `record` and `positions` (in place: the array is reused); false at
    /// the end of the postings.
    mutating func next() throws(Malformed) -> Bool {
        guard offset < range.upperBound else { return false }
        let fc = SearchIndex.fieldCount
        let previous = (document: record.document, text: record.text, field: record.field)
        let start = offset
        record.start = start
        let head = try number(WebDigits.headT)
        record.headEnd = offset
        if head % 2 == 1 {
            let gap = (head - 1) / 2
            // The first record's gap is from document 0; later documents come strictly after.
            guard count == 0 || gap > 0 else { throw Malformed(offset: start) }
            record.document = count == 0 ? gap : previous.document + gap
            record.isFirstInDocument = true
            let textField = try number(WebDigits.textT)
            record.text = textField / fc
            record.field = textField % fc
            try fieldLength()
        } else {
            guard count > 0 else { throw Malformed(offset: start) }
            let h = head / 2
            let step = h % fc
            record.isFirstInDocument = false
            record.text = previous.text + h / fc + 1
            record.field = previous.field + step
            guard record.field < fc else { throw Malformed(offset: start) }
            if step != 0 { try fieldLength() }
        }
        let first = try number(WebDigits.positionT)
        record.tf = 1
        if first % 2 == 1 { record.tf = try number(WebDigits.smallT) + 2 }
        let m = min(record.tf, cap)
        if decodesValues {
            positions.removeAll(keepingCapacity: true)
            if m > 0 { positions.append(first / 2) }
            var p = first / 2
            for _ in 1..<max(m, 1) {
                p += try number(WebDigits.smallT)
                positions.append(p)
            }
        } else {
            for _ in 1..<max(m, 1) { _ = try number(WebDigits.smallT) }
        }
        record.end = offset
        count += 1
        return true
    }

    /// Reads the field length code into `record.fieldLength`, or steps over it.
    private mutating func fieldLength() throws(Malformed) {
        if decodesValues {
            record.fieldLength = try SearchFieldLength.length(number(WebDigits.lengthT))
        } else {
            _ = try number(WebDigits.lengthT)
        }
    }

    /// Reads a number with terminal count `t` (inlined: most numbers are one digit, and records
    /// are read by the million when a common word's postings are located).
    @inline(__always)
    private mutating func number(_ t: UInt32) throws(Malformed) -> Int {
        let t = Int(t), c = Int(WebDigits.radix) - t
        var i = offset, v = 0, scale = 1
        while true {
            guard i < range.upperBound, scale <= Int(UInt32.max) else { throw Malformed(offset: i) }
            let x = Int(digitValues[Int(bytes[i])])
            guard x >= 0 else { throw Malformed(offset: i) }
            i += 1
            v += x * scale
            if x < t { offset = i; return v }
            scale *= c
        }
    }

    /// The document of the first record of postings `bytes[range]` (nil when empty).
    static func firstDocument(_ bytes: [UInt8], range: Range<Int>? = nil, maxPositions cap: Int) throws(Malformed) -> Int? {
        var scanner = WebPostingsScanner(bytes, range: range, maxPositions: cap)
        return try scanner.next() ? scanner.record.document : nil
    }
}

/// Where the records of one document lie in a token's web postings, and what a splice needs
/// around them (`WebPostingsScanner.locate`).
struct WebPostingsSpan {
    /// The document of the first record (nil: no records).
    var firstDocument: Int?
    /// The records of the document: `start..<end` (empty where they would go when it has none),
    /// `headEnd` the end of the head of its first record, `records` their number.
    var start = 0
    var headEnd = 0
    var end = 0
    var records = 0
    /// The last document before it (0 when none: the first head counts from document 0).
    var previousDocument = 0
    /// The first document after it, and where the head of its first record ends.
    var nextDocument: Int?
    var nextHeadEnd = 0
    /// All records of the token, and the number of documents they are in.
    var totalRecords = 0
    var totalDocuments = 0
}

extension WebPostingsScanner {
    /// Finds the records of `document` in postings `bytes[range]` and counts all records; with
    /// `stopAfterDocument`, stops at the first record after the document instead (the totals
    /// then count only the records read).
    static func locate(document d: Int, in bytes: [UInt8], range: Range<Int>, maxPositions cap: Int,
                       stopAfterDocument: Bool = false) throws(Malformed) -> WebPostingsSpan {
        var scanner = WebPostingsScanner(bytes, range: range, maxPositions: cap)
        var span = WebPostingsSpan()
        span.start = range.upperBound
        span.headEnd = range.upperBound
        span.end = range.upperBound
        var located = false
        while try scanner.next() {
            let document = scanner.record.document, isFirst = scanner.record.isFirstInDocument
            if span.firstDocument == nil { span.firstDocument = document }
            if isFirst { span.totalDocuments += 1 }
            if !located {
                if document < d {
                    span.previousDocument = document
                } else if document == d {
                    if isFirst { span.start = scanner.record.start; span.headEnd = scanner.record.headEnd }
                    span.records += 1
                    span.end = scanner.record.end
                } else {
                    // The first record after the document.
                    let start = scanner.record.start
                    if span.records == 0 { span.start = start; span.end = start; span.headEnd = start }
                    span.nextDocument = document
                    span.nextHeadEnd = scanner.record.headEnd
                    located = true
                    if stopAfterDocument { break }
                }
            }
        }
        span.totalRecords = scanner.count
        return span
    }
}
