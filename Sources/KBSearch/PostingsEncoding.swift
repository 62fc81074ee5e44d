import KBCore
/// One record as the postings accumulator hands it to an encoder: which of the document's
/// records (`DocumentRecords`) it is, and what the token's previous record was.
struct PostingRecord {
    /// The record's index in the document's records (where its positions are: `RecordContext`).
    var index: Int
    /// The record.
    var record: DocumentRecord
    /// The document gap from the token's previous record, or nil for the token's first record
    /// in a batch (that gap is written when the parts are joined: `PostingsEncoding.writeHead`).
    var gap: Int32?
    /// Whether this is the token's first record in the document.
    var startsDocument: Bool
    /// Text number and field of the token's previous record.
    var previousText: Int32
    var previousField: Int32
}

/// How one index form writes a token's records (`BinaryPostings`, docs/search.md §7, and
/// `WebPostings`, §6). The postings accumulator decides which record goes where; an encoding
/// only writes bytes.
protocol PostingsEncoding {
    /// The most bytes one record with `cap` positions takes.
    static func maxRecordLength(cap: Int) -> Int
    /// Writes a record of `document`.
    static func write(_ posting: PostingRecord, of document: RecordContext, into out: inout RecordWriter)
    /// The length of the head before a part: the document gap from the token's previous record
    /// (from document 0 for its first part).
    static func headLength(gap: Int32) -> Int
    static func writeHead(gap: Int32, into out: inout RecordWriter)
}

/// The binary `.kb/index` records (docs/search.md §7), each number a varint: a head — odd,
/// `2 × document gap + 1`, then the text, for a document's first record; even,
/// `2 × (text gap − 1)`, for a later record of the same document — then `2 × p₀ + (tf > 1)`
/// with `p₀` the first position, `tf − 2` when `tf > 1`, and the gaps to the next positions.
enum BinaryPostings: PostingsEncoding {
    static func maxRecordLength(cap: Int) -> Int { 20 + 5 * cap }

    @inline(__always)
    static func write(_ posting: PostingRecord, of document: RecordContext, into out: inout RecordWriter) {
        let text = posting.record.text
        if posting.startsDocument {
            if let gap = posting.gap { writeHead(gap: gap, into: &out) }
            out.varint(UInt32(text))
        } else {
            out.varint(UInt32(2 * (text - posting.previousText - 1)))
        }
        let tf = Int(posting.record.tf)
        let m = min(tf, document.cap)
        let p0 = posting.index * document.cap
        let first = m > 0 ? document.positions[p0] : 0
        out.varint(UInt32(2 * first) + (tf > 1 ? 1 : 0))
        if tf > 1 { out.varint(UInt32(tf - 2)) }
        var previous = first
        for k in 1..<max(m, 1) {
            let p = document.positions[p0 + k]
            out.varint(UInt32(p - previous))
            previous = p
        }
    }

    static func headLength(gap: Int32) -> Int { Varint.length(UInt32(2 * gap + 1)) }
    static func writeHead(gap: Int32, into out: inout RecordWriter) { out.varint(UInt32(2 * gap + 1)) }
}

/// The web export's records (docs/search.md §6), in `WebDigits`.
enum WebPostings: PostingsEncoding {
    static func maxRecordLength(cap: Int) -> Int { WebDigits.maxLength * (5 + cap) }

    @inline(__always)
    static func write(_ posting: PostingRecord, of document: RecordContext, into out: inout RecordWriter) {
        let fieldCount = Int32(SearchIndex.fieldCount)
        let text = posting.record.text, field = posting.record.field
        if posting.startsDocument {
            // The first record of the document: its head (the document gap), text and field,
            // and the code of the field's length (`SearchFieldLength`).
            if let gap = posting.gap { writeHead(gap: gap, into: &out) }
            out.digits(UInt32(text * fieldCount + field), WebDigits.textT)
            out.digits(UInt32(SearchFieldLength.code(document.fieldLengths[Int(field)])), WebDigits.lengthT)
        } else {
            // A later record of the same document: text gap and field step in one head, then
            // the code of the field's length if the field changed.
            let step = field - posting.previousField
            out.digits(UInt32(2 * ((text - posting.previousText - 1) * fieldCount + step)), WebDigits.headT)
            if step != 0 { out.digits(UInt32(SearchFieldLength.code(document.fieldLengths[Int(field)])), WebDigits.lengthT) }
        }
        // Positions: the first with whether tf > 1, then tf − 2, then the gaps.
        let tf = Int(posting.record.tf)
        let m = min(tf, document.cap)
        let p0 = posting.index * document.cap
        let first = m > 0 ? document.positions[p0] : 0
        out.digits(UInt32(2 * first) + (tf > 1 ? 1 : 0), WebDigits.positionT)
        if tf > 1 { out.digits(UInt32(tf - 2), WebDigits.smallT) }
        var previous = first
        for k in 1..<max(m, 1) {
            let p = document.positions[p0 + k]
            out.digits(UInt32(p - previous), WebDigits.smallT)
            previous = p
        }
    }

    static func headLength(gap: Int32) -> Int { WebDigits.length(UInt32(2 * gap + 1), WebDigits.headT) }
    static func writeHead(gap: Int32, into out: inout RecordWriter) { out.digits(UInt32(2 * gap + 1), WebDigits.headT) }
}
