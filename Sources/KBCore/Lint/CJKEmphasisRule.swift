/// Warns about `**` and `__` that cmark left as literal text next to a letter: emphasis the
/// writer meant that does not render. cmark has already applied CommonMark's flanking rules
/// (spec 0.30, which cmark 0.30 implements), so a delimiter run that is still text after parsing
/// is the signal — whatever the character that stopped it: CJK punctuation (`**「強調」**した`),
/// ASCII punctuation (`**注意:**この`, `**100%**の確率`), a link or code span
/// (`**[リンク](url)**を参照`), or `__` inside a word (`これは__強調__した`). Escaped
/// delimiters (`\*\*`) are literal on purpose and not reported.
enum CJKEmphasisRule {
    static let rule = LintRule.cjkEmphasis

    /// What sits next to a literal delimiter run in the paragraph's inline content.
    enum Neighbour: Equatable {
        case none
        case space
        case letter(Unicode.Scalar)
        case punctuation(Unicode.Scalar)
        /// An inline that is not text: a link, a code span, an image, raw HTML.
        case inline(String)

        init(_ scalar: Unicode.Scalar?, inlines: [Unicode.Scalar: String]) {
            guard let scalar else { self = .none; return }
            if let name = inlines[scalar] { self = .inline(name); return }
            if scalar.properties.isWhitespace { self = .space; return }
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .decimalNumber, .letterNumber, .otherNumber, .nonspacingMark, .spacingMark, .enclosingMark:
                self = .letter(scalar)
            default:
                self = .punctuation(scalar)
            }
        }

        var isLetter: Bool { if case .letter = self { return true } else { return false } }
        /// Punctuation, or an inline whose source starts or ends with punctuation (`[`, `` ` ``).
        var isPunctuationLike: Bool {
            switch self {
            case .punctuation, .inline: return true
            default: return false
            }
        }

