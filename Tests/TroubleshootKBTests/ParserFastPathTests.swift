import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

/// The parser's byte-level shortcuts give exactly what the general code they stand in for gives:
/// `UTF8Scan` what the standard library decides, the vocabulary
/// lookups and the outcome-word check what the scalar and `lowercased()` versions give.
@Suite struct ParserFastPathTests {
    /// A small deterministic generator (the same cases every run).
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 33
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
        mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
    }

    // MARK: UTF8Scan

    @Test func utf8ValidityMatchesTheStandardLibrary() {
        var random = Random(state: 7)
        let interesting: [UInt8] = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1,
                                    0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF]
        for _ in 0..<20000 {
            var bytes: [UInt8] = []
            for _ in 0..<random.below(24) {
                switch random.below(4) {
                case 0: bytes.append(random.pick(interesting))
                case 1: bytes += Array(random.pick(["a", "中", "é", "😀", "한", "\u{FFFD}", "\u{10FFFF}"]).utf8)
                default: bytes.append(UInt8(random.below(256)))
                }
            }
            let valid = bytes.withUnsafeBufferPointer(UTF8Scan.isValid)
            #expect(valid == (String(validating: bytes, as: UTF8.self) != nil), "\(bytes)")
            if valid {
                let count = bytes.withUnsafeBufferPointer { UTF8Scan.scalarCount($0, from: 0, to: $0.count) }
                #expect(count == String(decoding: bytes, as: UTF8.self).unicodeScalars.count)
            }
        }
    }

    // MARK: Byte searches of the lint rules

    /// `ByteSearch.firstIndex` (memchr and memcmp, for a run or one byte) and `CJKEmphasisRule.mayContainPattern` (memchr) give what
    /// a byte-by-byte scan gives, at the edges of the buffer too.
    @Test func byteSearchesMatchAPlainScan() {
        var random = Random(state: 11)
        let alphabet: [UInt8] = [0x2A, 0x5F, 0xE3, 0xEF, 0xE2, 0x80, 0x41, 0x20, 0x54, 0x4F]
        func plainIndex(_ needle: [UInt8], _ haystack: [UInt8], _ start: Int) -> Int? {
            guard !needle.isEmpty, start >= 0, haystack.count - start >= needle.count else { return nil }
            for i in start...(haystack.count - needle.count) where Array(haystack[i..<(i + needle.count)]) == needle { return i }
            return nil
        }
        for _ in 0..<20000 {
            let haystack = (0..<random.below(40)).map { _ in random.pick(alphabet) }
            let needle = (0..<(1 + random.below(3))).map { _ in random.pick(alphabet) }
            let start = random.below(6)
            #expect(ByteSearch.firstIndex(of: needle, in: haystack, from: start) == plainIndex(needle, haystack, start),
                    "\(needle) in \(haystack) from \(start)")
            // The one-byte search (memchr) against the same scan.
            #expect(ByteSearch.firstIndex(of: needle[0], in: haystack, from: start) == plainIndex([needle[0]], haystack, start),
                    "\(needle[0]) in \(haystack) from \(start)")
        }
        #expect(ByteSearch.firstIndex(of: Array("TODO(kb-import)".utf8), in: Array("x TODO(kb-import): y".utf8)) == 2)
    }

    /// The folded search behind symptom links finds what lower-casing both sides and searching
    /// the bytes finds (the needle is already lower case), whatever byte it anchors on.
    @Test func foldedSearchMatchesAPlainScan() {
        var random = Random(state: 23)
        let pieces = ["a", "B", "b", " ", "-", "大", "标", "题", "ア", "é", "Z", "z", "\u{3000}"]
        func plain(_ haystack: String, _ needle: String) -> Bool {
            let h = Array(haystack.utf8).map(UTF8Scan.foldASCII), n = Array(needle.utf8)
            guard !n.isEmpty else { return true }
            guard n.count <= h.count else { return false }
            return (0...(h.count - n.count)).contains { Array(h[$0..<($0 + n.count)]) == n }
        }
        for _ in 0..<20000 {
            let haystack = (0..<random.below(14)).map { _ in random.pick(pieces) }.joined()
            let needle = (0..<(1 + random.below(3))).map { _ in random.pick(pieces) }.joined()
            let folded = Array(needle.utf8).map(UTF8Scan.foldASCII)
            #expect(ByteText.containsFolded(haystack, folded) == plain(haystack, String(decoding: folded, as: UTF8.self)),
                    "\(needle) in \(haystack)")
        }
        #expect(ByteText.containsFolded("The Large Title is hidden", Array("large title".utf8)))
        #expect(!ByteText.containsFolded("大标题看不见", Array("标题看见".utf8)))
    }

    /// The eight-byte check of the JSON writer flags exactly the words with a byte it escapes,
    /// and strings written with it read back as they were.
    @Test func jsonStringsSkipPlainBytesEightAtATime() throws {
        var random = Random(state: 5)
        let special: [UInt8] = [0x00, 0x09, 0x0A, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x26, 0x3C, 0x3E, 0x5C, 0xE2, 0x41, 0x7F, 0x80, 0xE3, 0xFF]
        for _ in 0..<20000 {
            var bytes = (0..<8).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            for k in 0..<8 where random.below(3) == 0 { bytes[k] = random.pick(special) }
            let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
            let expected = bytes.contains { $0 < 0x20 || [0x22, 0x5C, 0x3C, 0x3E, 0x26, 0xE2].contains($0) }
            #expect(WebBytes.mayNeedEscape(word) == expected, "\(bytes)")
        }
        let pieces = ["a", "大标题", "\"", "\\", "<", ">", "&", "\n", "\t", "\u{1}", "\u{2028}", "\u{2029}", "—", "x y z w v"]
        for _ in 0..<2000 {
            let text = (0..<random.below(12)).map { _ in random.pick(pieces) }.joined()
            var w = WebBytes()
            w.string(text)
            let data = w.take()
            let decoded = try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed) as? String
            #expect(decoded == text)
            let json = String(decoding: data, as: UTF8.self)
            #expect(!json.contains("<") && !json.contains(">") && !json.contains("&") && !json.contains("\u{2028}"))
        }
    }

    /// Counting columns on from the last one gives the column counted from the line start.
    @Test func columnCursorGivesTheColumnsCountedFromTheLineStart() {
        var random = Random(state: 17)
        let source = SourceText("a大b标题\n\n한국어 텍스트 *x*\n日本語のテキスト、`code` と English words\nlast")
        var cursor = SourceText.ColumnCursor()
        for _ in 0..<5000 {
            let line = 1 + random.below(source.lineCount + 1)
            let byteColumn = random.below(60)
            // Counted from the line start the plain way: the scalars before the byte, plus one.
            var expected = max(byteColumn, 1)
            if line <= source.lineCount && byteColumn > 1 {
                let start = source.lineStarts[line - 1], end = min(start + byteColumn - 1, source.bytes.count)
                expected = source.bytes[start..<end].filter { !UTF8Scan.isContinuation($0) }.count + 1
            }
            #expect(source.scalarColumn(line: line, byteColumn: byteColumn, cursor: &cursor) == expected, "line \(line) byte \(byteColumn)")
            #expect(source.scalarColumn(line: line, byteColumn: byteColumn) == expected)
        }
    }

    /// Every three-byte scalar the fold check lets through is one lower-casing leaves alone.
    @Test func foldCheckPassesOnlyCaselessThreeByteScalars() {
        for value in UInt32(0x800)...0xFFFF where !(0xD800...0xDFFF).contains(value) {
            let text = String(Unicode.Scalar(value)!)
            let expected = ByteText.caseless(value) && !(0xFF41...0xFF5A).contains(value)
            #expect(ByteText.foldsLikeASCII(text) == expected, "U+\(String(value, radix: 16))")
            if expected { #expect(text.lowercased() == text, "U+\(String(value, radix: 16))") }
        }
    }

    @Test(arguments: ["/a", "/", "", "a/b", "/a/b/", "a//b", "//a", "/a/./b", "./a", "../a/b", "a/b/..",
                      "/tmp/kb/entries/kb-000001/entry.md", "entries/中文/entry.md", "a/b//", "///", "ab/"])
    func folderOfAPathIsFoundationsAnswer(path: String) {
        #expect(PathText.folder(of: path) == (path as NSString).deletingLastPathComponent)
    }

    @Test func folderOfABareNameIsEmpty() {
        // Foundation on Linux traps on a bare name; Apple's answers "".
        #expect(PathText.folder(of: "entry.md") == "")
    }

    @Test func invalidUTF8IsReportedAtTheFirstBadByte() {
        let bytes = Array("---\nid: a\n---\n中文".utf8) + [0xE4, 0xB8] + Array("x".utf8)
        #expect(EntryParser.firstInvalidUTF8Offset(bytes) == bytes.count - 3)
        let result = EntryParser().parse(bytes: bytes, path: "e/entry.md", folderName: "e")
        #expect(result.entry == nil)
        #expect(result.diagnostics.map(\.rule) == [.invalidUTF8])
    }

    /// cmark writes the noncharacters `&#xFFFF;` and `&#xFFFE;` as the single bytes FF and FE:
    /// literals and HTML holding them are repaired (U+FFFD), as `String(cString:)` repairs them,
    /// and a soft break next to them is not taken for one between two CJK characters.
    @Test func illFormedUTF8FromCmarkIsRepaired() throws {
        let document = MarkdownParser(options: .init(renderHTML: true)).parse(SourceText("中&#xFFFF;\n文 &#xFFFE;\n\n中\n&#65535;文\n"))
        let first = try #require(document.blocks.first)
        #expect(first.html == "<p>中\u{FFFD}\n文 \u{FFFD}</p>\n")
        #expect(first.plainText == "中\u{FFFD}\n文 \u{FFFD}")
        #expect(document.blocks.last?.html == "<p>中\n\u{FFFD}文</p>\n")
        // A source already checked (the entry parser's path): HTML is checked only when the
        // source has a numeric reference, and then repaired the same way.
        let markdown = "中&#xFFFF;\n文 &#xFFFE;\n\n中\n&#65535;文\n"
        let checked = MarkdownParser(options: .init(renderHTML: true)).parse(SourceText(markdown), text: markdown)
        #expect(checked.blocks.map(\.html) == document.blocks.map(\.html))
        let plain = "中&amp;文 &copy; **粗体**\n"
        let rendered = MarkdownParser(options: .init(renderHTML: true)).parse(SourceText(plain), text: plain)
        #expect(rendered.blocks.first?.html == "<p>中&amp;文 © <strong>粗体</strong></p>\n")
        for bytes: [UInt8] in [[0xFF], [0xE4, 0xB8], [0x41, 0x80], [0xE4, 0xB8, 0xAD], [0x80, 0x80, 0x80, 0x80, 0x80], [0xF0, 0x9F, 0x98, 0x80]] {
            let repaired = String(decoding: bytes, as: UTF8.self).unicodeScalars
            bytes.withUnsafeBufferPointer { buffer in
                #expect(UTF8Scan.firstScalar(buffer) == repaired.first)
                #expect(UTF8Scan.lastScalar(buffer) == repaired.last)
            }
        }
    }

    // MARK: outcome word

    /// Characters compared lower-cased: a combining mark joins the character before it, the
    /// Kelvin sign is a K, full-width letters are other characters.
    @Test(arguments: [
        ("失败，还是不行", "失败", true), ("FAILED: still", "failed", true), ("Failed", "failed", true), ("failedx", "failed", true),
        ("fail", "failed", false), ("成功\u{301}了", "成功", false), ("wor\u{212A}s, it works", "works", true),
        ("ＦＡＩＬＥＤ", "failed", false), ("부분 성공", "부분 성공", true), ("부분\u{11A8} 성공", "부분", false),
        ("\r\nfailed", "failed", false), ("e\u{301}", "é", true), ("", "failed", false),
    ])
    func outcomeWordIsALowercasedPrefix(text: String, word: String, expected: Bool) {
        #expect(StructureBuilder.startsWithOutcomeWord(text, word) == expected)
    }

    // MARK: vocabulary

    @Test func labelsMustEndWithinTheWindow() {
        let matcher = VocabularyMatcher.shared
        // The colon is the 49th scalar, then the 48th.
        let padding = String(repeating: " ", count: VocabularyMatcher.labelWindow - 2)
        #expect(matcher.label(in: padding + "结果：失败", allowed: [.result])?.rest == nil)
        #expect(matcher.label(in: String(padding.dropFirst()) + "结果：失败", allowed: [.result])?.rest == "失败")
        #expect(matcher.label(in: "  \n结果 ： 失败 \n", allowed: [.result])?.rest == "失败")
        #expect(matcher.label(in: "RESULT:  Failed", allowed: [.result])?.rest == "Failed")
        #expect(matcher.label(in: "结果：失败", allowed: [.cause]) == nil)
    }

    @Test func attemptTitlesCountFromTheHeadingWithoutLeadingSpaces() throws {
        // A heading text whose leading newline the match skips but the title's offset counts.
        let parsed = try #require(VocabularyMatcher.shared.attemptHeading("\n方案 2：标题"))
        #expect(parsed.number.description == "2")
        #expect(parsed.title == "2：标题")
        #expect(VocabularyMatcher.shared.attemptHeading("Attempt 4.1 (later)")?.title == "(later)")
    }

    /// Texts built from the vocabulary's words, separators, numbers, spaces and other scripts:
    /// every lookup answers as the scalar-array implementation it replaced (`ReferenceMatcher`).
    @Test func vocabularyLookupsMatchTheScalarImplementation() {
        let matcher = VocabularyMatcher.shared
        let reference = ReferenceMatcher(vocabularies: Vocabulary.all)
        let words = Vocabulary.all.flatMap { v in
            v.sections.values.flatMap { $0 } + v.attemptWords + v.labels.values.flatMap { $0 } + v.outcomes.values.flatMap { $0 }
        }
        let pieces = words + words.map { $0.uppercased() } + [
            " ", "  ", "\t", "\n", "\u{3000}", "\u{A0}", ":", "：", "：", " : ", "(", "（", "[", "【", "「", "-", "—", "–", "‐", "/",
            "、", "·", ".", "．", ",", "，", ")", "）", "。", "！", "!", "？", "?", "；", ";", "1", "2", "4-1", "4.1", "１", "４－１",
            "3.", "x", "abc", "标题", "제목", "タイトル", "e\u{301}", "😀", "\u{212A}", "İ", "ß", "\r",
        ]
        let allowed: [Set<LabelKind>] = [StructureBuilder.attemptLabels, [.fixStep], [.idea, .result, .failure, .cause, .fixStep, .code]]
        var random = Random(state: 99)
        for _ in 0..<30000 {
            var text = ""
            for _ in 0..<(1 + random.below(6)) { text += random.pick(pieces) }
            let kinds = random.pick(allowed)
            #expect(matcher.section(forHeading: text) == reference.section(forHeading: text), "\(text.debugDescription)")
            let heading = matcher.attemptHeading(text), expectedHeading = reference.attemptHeading(text)
            #expect(heading?.number == expectedHeading?.number && heading?.title == expectedHeading?.title, "\(text.debugDescription)")
            let label = matcher.label(in: text, allowed: kinds), expectedLabel = reference.label(in: text, allowed: kinds)
            #expect(label?.kind == expectedLabel?.kind && label?.rest == expectedLabel?.rest, "\(text.debugDescription)")
            #expect(matcher.labelHeading(text, allowed: kinds) == reference.labelHeading(text, allowed: kinds), "\(text.debugDescription)")
            let outcome = matcher.outcome(in: text), expectedOutcome = reference.outcome(in: text)
            #expect(outcome?.outcome == expectedOutcome?.outcome && outcome?.word == expectedOutcome?.word, "\(text.debugDescription)")
            #expect(StructureBuilder.dropOutcomeWord("失败", from: text) == ReferenceMatcher.dropOutcomeWord("失败", from: text))
        }
    }

    // MARK: cmark arena

    /// Documents larger than an arena block, and than a single large allocation, parse the same
    /// on many threads, one after the other on each.
    @Test func largeDocumentsParseAlikeOnEveryThread() {
        let paragraph = String(repeating: "中文段落，带 **强调** 和 `code`。", count: 400)
        let body = (0..<20).map { "## 标题 \($0)\n\n\(paragraph)\n\n- a\n- b\n" }.joined(separator: "\n") + "\n```\n"
            + String(repeating: "let x = 1\n", count: 20000) + "```\n"
        let source = SourceText(body)
        let options = MarkdownParser.Options(renderHTML: true)
        let expected = MarkdownParser(options: options).parse(source)
        let results = Parallel.map(8) { _ in MarkdownParser(options: options).parse(source, text: body) }
        for document in results {
            #expect(document.blocks.count == expected.blocks.count)
            #expect(document.blocks.map(\.html) == expected.blocks.map(\.html))
            #expect(document.blocks.map(\.plainText) == expected.blocks.map(\.plainText))
            #expect(document.blocks.map(\.range) == expected.blocks.map(\.range))
        }
    }
}

