/// Matches headings and labels against the vocabulary tables. Built once; lookups compare
/// lower-cased words, longest first. The parser's lookups (sections, attempt headings, labels,
/// outcomes) compare the UTF-8 bytes of the text with each word's bytes, ASCII letters folded
/// to lower case, so they allocate nothing until they return what they found.
public struct VocabularyMatcher: Sendable {
    private struct Word: Sendable {
        let scalars: [Unicode.Scalar]
        /// The UTF-8 of `scalars`.
        let bytes: [UInt8]
        let text: String

        init(_ text: String) {
            scalars = VocabularyMatcher.prepare(text.unicodeScalars)
            var utf8: [UInt8] = []
            for scalar in scalars { utf8 += UTF8.encode(scalar)! }
            bytes = utf8
            self.text = text
        }
    }

    private let sections: [(SectionKind, Word)]
    private let attemptWords: [Word]
    private let labels: [(LabelKind, Word)]
    private let outcomes: [(Outcome, Word)]
    private let evidence: [(OutcomeEvidence, Word)]

    public static let shared = VocabularyMatcher(vocabularies: Vocabulary.all)

    public init(vocabularies: [Vocabulary]) {
        func sorted<K>(_ pairs: [(K, Word)]) -> [(K, Word)] { pairs.sorted { $0.1.scalars.count > $1.1.scalars.count } }
        sections = sorted(vocabularies.flatMap { v in v.sections.flatMap { kind, words in words.map { (kind, Word($0)) } } })
        attemptWords = vocabularies.flatMap { $0.attemptWords.map(Word.init) }.sorted { $0.scalars.count > $1.scalars.count }
        labels = sorted(vocabularies.flatMap { v in v.labels.flatMap { kind, words in words.map { (kind, Word($0)) } } })
        outcomes = sorted(vocabularies.flatMap { v in v.outcomes.flatMap { kind, words in words.map { (kind, Word($0)) } } })
        evidence = sorted(vocabularies.flatMap { v in v.evidence.flatMap { kind, words in words.map { (kind, Word($0)) } } })
    }

    static func isSpace(_ s: Unicode.Scalar) -> Bool { s == " " || s == "\t" || s == "\u{3000}" || s == "\u{A0}" }
    static func isColon(_ s: Unicode.Scalar) -> Bool { s == ":" || s == "：" }
    package static func isSeparator(_ s: Unicode.Scalar) -> Bool { isSeparator(value: s.value) }

