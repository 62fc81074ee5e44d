/// Matches headings and labels against the vocabulary tables. Built once; lookups work on
/// Unicode scalars and compare lower-cased words, longest first.
public struct VocabularyMatcher: Sendable {
    private struct Word: Sendable {
        let scalars: [Unicode.Scalar]
        let text: String
    }

    private let sections: [(SectionKind, Word)]
    private let attemptWords: [Word]
    private let labels: [(LabelKind, Word)]
    private let outcomes: [(Outcome, Word)]
    private let evidence: [(OutcomeEvidence, Word)]

    public static let shared = VocabularyMatcher(vocabularies: Vocabulary.all)

    public init(vocabularies: [Vocabulary]) {
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
    public func section(forHeading heading: String) -> SectionKind? {
        let scalars = Self.prepare(heading.unicodeScalars)
        for (kind, word) in sections where Self.hasPrefix(scalars, word.scalars) {
            if scalars.count == word.scalars.count || Self.isSeparator(scalars[word.scalars.count]) { return kind }
        }
        return nil
    }

    /// Parses an attempt heading: an attempt word, a number, then an optional title.
    public func attemptHeading(_ heading: String) -> (number: AttemptNumber, title: String)? {
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

    static let labelWindow = 48

    /// A label at the start of a block's text: the label word followed by a colon (ASCII or
    /// full-width). Returns the kind and the text after the colon.
    public func label(in text: String, allowed: Set<LabelKind>) -> (kind: LabelKind, rest: String)? {
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
    public func labelHeading(_ heading: String, allowed: Set<LabelKind>) -> LabelKind? {
        var scalars = Self.prepare(heading.unicodeScalars)
        if let last = scalars.last, Self.isColon(last) { scalars.removeLast() }
        for (kind, word) in labels where allowed.contains(kind) && scalars == word.scalars { return kind }
        return nil
    }

    /// The first outcome word in the first clause of `text` (up to a sentence end).
    /// Earliest position wins; at one position, the longest word.
    public func outcome(in text: String) -> (outcome: Outcome, word: String)? {
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
    func trimmingSpaces() -> String {
        var scalars = Substring(self).unicodeScalars
        while let first = scalars.first, VocabularyMatcher.isSpace(first) || first == "\n" { scalars.removeFirst() }
        while let last = scalars.last, VocabularyMatcher.isSpace(last) || last == "\n" { scalars.removeLast() }
        return String(scalars)
    }
}