/// The vocabulary lookups as they were written on arrays of scalars, kept as the reference the
/// byte-level `VocabularyMatcher` is checked against.
struct ReferenceMatcher {
    private struct Word: Sendable {
        let scalars: [Unicode.Scalar]
        let text: String
    }

    private let sections: [(SectionKind, Word)]
    private let attemptWords: [Word]
    private let labels: [(LabelKind, Word)]
    private let outcomes: [(Outcome, Word)]
    private let evidence: [(OutcomeEvidence, Word)]

    init(vocabularies: [Vocabulary]) {
        func word(_ text: String) -> Word { Word(scalars: Self.prepare(text.unicodeScalars), text: text) }
        func sorted<K>(_ pairs: [(K, Word)]) -> [(K, Word)] { pairs.sorted { $0.1.scalars.count > $1.1.scalars.count } }
        sections = sorted(vocabularies.flatMap { v in v.sections.flatMap { kind, words in words.map { (kind, word($0)) } } })
        attemptWords = vocabularies.flatMap { $0.attemptWords.map(word) }.sorted { $0.scalars.count > $1.scalars.count }
        labels = sorted(vocabularies.flatMap { v in v.labels.flatMap { kind, words in words.map { (kind, word($0)) } } })
        outcomes = sorted(vocabularies.flatMap { v in v.outcomes.flatMap { kind, words in words.map { (kind, word($0)) } } })
        evidence = sorted(vocabularies.flatMap { v in v.evidence.flatMap { kind, words in words.map { (kind, word($0)) } } })
    }

