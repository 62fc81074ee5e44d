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
    let token = ColumnBuffer<Int32>(repeating: 0)
    let text = ColumnBuffer<Int32>(repeating: 0)
    let field = ColumnBuffer<Int32>(repeating: 0)
    let tf = ColumnBuffer<Int32>(repeating: 0)
    let positions = ColumnBuffer<Int32>(repeating: 0)
    /// Literal tokens per field (`SearchField.rawValue`).
    private(set) var fieldLengths = [Int](repeating: 0, count: SearchIndex.fieldCount)
    /// Number of texts of the document, and their UTF-8 length.
    private(set) var textCount = 0
    private(set) var textBytes = 0

    /// Per vocabulary token: the number of the last text that had it, and its record there.
    private let stamp = ColumnBuffer<Int32>(repeating: 0)
    private let recordOf = ColumnBuffer<Int32>(repeating: 0)
    private var textNumber: Int32 = 0

    init(cap: Int, glossary: SearchGlossary) {
        self.cap = cap
        self.glossary = glossary
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
        stamp.ensureCount(vocabularySize)
        recordOf.ensureCount(vocabularySize)
        token.ensureCount(count + n)
        text.ensureCount(count + n)
        field.ensureCount(count + n)
        tf.ensureCount(count + n)
        positions.ensureCount((count + n) * max(cap, 1))
        textNumber += 1
        let ids = tokenizer.ids, occurrences = tokenizer.positions
        for k in 0..<n {
            let id = ids[k]
            let t = Int(id)
            let r: Int
            if stamp[t] != textNumber {
                stamp[t] = textNumber
                r = count
                recordOf[t] = Int32(r)
                token[r] = id
                text[r] = number
                field[r] = fieldNumber
                tf[r] = 0
                count += 1
            } else {
                r = Int(recordOf[t])
            }
            let f = Int(tf[r])
            if f < cap { positions[r * cap + f] = occurrences[k] }
            tf[r] = Int32(f + 1)
        }
    }

    /// Hands over the vocabulary (in first-appearance order) and drops the tokenizer's state.
    mutating func takeVocabulary() -> TokenTable {
        let table = tokenizer.takeTable()
        tokenizer = SearchTokenizer()
        return table
    }
}