    /// Spaces, colons and `(（[【「-—–‐/、·.．,，)）`.
    static func isSeparator(value: UInt32) -> Bool {
        switch value {
        case 0x20, 0x09, 0x3000, 0xA0, 0x3A, 0xFF1A,
             0x28, 0xFF08, 0x5B, 0x3010, 0x300C, 0x2D, 0x2014, 0x2013, 0x2010, 0x2F, 0x3001, 0xB7, 0x2E, 0xFF0E,
             0x2C, 0xFF0C, 0x29, 0xFF09:
            return true
        default:
            return false
        }
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

    // MARK: UTF-8 level

    /// The length of the space (`isSpace`) starting at `i`, or 0.
    @inline(__always)
    static func spaceLength(_ b: UnsafeBufferPointer<UInt8>, _ i: Int, end: Int) -> Int {
        switch b[i] {
        case 0x20, 0x09: return 1
        case 0xC2: return i + 1 < end && b[i + 1] == 0xA0 ? 2 : 0
        case 0xE3: return i + 2 < end && b[i + 1] == 0x80 && b[i + 2] == 0x80 ? 3 : 0
        default: return 0
        }
    }

    /// The length of the colon (`isColon`) starting at `i`, or 0.
    @inline(__always)
    static func colonLength(_ b: UnsafeBufferPointer<UInt8>, _ i: Int, end: Int) -> Int {
        if b[i] == 0x3A { return 1 }
        return i + 2 < end && b[i] == 0xEF && b[i + 1] == 0xBC && b[i + 2] == 0x9A ? 3 : 0
    }

    /// `start` moved past spaces and newlines.
    static func skipSpacesForward(_ b: UnsafeBufferPointer<UInt8>, from start: Int, end: Int) -> Int {
        var i = start
        while i < end {
            if b[i] == 0x0A { i += 1; continue }
            let length = spaceLength(b, i, end: end)
            if length == 0 { break }
            i += length
        }
        return i
    }

    /// `end` moved back over spaces and newlines, not before `start`.
    static func skipSpacesBackward(_ b: UnsafeBufferPointer<UInt8>, from start: Int, end: Int) -> Int {
        var e = end
        while e > start {
            let last = b[e - 1]
            if last == 0x20 || last == 0x09 || last == 0x0A { e -= 1; continue }
            if last == 0xA0, e - 2 >= start, b[e - 2] == 0xC2 { e -= 2; continue }
            if last == 0x80, e - 3 >= start, b[e - 2] == 0x80, b[e - 3] == 0xE3 { e -= 3; continue }
            break
        }
        return e
    }

    /// The byte range `prepare` keeps: surrounding spaces and newlines removed.
    @inline(__always)
    static func trimmedRange(_ b: UnsafeBufferPointer<UInt8>) -> (start: Int, end: Int) {
        let start = skipSpacesForward(b, from: 0, end: b.count)
        return (start, skipSpacesBackward(b, from: start, end: b.count))
    }

    @inline(__always)
    private static func hasPrefix(_ b: UnsafeBufferPointer<UInt8>, at start: Int, end: Int, _ word: Word) -> Bool {
        word.bytes.withUnsafeBufferPointer { UTF8Scan.hasFoldedPrefix(b, at: start, end: end, $0) }
    }

    /// `text[start..<end]` (UTF-8 offsets on scalar boundaries) as a new string.
    static func substring(_ text: String, _ start: Int, _ end: Int) -> String {
        guard end > start else { return "" }
        let utf8 = text.utf8
        let from = utf8.index(utf8.startIndex, offsetBy: start), to = utf8.index(utf8.startIndex, offsetBy: end)
        return String(text.unicodeScalars[from..<to])
    }

    /// `text[start..<end]` with surrounding spaces and newlines removed, as a new string.
    static func trimmedSubstring(_ text: String, _ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
        let from = skipSpacesForward(b, from: start, end: end)
        return substring(text, from, skipSpacesBackward(b, from: from, end: end))
    }

    @inline(__always)
    static func withUTF8<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        var text = text
        return text.withUTF8(body)
    }

    // MARK: lookups

    /// The section a heading starts, if its text is a section word alone or followed by a separator.
    public func section(forHeading heading: String) -> SectionKind? {
        Self.withUTF8(heading) { b in
            let (start, end) = Self.trimmedRange(b)
            for (kind, word) in sections where Self.hasPrefix(b, at: start, end: end, word) {
                let next = start + word.bytes.count
                if next == end || Self.isSeparator(value: UTF8Scan.decode(b, next).value) { return kind }
            }
            return nil
        }
    }

    /// Parses an attempt heading: an attempt word, a number, then an optional title.
    public func attemptHeading(_ heading: String) -> (number: AttemptNumber, title: String)? {
        Self.withUTF8(heading) { b in
            // `prepared` is what `prepare` keeps; `original` drops leading spaces but not newlines.
            let (start, end) = Self.trimmedRange(b)
            var originalStart = 0
            while originalStart < b.count {
                let length = Self.spaceLength(b, originalStart, end: b.count)
                if length == 0 { break }
                originalStart += length
            }
            for word in attemptWords where Self.hasPrefix(b, at: start, end: end, word) {
                var index = start + word.bytes.count
                while index < end {
                    let length = Self.spaceLength(b, index, end: end)
                    if length == 0 { break }
                    index += length
                }
                let numberStart = index
                while index < end {
                    let (value, length) = UTF8Scan.decode(b, index)
                    guard Self.isNumberScalar(value: value) else { break }
                    index += length
                }
                var numberEnd = index
                while numberEnd > numberStart {
                    let previous = UTF8Scan.previousBoundary(b, numberEnd)
                    if Self.isDigit(value: UTF8Scan.decode(b, previous).value) { break }
                    numberEnd = previous
                }
                guard numberEnd > numberStart,
                      let number = AttemptNumber(Substring(Self.substring(heading, numberStart, numberEnd))) else { continue }
                if index < end, !Self.isSeparator(value: UTF8Scan.decode(b, index).value) { continue }
                // The title starts as many scalars into `original` as the number ends into `prepared`.
                var titleStart = UTF8Scan.advance(b, from: originalStart, by: UTF8Scan.scalarCount(b, from: start, to: numberEnd), end: b.count)
                while titleStart < b.count {
                    let (value, length) = UTF8Scan.decode(b, titleStart)
                    guard Self.isSeparator(value: value), !Self.opensTitle(value: value) else { break }
                    titleStart += length
                }
                return (number, Self.trimmedSubstring(heading, b, titleStart, b.count))
            }
            return nil
        }
    }