    static func isSpace(_ s: Unicode.Scalar) -> Bool { s == " " || s == "\t" || s == "\u{3000}" || s == "\u{A0}" }
    static func isColon(_ s: Unicode.Scalar) -> Bool { s == ":" || s == "：" }
    static func isSeparator(_ s: Unicode.Scalar) -> Bool {
        isSpace(s) || isColon(s) || "(（[【「-—–‐/、·.．,，)）".unicodeScalars.contains(s)
    }

    /// Scalars of `text`, ASCII letters lower-cased (the vocabulary's only cased words are
    /// English), with surrounding spaces removed.
    private static func prepare<S: Sequence>(_ text: S) -> [Unicode.Scalar] where S.Element == Unicode.Scalar {
        var scalars = text.map { s -> Unicode.Scalar in
            s.value >= 0x41 && s.value <= 0x5A ? Unicode.Scalar(s.value + 0x20)! : s
        }
        while let first = scalars.first, isSpace(first) || first == "\n" { scalars.removeFirst() }
        while let last = scalars.last, isSpace(last) || last == "\n" { scalars.removeLast() }
        return scalars
    }

    private static func hasPrefix(_ scalars: [Unicode.Scalar], _ word: [Unicode.Scalar], at start: Int = 0) -> Bool {
        guard scalars.count - start >= word.count else { return false }
        for i in 0..<word.count where scalars[start + i] != word[i] { return false }
        return true
    }

