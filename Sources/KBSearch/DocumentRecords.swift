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
    /// Record `r`: `token[r]`, `text[r]` (the text's number in the document), `field[r]`, `tf[r]`
    /// and positions `positions[r * cap ..< r * cap + min(tf[r], cap)]`.
    private(set) var token: [Int32] = []
    private(set) var text: [Int32] = []
    private(set) var field: [Int32] = []
    private(set) var tf: [Int32] = []
    private(set) var positions: [Int32] = []
    /// Literal tokens per field (`SearchField.rawValue`).
    private(set) var fieldLengths = [Int](repeating: 0, count: SearchIndex.fieldCount)
    /// Number of texts of the document, and their UTF-8 length.
    private(set) var textCount = 0
    private(set) var textBytes = 0

    /// Per vocabulary token: the number of the last text that had it, and its record there.
    private var stamp: [Int32] = []
    private var recordOf: [Int32] = []
    private var textNumber: Int32 = 0

    init(cap: Int, glossary: SearchGlossary) {
        self.cap = cap
        self.glossary = glossary
    }

    /// The records' columns, as encoders read them.
    var columns: RecordColumns {
        RecordColumns(text: text, field: field, tf: tf, positions: positions, cap: cap, fieldLengths: fieldLengths)
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
    private mutating func addRecords(text number: Int32, field fieldNumber: Int32) {
        let n = tokenizer.count
        Self.ensure(&stamp, count: vocabularySize)
        Self.ensure(&recordOf, count: vocabularySize)
        Self.ensure(&token, count: count + n)
        Self.ensure(&text, count: count + n)
        Self.ensure(&field, count: count + n)
        Self.ensure(&tf, count: count + n)
        Self.ensure(&positions, count: (count + n) * max(cap, 1))
        textNumber += 1
        let ids = tokenizer.ids, occurrences = tokenizer.positions
        var used = count
        for k in 0..<n {
            let id = ids[k]
            let t = Int(id)
            let r: Int
            if stamp[t] != textNumber {
                stamp[t] = textNumber
                r = used
                recordOf[t] = Int32(r)
                token[r] = id
                text[r] = number
                field[r] = fieldNumber
                tf[r] = 0
                used += 1
            } else {
                r = Int(recordOf[t])
            }
            let f = Int(tf[r])
            if f < cap { positions[r * cap + f] = occurrences[k] }
            tf[r] = Int32(f + 1)
        }
        count = used
    }

    /// Makes `column` at least `count` long (zeros added).
    private static func ensure(_ column: inout [Int32], count: Int) {
        if column.count < count { column.append(contentsOf: repeatElement(0, count: count - column.count)) }
    }

    /// Hands over the vocabulary (in first-appearance order) and drops the tokenizer's state.
    mutating func takeVocabulary() -> TokenTable {
        let table = tokenizer.takeTable()
        tokenizer = SearchTokenizer()
        return table
    }
}

/// What an encoder reads of a document's records (`DocumentRecords`): record `r`'s text,
/// field, tf and positions `positions[r * cap ..< r * cap + min(tf[r], cap)]`, and the
/// document's exact field lengths (encoders store them quantized: `SearchFieldLength`).
struct RecordColumns {
    let text: [Int32]
    let field: [Int32]
    let tf: [Int32]
    let positions: [Int32]
    let cap: Int
    let fieldLengths: [Int]
}
