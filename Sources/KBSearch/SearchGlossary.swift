import Foundation
import KBCore

/// The glossary as search uses it (docs/search.md, "Cross-language search"): concepts with
/// their terms in matching form, compiled for scanning a text once.
public struct SearchGlossary: Sendable {
    public struct Concept: Sendable, Hashable {
        /// The concept id (`large-title`); its token is `~c:` + id.
        public var id: String
        /// The name shown to people (`large title`): the first English term, else the id.
        public var name: String
        /// Terms in matching form (see `matchingForm`), in glossary order, without duplicates.
        public var terms: [String]

        public init(id: String, name: String, terms: [String]) {
            self.id = id
            self.name = name
            self.terms = terms
        }
    }

    /// A term occurrence in a text: `start..<end` in normalised scalars.
    struct Match: Equatable {
        var concept: Int
        var start: Int
        var end: Int
    }

    public let concepts: [Concept]
    /// UTF-8 bytes and FNV-1a hash of each concept's token.
    let tokenBytes: [[UInt8]]
    let tokenHashes: [UInt32]
    // Compiled terms.
    let termScalars: [[UInt32]]
    let termConcept: [Int]
    /// Whether a term has no Han, Kana or Hangul scalar (whole-word matching).
    let termLatin: [Bool]
    /// Term indexes by first scalar, in term order.
    let byFirst: [UInt32: [Int]]

    /// The token of a concept.
    public static func token(_ conceptID: String) -> String { "~c:" + conceptID }
    /// The concept id of a concept token, or nil for a literal token.
    public static func conceptID(ofToken token: String) -> String? {
        token.hasPrefix("~c:") ? String(token.dropFirst(3)) : nil
    }

    public static let empty = SearchGlossary(concepts: [])

    public var isEmpty: Bool { termScalars.isEmpty }

    /// Compiles concepts; terms are brought to matching form, empty and repeated terms of a
    /// concept are dropped.
    public init(concepts: [Concept]) {
        var cleaned: [Concept] = []
        var scalars: [[UInt32]] = [], owner: [Int] = [], latin: [Bool] = []
        var byFirst: [UInt32: [Int]] = [:]
        for concept in concepts {
            var terms: [String] = []
            for raw in concept.terms {
                let form = Self.matchingScalars(raw)
                guard !form.isEmpty else { continue }
                let text = Self.string(form)
                if terms.contains(text) { continue }
                terms.append(text)
                byFirst[form[0], default: []].append(scalars.count)
                scalars.append(form)
                owner.append(cleaned.count)
                latin.append(!form.contains { c in
                    let k = SearchScalars.classify(c)
                    return k == .han || k == .kana || k == .hangul
                })
            }
            cleaned.append(Concept(id: concept.id, name: concept.name, terms: terms))
        }
        self.concepts = cleaned
        tokenBytes = cleaned.map { Array(Self.token($0.id).utf8) }
        tokenHashes = tokenBytes.map { SearchScalars.fnv1a32($0) }
        termScalars = scalars
        termConcept = owner
        termLatin = latin
        self.byFirst = byFirst
    }

    /// The search form of a glossary file: every concept with all its terms; the name is the
    /// first English term as written.
    public init(_ glossary: Glossary) {
        self.init(concepts: glossary.concepts.map { concept in
            Concept(id: concept.id,
                    name: concept.terms.first { $0.language == "en" }?.text ?? concept.id,
                    terms: concept.terms.map(\.text))
        })
    }

    // MARK: Matching form

    /// The matching form of one normalised scalar: tab, LF, CR → space; U+2018/U+2019 → `'`;
    /// `A`–`Z` and other letters lower-cased when the lower-case mapping is one scalar.
    @inline(__always)
    static func matchingScalar(_ v: UInt32) -> UInt32 {
        if v < 0x80 {
            if v >= 0x41 && v <= 0x5A { return v + 32 }
            if v == 0x09 || v == 0x0A || v == 0x0D { return 0x20 }
            return v
        }
        if v == 0x2018 || v == 0x2019 { return 0x27 }
        if SearchScalars.classify(v) == .letter, let u = Unicode.Scalar(v) {
            let lower = u.properties.lowercaseMapping.unicodeScalars
            if lower.count == 1 { return lower.first!.value }
        }
        return v
    }

    /// A term in matching form: NFKC, each scalar mapped by `matchingScalar`, leading and
    /// trailing spaces removed, runs of spaces collapsed to one.
    static func matchingScalars(_ term: String) -> [UInt32] {
        var out: [UInt32] = []
        for v in SearchAnalyzer.normalize(term).unicodeScalars.map({ matchingScalar($0.value) }) {
            if v == 0x20 && (out.isEmpty || out.last == 0x20) { continue }
            out.append(v)
        }
        if out.last == 0x20 { out.removeLast() }
        return out
    }

    /// The matching form of a term as a string.
    public static func matchingForm(_ term: String) -> String { string(matchingScalars(term)) }

    static func string(_ scalars: [UInt32]) -> String {
        var view = String.UnicodeScalarView()
        for v in scalars { view.append(Unicode.Scalar(v)!) }
        return String(view)
    }

    @inline(__always)
    static func isWord(_ v: UInt32) -> Bool {
        switch SearchScalars.classify(v) {
        case .upper, .lower, .digit, .underscore, .letter: return true
        default: return false
        }
    }

    // MARK: Scanning

    /// The concept matches of a text given as matching-form scalars, ordered by start, then
    /// concept order. Per concept, the longest match at a start is kept, and only when it
    /// starts at or after the end of that concept's previous kept match.
    func matches(in text: [UInt32]) -> [Match] {
        guard !isEmpty else { return [] }
        var out: [Match] = []
        var lastEnd = [Int](repeating: 0, count: concepts.count)
        var bestEnd = [Int](repeating: -1, count: concepts.count)
        var found: [Int] = []
        let n = text.count
        for i in 0..<n {
            guard let candidates = byFirst[text[i]] else { continue }
            let startsWord = i == 0 || !Self.isWord(text[i - 1])
            found.removeAll(keepingCapacity: true)
            for k in candidates {
                if termLatin[k] && !startsWord { continue }
                guard let end = matchEnd(k, text, at: i) else { continue }
                let c = termConcept[k]
                if bestEnd[c] < 0 { found.append(c) }
                if end > bestEnd[c] { bestEnd[c] = end }
            }
            found.sort()
            for c in found {
                if i >= lastEnd[c] {
                    out.append(Match(concept: c, start: i, end: bestEnd[c]))
                    lastEnd[c] = bestEnd[c]
                }
                bestEnd[c] = -1
            }
        }
        return out
    }

    /// Where term `k` ends when it matches `text` at `i`: a space in the term matches one or
    /// more spaces; a Latin term must end a word, optionally followed by a plural `s`.
    @inline(__always)
    private func matchEnd(_ k: Int, _ text: [UInt32], at i: Int) -> Int? {
        let term = termScalars[k]
        let n = text.count
        var j = i
        for c in term {
            guard j < n else { return nil }
            if c == 0x20 {
                guard text[j] == 0x20 else { return nil }
                while j < n && text[j] == 0x20 { j += 1 }
            } else {
                guard text[j] == c else { return nil }
                j += 1
            }
        }
        if termLatin[k] && j < n && Self.isWord(text[j]) {
            guard text[j] == 0x73, j + 1 == n || !Self.isWord(text[j + 1]) else { return nil }
            j += 1
        }
        return j
    }
}