    /// The section a heading starts, if its text is a section word alone or followed by a separator.
    func section(forHeading heading: String) -> SectionKind? {
        let scalars = Self.prepare(heading.unicodeScalars)
        for (kind, word) in sections where Self.hasPrefix(scalars, word.scalars) {
            if scalars.count == word.scalars.count || Self.isSeparator(scalars[word.scalars.count]) { return kind }
        }
        return nil
    }

    /// Parses an attempt heading: an attempt word, a number, then an optional title.
    func attemptHeading(_ heading: String) -> (number: AttemptNumber, title: String)? {
        let scalars = Self.prepare(heading.unicodeScalars)
        let original = Array(heading.unicodeScalars.drop { Self.isSpace($0) })
        for word in attemptWords where Self.hasPrefix(scalars, word.scalars) {
            var index = word.scalars.count
            while index < scalars.count, Self.isSpace(scalars[index]) { index += 1 }
            let numberStart = index
            while index < scalars.count, Self.isNumberScalar(scalars[index]) { index += 1 }
            var numberEnd = index
            while numberEnd > numberStart, !Self.isDigit(scalars[numberEnd - 1]) { numberEnd -= 1 }
            guard numberEnd > numberStart,
                  let number = AttemptNumber(Substring(String(String.UnicodeScalarView(scalars[numberStart..<numberEnd])))) else { continue }
            if index < scalars.count, !Self.isSeparator(scalars[index]) { continue }
            var titleStart = numberEnd
            while titleStart < original.count, Self.isSeparator(original[titleStart]),
                  !"(（[【「".unicodeScalars.contains(original[titleStart]) { titleStart += 1 }
            let title = titleStart < original.count ? String(String.UnicodeScalarView(original[titleStart...])) : ""
            return (number, title.trimmingSpaces())
        }
        return nil
    }