    /// `(（[【「`: separators that belong to the title after an attempt number.
    private static func opensTitle(value: UInt32) -> Bool {
        value == 0x28 || value == 0xFF08 || value == 0x5B || value == 0x3010 || value == 0x300C
    }
    private static func isDigit(value: UInt32) -> Bool { (0x30...0x39).contains(value) || (0xFF10...0xFF19).contains(value) }
    private static func isNumberScalar(value: UInt32) -> Bool {
        isDigit(value: value) || value == 0x2D || value == 0x2E || value == 0x2010 || value == 0xFF0D
    }

    package static let labelWindow = 48

    /// A set of label kinds as bits, for lookups in a loop.
    public struct LabelSet: Sendable {
        let bits: UInt8
        public init(_ kinds: Set<LabelKind>) {
            var bits: UInt8 = 0
            for kind in kinds { bits |= Self.bit(kind) }
            self.bits = bits
        }
        static func bit(_ kind: LabelKind) -> UInt8 {
            switch kind {
            case .idea: return 1
            case .result: return 2
            case .failure: return 4
            case .cause: return 8
            case .fixStep: return 16
            case .code: return 32
            }
        }
        func contains(_ kind: LabelKind) -> Bool { bits & Self.bit(kind) != 0 }
    }

    /// A label at the start of a block's text: the label word followed by a colon (ASCII or
    /// full-width). Returns the kind and the text after the colon.
    public func label(in text: String, allowed: Set<LabelKind>) -> (kind: LabelKind, rest: String)? {
        label(in: text, allowed: LabelSet(allowed))
    }

    /// `label(in:allowed:)` with the allowed kinds given as a `LabelSet`.
    public func label(in text: String, allowed: LabelSet) -> (kind: LabelKind, rest: String)? {
        Self.withUTF8(text) { b in
            let count = b.count
            let start = Self.skipSpacesForward(b, from: 0, end: count)
            guard start < count else { return nil }
            let first = UTF8Scan.foldASCII(b[start])
            for (kind, word) in labels where allowed.contains(kind) && (word.bytes.first == first || word.bytes.isEmpty)
                && Self.hasPrefix(b, at: start, end: count, word) {
                var index = start + word.bytes.count
                while index < count {
                    let length = Self.spaceLength(b, index, end: count)
                    if length == 0 { break }
                    index += length
                }
                guard index < count else { continue }
                let colon = Self.colonLength(b, index, end: count)
                // Labels are short: the colon must be within the first `labelWindow` scalars.
                guard colon > 0, UTF8Scan.scalarCount(b, from: 0, to: index) < Self.labelWindow else { continue }
                return (kind, Self.trimmedSubstring(text, b, index + colon, count))
            }
            return nil
        }
    }

    /// A sub-heading that is a label on its own (`#### 结果`, `#### 원인:`).
    public func labelHeading(_ heading: String, allowed: Set<LabelKind>) -> LabelKind? {
        labelHeading(heading, allowed: LabelSet(allowed))
    }

    /// `labelHeading(_:allowed:)` with the allowed kinds given as a `LabelSet`.
    public func labelHeading(_ heading: String, allowed: LabelSet) -> LabelKind? {
        Self.withUTF8(heading) { b in
            var (start, end) = Self.trimmedRange(b)
            if end > start {
                if b[end - 1] == 0x3A {
                    end -= 1
                } else if end - start >= 3, b[end - 3] == 0xEF, b[end - 2] == 0xBC, b[end - 1] == 0x9A {
                    end -= 3
                }
            }
            for (kind, word) in labels where allowed.contains(kind) && word.bytes.count == end - start
                && Self.hasPrefix(b, at: start, end: end, word) {
                return kind
            }
            return nil
        }
    }

