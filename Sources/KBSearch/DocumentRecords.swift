import KBCore
/// The records of one document, as both index encoders post them (docs/search.md §6, §7): one
/// per text and distinct token of the text, in text order and, within a text, in order of first
/// occurrence, each with its text, field, term frequency and first `cap` positions; and the
/// document's field lengths (literal tokens; concept tokens do not count). The texts are
/// tokenized into one vocabulary that grows document after document (the tokenizer's
/// interning table).
struct DocumentRecords {
    private var tokenizer: SearchTokenizer = {
        var t = SearchTokenizer()
        t.tracksSources = false
        t.interning = true
        return t
    }()
    let cap: Int
    let glossary: SearchGlossary

    /// Number of records of the document.
    private(set) var count = 0
    /// The records (`records[..<count]`; the array only grows, so later slots are left over).
    private(set) var records: [DocumentRecord] = []
    /// Record `r`'s positions: `positions[r * cap ..< r * cap + min(records[r].tf, cap)]`.
    private(set) var positions: [Int32] = []
    /// Literal tokens per field (`SearchField.rawValue`).
    private(set) var fieldLengths = [Int](repeating: 0, count: SearchIndex.fieldCount)
    /// Number of texts of the document, and their UTF-8 length.
    private(set) var textCount = 0
    private(set) var textBytes = 0

    /// Per vocabulary token: the last text that had it, and its record there.
    private var marks: [TextMark] = []
    private var textNumber: Int32 = 0

    init(cap: Int, glossary: SearchGlossary) {
        self.cap = cap
        self.glossary = glossary
    }

    /// What encoders read beside each record.
    var context: RecordContext {
        RecordContext(positions: positions, cap: cap, fieldLengths: fieldLengths)
    }

    /// Size of the vocabulary so far.
    var vocabularySize: Int { tokenizer.table.count }

    /// Tokenizes the texts of `document` (fields in order; code without glossary concepts) and
    /// gathers its records.
    mutating func gather(_ document: SearchDocument) {
        count = 0
        textCount = 0
        textBytes = 0
        for f in fieldLengths.indices { fieldLengths[f] = 0 }
        for field in SearchField.allCases {
            guard let texts = document.fields[field] else { continue }
            for ft in texts {
                tokenizer.tokenize(ft.text, mode: .document, glossary: field == .code ? .empty : glossary)
                fieldLengths[field.rawValue] += tokenizer.literalCount
                textBytes += ft.text.utf8.count
                addRecords(text: Int32(textCount), field: Int32(field.rawValue))
                textCount += 1
            }
        }
    }

    /// Adds a record per distinct token of the text just tokenized.
    private mutating func addRecords(text number: Int32, field: Int32) {
        let n = tokenizer.count
        Self.ensure(&marks, count: vocabularySize, TextMark())
        Self.ensure(&records, count: count + n, DocumentRecord())
        Self.ensure(&positions, count: (count + n) * max(cap, 1), 0)
        textNumber += 1
        let ids = tokenizer.ids, occurrences = tokenizer.positions
        var used = count
        for (id, occurrence) in zip(ids[..<n], occurrences[..<n]) {
            let t = Int(id)
            let mark = marks[t]
            var r = Int(mark.record)
            if mark.text != textNumber {
                r = used
                marks[t] = TextMark(text: textNumber, record: Int32(r))
                records[r] = DocumentRecord(token: id, text: number, field: field, tf: 0)
                used += 1
            }
            let f = Int(records[r].tf)
            if f < cap { positions[r * cap + f] = occurrence }
            records[r].tf = Int32(f + 1)
        }
        count = used
    }

    /// Makes `array` at least `count` long (`filler` added).
    private static func ensure<Element>(_ array: inout [Element], count: Int, _ filler: Element) {
        if array.count < count { array.append(contentsOf: repeatElement(filler, count: count - array.count)) }
    }

    /// Hands over the vocabulary (in first-appearance order) and drops the tokenizer's state.
    mutating func takeVocabulary() -> TokenTable {
        let table = tokenizer.takeTable()
        tokenizer = SearchTokenizer()
        return table
    }
}

/// One record of a document: a token of one of its texts, with the text's number in the
/// document, its field (`SearchField.rawValue`) and the token's frequency in the text. One
/// value, so that gathering and encoding a record reads and writes one place.
struct DocumentRecord {
    var token: Int32 = 0
    var text: Int32 = 0
    var field: Int32 = 0
    var tf: Int32 = 0
}

/// Where a vocabulary token last had a record: the text (a number that grows over all the
/// texts `DocumentRecords` has tokenized) and the record there. One value, so that the
/// lookup per token occurrence touches one place.
struct TextMark {
    var text: Int32 = 0
    var record: Int32 = 0
}

/// What an encoder reads of a document beside each record: the records' positions (record
/// `r`'s are `positions[r * cap ..< r * cap + min(tf, cap)]`) and the document's exact field
/// lengths (encoders store them quantized: `SearchFieldLength`).
struct RecordContext {
    let positions: [Int32]
    let cap: Int
    let fieldLengths: [Int]
}