    private static func isDigit(_ s: Unicode.Scalar) -> Bool { ("0"..."9").contains(s) || ("０"..."９").contains(s) }
    private static func isNumberScalar(_ s: Unicode.Scalar) -> Bool { isDigit(s) || s == "-" || s == "." || s == "‐" || s == "－" }

    static let labelWindow = VocabularyMatcher.labelWindow

    /// A label at the start of a block's text: the label word followed by a colon (ASCII or
    /// full-width). Returns the kind and the text after the colon.
    func label(in text: String, allowed: Set<LabelKind>) -> (kind: LabelKind, rest: String)? {
        // Labels are short: only the start of the text matters.
        let scalars = Self.prepare(text.unicodeScalars.prefix(Self.labelWindow))
        for (kind, word) in labels where allowed.contains(kind) && Self.hasPrefix(scalars, word.scalars) {
            var index = word.scalars.count
            while index < scalars.count, Self.isSpace(scalars[index]) { index += 1 }
            guard index < scalars.count, Self.isColon(scalars[index]) else { continue }
            let original = Array(text.unicodeScalars.drop { Self.isSpace($0) || $0 == "\n" })
            let rest = index + 1 <= original.count ? String(String.UnicodeScalarView(original[(index + 1)...])) : ""
            return (kind, rest.trimmingSpaces())
        }
        return nil
    }