    /// The first outcome word in the first clause of `text` (up to a sentence end).
    /// Earliest position wins; at one position, the longest word.
    public func outcome(in text: String) -> (outcome: Outcome, word: String)? {
        Self.withUTF8(text) { b in
            let (start, trimmedEnd) = Self.trimmedRange(b)
            var end = start
            while end < trimmedEnd {
                let (value, length) = UTF8Scan.decode(b, end)
                if Self.endsClause(value: value) { break }
                end += length
            }
            var best: (position: Int, length: Int, outcome: Outcome, word: String)? = nil
            for (outcome, word) in outcomes {
                let length = word.bytes.count
                guard let firstByte = word.bytes.first, end - start >= length else { continue }
                var position = start
                let last = end - length
                var found = false
                while position <= last {
                    if UTF8Scan.foldASCII(b[position]) == firstByte && Self.hasPrefix(b, at: position, end: end, word) {
                        found = true
                        break
                    }
                    position += 1
                }
                guard found else { continue }
                // An English word must stand alone: no ASCII letter right before or after it.
                if firstByte < 0x80 {
                    if position > start, Self.isASCIILetter(b[position - 1]) { continue }
                    if position + length < end, Self.isASCIILetter(b[position + length]) { continue }
                }
                if best == nil || position < best!.position || (position == best!.position && length > best!.length) {
                    best = (position, length, outcome, word.text)
                }
            }
            return best.map { ($0.outcome, $0.word) }
        }
    }

    /// `。.！!？?；;` and the newline end the clause `outcome(in:)` looks in.
    private static func endsClause(value: UInt32) -> Bool {
        switch value {
        case 0x3002, 0x2E, 0xFF01, 0x21, 0xFF1F, 0x3F, 0xFF1B, 0x3B, 0x0A: return true
        default: return false
        }
    }

    @inline(__always)
    private static func isASCIILetter(_ b: UInt8) -> Bool { (b | 0x20) &- 0x61 < 26 }

    /// Every evidence phrase in `text` (anywhere, not only the first clause), in text order,
    /// each phrase once. A phrase inside a longer phrase found at the same place is skipped
    /// (`不接受` inside `用户不接受`).
    public func evidence(in text: String) -> [(kind: OutcomeEvidence, phrase: String)] {
        let scalars = Self.prepare(text.unicodeScalars)
        var found: [(position: Int, end: Int, kind: OutcomeEvidence, phrase: String)] = []
        for (kind, word) in evidence {
            var start = 0
            while start + word.scalars.count <= scalars.count {
                guard let offset = Self.find(word.scalars, in: Array(scalars[start...])) else { break }
                let position = start + offset
                start = position + 1
                if word.scalars.first.map({ $0.isASCII }) == true, !Self.isWordBoundary(scalars, position, word.scalars.count) { continue }
                var end = position + word.scalars.count
                // Longest first: a shorter phrase within one already found says nothing new.
                if found.contains(where: { $0.position <= position && end <= $0.end }) { continue }
                // Hangul stems are cited as the whole word the text wrote (`변경되` → `변경되나`).
                if let last = word.scalars.last, Self.isHangul(last) {
                    while end < scalars.count, Self.isHangul(scalars[end]) { end += 1 }
                }
                let phrase = String(String.UnicodeScalarView(scalars[position..<end]))
                if !found.contains(where: { $0.phrase == phrase }) { found.append((position, end, kind, phrase)) }
            }
        }
        return found.sorted { $0.position < $1.position }.map { ($0.kind, $0.phrase) }
    }

    private static func isHangul(_ s: Unicode.Scalar) -> Bool { (0xAC00...0xD7A3).contains(s.value) }

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
}

extension String {
    package func trimmingSpaces() -> String {
        var scalars = Substring(self).unicodeScalars
        while let first = scalars.first, VocabularyMatcher.isSpace(first) || first == "\n" { scalars.removeFirst() }
        while let last = scalars.last, VocabularyMatcher.isSpace(last) || last == "\n" { scalars.removeLast() }
        return String(scalars)
    }
}