        var described: String {
            switch self {
            case .none: return "the start of the line"
            case .space: return "a space"
            case .letter(let s), .punctuation(let s): return "'\(s)'"
            case .inline(let name): return name
            }
        }
    }

    /// A delimiter run left as text, with what is before and after it.
    struct LiteralRun {
        let delimiter: Unicode.Scalar
        let length: Int
        let before: Neighbour
        let after: Neighbour
        /// The run with its letter neighbours, to find it in the source (`**を`, `は__`).
        let needle: String
        /// Where it starts in the paragraph's inline content.
        let position: Int

        var text: String { String(repeating: String(delimiter), count: length) }
    }

    static func check(_ entry: Entry) -> [Diagnostic] {
        var out: [Diagnostic] = []
        // Only entries with `**` or `__` in their source can have the problem.
        guard mayContainRun(entry.source.bytes) else { return [] }
        for block in entry.body.blocks {
            block.walk { node in
                switch node.kind {
                case .paragraph, .heading:
                    out += check(leaf: node, entry: entry)
                default:
                    break
                }
            }
        }
        return out
    }

    /// Whether the bytes may hold a run the rule reports: `**` or `__`, or a `*` next to a
    /// non-ASCII byte (a single `*` is reported only next to a CJK letter). A quick test
    /// before any parsing work; it may say yes where the rule finds nothing, never no where
    /// it finds something.
    ///
    /// Only the `*` and `_` bytes are looked at, each found with `ByteSearch` (memchr), with the
    /// bytes beside it: most entries have none or few, and a byte-by-byte loop over every entry
    /// was about 3 % of the instructions of `kb index` at 10,000 entries.
    static func mayContainRun(_ bytes: [UInt8]) -> Bool {
        var from = 0
        while let k = ByteSearch.firstIndex(of: star, in: bytes, from: from) {
            if k > 0 && (bytes[k - 1] == 0x2A || bytes[k - 1] >= 0x80) { return true }
            if k + 1 < bytes.count && bytes[k + 1] >= 0x80 { return true }
            from = k + 1
        }
        from = 0
        while let k = ByteSearch.firstIndex(of: underscore, in: bytes, from: from) {
            if k > 0 && bytes[k - 1] == 0x5F { return true }
            from = k + 1
        }
        return false
    }

    private static let star: [UInt8] = [0x2A], underscore: [UInt8] = [0x5F]

    /// Placeholders for inlines that are not text (private-use scalars, one per kind).
    static let inlineNames: [Unicode.Scalar: String] = [
        "\u{F8F0}": "a link", "\u{F8F1}": "a code span", "\u{F8F2}": "an image", "\u{F8F3}": "raw HTML", "\u{F8F4}": "a line break",
    ]

    /// The inline content of a leaf block: text as it is, emphasis and strong opened up, every
    /// other inline as one placeholder.
    static func inlineText(_ node: MarkdownNode, into out: inout [Unicode.Scalar]) {
        for child in node.children {
            switch child.kind {
            case .text: out += child.literal.unicodeScalars
            case .emphasis, .strong: inlineText(child, into: &out)
            case .link: out.append("\u{F8F0}")
            case .code: out.append("\u{F8F1}")
            case .image: out.append("\u{F8F2}")
            case .htmlInline: out.append("\u{F8F3}")
            case .softBreak: out.append(" ")
            default: out.append("\u{F8F4}")
            }
        }
    }

    /// The `**`/`__` runs (and single `*` touching a CJK letter) left as text in `scalars`.
    static func literalRuns(_ scalars: [Unicode.Scalar]) -> [LiteralRun] {
        var runs: [LiteralRun] = []
        var i = 0
        while i < scalars.count {
            let c = scalars[i]
            guard c == "*" || c == "_" else { i += 1; continue }
            var j = i
            while j < scalars.count && scalars[j] == c { j += 1 }
            defer { i = j }
            let before = Neighbour(i > 0 ? scalars[i - 1] : nil, inlines: inlineNames)
            let after = Neighbour(j < scalars.count ? scalars[j] : nil, inlines: inlineNames)
            let length = j - i
            let touchesCJKLetter = [i > 0 ? scalars[i - 1] : nil, j < scalars.count ? scalars[j] : nil]
                .contains { $0.map(CJKCharacter.isLetter) ?? false }
            guard length >= 2 || (c == "*" && touchesCJKLetter) else { continue }
            var needle = ""
            if case .letter(let s) = before { needle.unicodeScalars.append(s) }
            needle += String(repeating: String(c), count: length)
            if case .letter(let s) = after { needle.unicodeScalars.append(s) }
            runs.append(LiteralRun(delimiter: c, length: length, before: before, after: after, needle: needle, position: i))
        }
        return runs
    }

    static func isIntraword(_ run: LiteralRun) -> Bool { run.delimiter == "_" && run.before.isLetter && run.after.isLetter }
    static func cannotOpen(_ run: LiteralRun) -> Bool { run.before.isLetter && run.after.isPunctuationLike }
    static func cannotClose(_ run: LiteralRun) -> Bool { run.before.isPunctuationLike && run.after.isLetter }

    /// The runs to report: literal runs of one delimiter are taken in pairs (the emphasis the
    /// writer meant), and one run is reported per pair — the closing one when it cannot close,
    /// else the opening one when it cannot open, else the first that touches a letter. Runs
    /// touching no letter (`a ** b`, a title about asterisks) are left alone.
    static func reportedRuns(_ runs: [LiteralRun]) -> [LiteralRun] {
        var reported: [LiteralRun] = []
        var pending: [Unicode.Scalar: LiteralRun] = [:]
        for run in runs {
            guard let opener = pending.removeValue(forKey: run.delimiter) else {
                pending[run.delimiter] = run
                continue
            }
            if cannotClose(run) || isIntraword(run) && !isIntraword(opener) {
                reported.append(run)
            } else if cannotOpen(opener) || isIntraword(opener) {
                reported.append(opener)
            } else if let touching = [opener, run].first(where: { $0.before.isLetter || $0.after.isLetter }) {
                reported.append(touching)
            }
        }
        for run in pending.values where run.before.isLetter || run.after.isLetter { reported.append(run) }
        return reported.sorted { $0.position < $1.position }
    }

    /// Why a literal run did not open or close, and what to write instead.
    static func explanation(_ run: LiteralRun) -> String {
        let delimiter = run.text
        if run.delimiter == "_" && run.before.isLetter && run.after.isLetter {
            return "'\(delimiter)' between \(run.before.described) and \(run.after.described) is inside a word, where '_' never opens or closes emphasis (CommonMark); use '**' instead of '__' (or backticks if it is a name from code)"
        }
        if run.before.isPunctuationLike && run.after.isLetter {
            let fix: String
            switch run.before {
            case .inline("a link"): fix = "put the emphasis inside the link text ('[**リンク**](url)を参照')"
            case .inline("a code span"): fix = "leave the code span unemphasised, or put a space after the closing '\(delimiter)'"
            case .inline: fix = "put a space after the closing '\(delimiter)', or use <strong>"
            default: fix = "move \(run.before.described) outside the delimiters ('**注意**:この', '「**強調**」した'), or use <strong>"
            }
            return "'\(delimiter)' after \(run.before.described) cannot close before the letter \(run.after.described): a closing delimiter that follows punctuation must be followed by a space or punctuation (CommonMark 0.30, right-flanking); \(fix)"
        }
        if run.before.isLetter && run.after.isPunctuationLike {
            return "'\(delimiter)' after the letter \(run.before.described) cannot open before \(run.after.described): an opening delimiter that precedes punctuation must follow a space or punctuation (CommonMark 0.30, left-flanking); move the punctuation outside ('「**強調**」') or use <strong>"
        }
        return "'\(delimiter)' between \(run.before.described) and \(run.after.described) stays literal text: cmark found no matching delimiter for it; check that both delimiters touch the emphasised text on the inside and that '__' is not inside a word"
    }

    static func check(leaf: MarkdownNode, entry: Entry) -> [Diagnostic] {
        var scalars: [Unicode.Scalar] = []
        inlineText(leaf, into: &scalars)
        guard scalars.contains("*") || scalars.contains("_") else { return [] }
        var out: [Diagnostic] = []
        var searchLine = leaf.range.start.line
        var searchColumn = 1
        for run in reportedRuns(literalRuns(scalars)) {
            // A run not found as written is escaped in the source (`\*\*`): literal on purpose.
            guard let found = find(run.needle, in: entry.source, fromLine: searchLine, column: searchColumn, toLine: leaf.range.end.line) else {
                continue
            }
            let offset = run.before.isLetter ? 1 : 0
            searchLine = found.line
            searchColumn = found.column + run.needle.unicodeScalars.count
            out.append(Diagnostic(path: entry.path, location: SourceLocation(line: found.line, column: found.column + offset),
                                  message: explanation(run), rule: rule))
        }
        return out
    }

    private static func find(_ needle: String, in source: SourceText, fromLine: Int, column: Int, toLine: Int) -> SourceLocation? {
        guard fromLine <= toLine else { return nil }
        let pattern = Array(needle.unicodeScalars)
        for line in fromLine...min(toLine, source.lineCount) {
            let text = Array(source.lineString(line).unicodeScalars)
            let startColumn = line == fromLine ? column : 1
            guard text.count >= pattern.count else { continue }
            var start = max(0, startColumn - 1)
            while start + pattern.count <= text.count {
                if text[start..<start + pattern.count].elementsEqual(pattern) {
                    // A match preceded by a backslash is an escaped delimiter.
                    let escaped = start > 0 && text[start - 1] == "\\"
                    if !escaped { return SourceLocation(line: line, column: start + 1) }
                }
                start += 1
            }
        }
        return nil
    }
}