    /// A sub-heading that is a label on its own (`#### 结果`, `#### 원인:`).
    func labelHeading(_ heading: String, allowed: Set<LabelKind>) -> LabelKind? {
        var scalars = Self.prepare(heading.unicodeScalars)
        if let last = scalars.last, Self.isColon(last) { scalars.removeLast() }
        for (kind, word) in labels where allowed.contains(kind) && scalars == word.scalars { return kind }
        return nil
    }

    /// The first outcome word in the first clause of `text` (up to a sentence end).
    /// Earliest position wins; at one position, the longest word.
    func outcome(in text: String) -> (outcome: Outcome, word: String)? {
        var scalars = Self.prepare(text.unicodeScalars)
        if let end = scalars.firstIndex(where: { "。.！!？?；;\n".unicodeScalars.contains($0) }) {
            scalars = Array(scalars[..<end])
        }
        var best: (position: Int, length: Int, outcome: Outcome, word: String)? = nil
        for (outcome, word) in outcomes {
            guard let position = Self.find(word.scalars, in: scalars) else { continue }
            if word.scalars.first.map({ $0.isASCII }) == true, !Self.isWordBoundary(scalars, position, word.scalars.count) { continue }
            if best == nil || position < best!.position || (position == best!.position && word.scalars.count > best!.length) {
                best = (position, word.scalars.count, outcome, word.text)
            }
        }
        return best.map { ($0.outcome, $0.word) }
    }

    private static func find(_ needle: [Unicode.Scalar], in haystack: [Unicode.Scalar]) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where hasPrefix(haystack, needle, at: start) { return start }
        return nil
    }

    private static func isWordBoundary(_ scalars: [Unicode.Scalar], _ position: Int, _ length: Int) -> Bool {
        func isWordScalar(_ s: Unicode.Scalar) -> Bool { s.properties.isAlphabetic && s.isASCII }
        if position > 0, isWordScalar(scalars[position - 1]) { return false }
        if position + length < scalars.count, isWordScalar(scalars[position + length]) { return false }
        return true
    }

    static func dropOutcomeWord(_ word: String, from text: String) -> String {
        var rest = Substring(text).unicodeScalars.dropFirst(word.unicodeScalars.count)
        while let first = rest.first, isSeparator(first) || "。，,！!".unicodeScalars.contains(first) {
            rest = rest.dropFirst()
        }
        return String(String.UnicodeScalarView(rest))
    }
}
