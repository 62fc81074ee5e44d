import KBCore
import KBSearch
import KBScenarios
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Colours code at build time: a scanner over the code's UTF-8 bytes driven by one
/// `HighlightGrammar`. Tokens become `<span class="hl-…">`; every byte of the code is escaped.
/// One pass, no regular expressions: each position tries the grammar's rules in order.
struct Highlighter: Sendable {
    let grammar: HighlightGrammar
    private let rules: [CompiledRule]
    private let words: WordTable
    /// Bytes that words are made of: ASCII letters and digits, `_`, every byte of a non-ASCII
    /// character and the grammar's extra characters.
    private let wordBytes: ByteSet
    /// Bytes of a name after a sigil: ASCII letters and digits, `_`, non-ASCII.
    private let nameBytes: ByteSet
    private let prompts: [[UInt8]]
    /// For each byte value, the indices of the rules that can start with it, in rule order: a
    /// position tries only those.
    private let candidates: [[Int]]

    init(_ grammar: HighlightGrammar) {
        self.grammar = grammar
        rules = grammar.rules.map(CompiledRule.init)
        words = WordTable(grammar.words)
        var names = ByteSet()
        for b in UInt8(ascii: "a")...UInt8(ascii: "z") { names.insert(b) }
        for b in UInt8(ascii: "A")...UInt8(ascii: "Z") { names.insert(b) }
        for b in UInt8(ascii: "0")...UInt8(ascii: "9") { names.insert(b) }
        names.insert(UInt8(ascii: "_"))
        for b in UInt8(0x80)...UInt8(0xFF) { names.insert(b) }
        nameBytes = names
        var word = names
        for b in grammar.extraWordCharacters.utf8 { word.insert(b) }
        wordBytes = word
        prompts = grammar.prompts.map { Array($0.utf8) }
        var candidates = [[Int]](repeating: [], count: 256)
        for (index, rule) in rules.enumerated() {
            let first = rule.firstBytes(words: word)
            for b in 0...255 where first.contains(UInt8(b)) { candidates[b].append(index) }
        }
        self.candidates = candidates
    }

    /// The code as HTML: escaped, with spans around tokens.
    func html(_ code: String) -> String {
        var out: [UInt8] = []
        var copy = code
        copy.withUTF8 { highlight($0, into: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the code's HTML to `out`.
    func highlight(_ code: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        // The page's buffer is moved into the scan and back, never copied.
        var scan = Scan(code: code)
        swap(&scan.out, &out)
        defer { swap(&scan.out, &out) }
        let n = code.count
        var i = 0
        while i < n {
            // A shell session: a line is code only after a prompt.
            var limit = n
            if !prompts.isEmpty {
                let lineEnd = scan.lineEnd(from: i)
                guard let prompt = prompts.first(where: { scan.matches($0, at: i) }) else {
                    i = lineEnd < n ? lineEnd + 1 : n
                    continue
                }
                scan.token(.meta, from: i, to: i + prompt.count)
                i += prompt.count
                limit = lineEnd
            }
            i = line(&scan, from: i, limit: limit)
        }
        scan.flush(to: n)
    }

    /// Scans from `start` to `limit` (the end of the code, or of a prompt's line); returns where
    /// the next line starts when stopped at a prompt line's end.
    private func line(_ scan: inout Scan, from start: Int, limit: Int) -> Int {
        var i = start
        let code = scan.code
        next: while i < limit {
            let b = code[i]
            if b == 0x0A || b == 0x20 || b == 0x09 { i += 1; continue }
            for index in candidates[Int(b)] {
                if let (end, kind) = match(rules[index], &scan, at: i, limit: limit) {
                    if let kind { scan.token(kind, from: i, to: end) }
                    i = end
                    continue next
                }
            }
            // No rule: a word is skipped whole (so no rule starts inside it), anything else by one byte.
            if wordBytes.contains(b) {
                i += 1
                while i < limit && wordBytes.contains(code[i]) { i += 1 }
            } else {
                i += 1
            }
        }
        return limit < code.count ? limit + 1 : limit
    }

    /// Where `rule` ends when it matches at `i`, and the class of its token (nil: plain).
    private func match(_ rule: CompiledRule, _ scan: inout Scan, at i: Int, limit: Int) -> (Int, HighlightClass?)? {
        let code = scan.code
        switch rule {
        case .lineComment(let open, let wordStart):
            guard scan.matches(open, at: i) else { return nil }
            if wordStart && i > 0 && !Self.wordBoundary.contains(code[i - 1]) { return nil }
            return (min(scan.lineEnd(from: i), limit), .comment)

        case .blockComment(let open, let close, let nests):
            guard scan.matches(open, at: i) else { return nil }
            var depth = 1
            var j = i + open.count
            while j < limit {
                if nests && scan.matches(open, at: j) {
                    depth += 1
                    j += open.count
                } else if scan.matches(close, at: j) {
                    depth -= 1
                    j += close.count
                    if depth == 0 { return (j, .comment) }
                } else {
                    j += 1
                }
            }
            return (limit, .comment)

        case .string(let open, let close, let escape, let multiline, let interpolation, let keyClass):
            guard scan.matches(open, at: i) else { return nil }
            let end = multiline ? limit : min(scan.lineEnd(from: i), limit)
            var j = i + open.count
            var closed = false
            while j < end {
                if let interpolation, scan.matches(interpolation, at: j) {
                    j = skipInterpolation(scan, from: j + interpolation.count, opener: interpolation.last!, limit: end)
                    continue
                }
                if let escape, code[j] == escape { j += 2; continue }
                if scan.matches(close, at: j) { j += close.count; closed = true; break }
                j += 1
            }
            j = min(j, end)
            if closed, let keyClass {
                var k = j
                while k < limit && (code[k] == 0x20 || code[k] == 0x09) { k += 1 }
                if k < limit && code[k] == UInt8(ascii: ":") { return (j, keyClass) }
            }
            return (j, .string)

        case .number:
            guard code[i] >= 0x30 && code[i] <= 0x39 else { return nil }
            var j = i + 1
            while j < limit {
                let c = code[j]
                if nameBytes.contains(c) && c < 0x80 { j += 1; continue }
                if c == UInt8(ascii: ".") && j + 1 < limit && code[j + 1] >= 0x30 && code[j + 1] <= 0x39 { j += 2; continue }
                break
            }
            return (j, .number)

        case .sigilWord(let sigil, let kind, let alone):
            guard scan.matches(sigil, at: i) else { return nil }
            let j = i + sigil.count
            guard j < limit else { return nil }
            if alone.contains(code[j]) { return (j + 1, kind) }
            guard nameBytes.contains(code[j]) else { return nil }
            var k = j + 1
            while k < limit && nameBytes.contains(code[k]) { k += 1 }
            return (k, kind)

        case .enclosed(let open, let close, let kind):
            guard scan.matches(open, at: i) else { return nil }
            let end = min(scan.lineEnd(from: i), limit)
            var j = i + open.count
            while j < end {
                if scan.matches(close, at: j) { return (j + close.count, kind) }
                j += 1
            }
            return nil

        case .line(let prefix, let kind, let indented):
            guard indented ? scan.onlyIndentBefore(i) : scan.atLineStart(i), scan.matches(prefix, at: i) else { return nil }
            return (min(scan.lineEnd(from: i), limit), kind)

        case .lineStartWords(let list, let kind):
            guard scan.onlyIndentBefore(i) else { return nil }
            for word in list where scan.matches(word, at: i) { return (i + word.count, kind) }
            return nil

        case .lineKey(let kind):
            guard scan.onlyIndentOrDashesBefore(i) else { return nil }
            let first = code[i]
            if first == UInt8(ascii: "-") || first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") || first == UInt8(ascii: "[")
                || first == UInt8(ascii: "{") || first == UInt8(ascii: "|") || first == UInt8(ascii: ">") || first == UInt8(ascii: "#") {
                return nil
            }
            let end = min(scan.lineEnd(from: i), limit)
            var j = i
            while j < end {
                let c = code[j]
                if c == UInt8(ascii: "#") && code[j - 1] == 0x20 { return nil }
                if c == UInt8(ascii: ":") && (j + 1 == end || code[j + 1] == 0x20 || code[j + 1] == 0x09) {
                    return j > i ? (j, kind) : nil
                }
                j += 1
            }
            return nil

        case .characters(let set, let kind):
            guard set.contains(code[i]) else { return nil }
            var j = i + 1
            while j < limit && set.contains(code[j]) { j += 1 }
            return (j, kind)

        case .word:
            guard wordBytes.contains(code[i]) else { return nil }
            var j = i + 1
            while j < limit && wordBytes.contains(code[j]) { j += 1 }
            if let kind = words.kind(of: code, i, j) { return (j, kind) }
            if grammar.capitalizedWordsAreTypes && code[i] >= 0x41 && code[i] <= 0x5A { return (j, .type) }
            return (j, nil)
        }
    }

    /// The end of an interpolation opened by `opener` (`(` or `{`) inside a string: the byte
    /// after its matching closer, skipping strings in double quotes inside it.
    private func skipInterpolation(_ scan: Scan, from start: Int, opener: UInt8, limit: Int) -> Int {
        let closer = opener == UInt8(ascii: "(") ? UInt8(ascii: ")") : UInt8(ascii: "}")
        let code = scan.code
        var depth = 1
        var j = start
        while j < limit {
            let c = code[j]
            if c == UInt8(ascii: "\"") {
                j += 1
                while j < limit && code[j] != UInt8(ascii: "\"") && code[j] != 0x0A {
                    j += code[j] == UInt8(ascii: "\\") ? 2 : 1
                }
            } else if c == opener {
                depth += 1
            } else if c == closer {
                depth -= 1
                if depth == 0 { return j + 1 }
            } else if c == 0x0A {
                return j // an interpolation does not span lines
            }
            j += 1
        }
        return limit
    }

    /// Where a `#` may start a shell or YAML comment: after these, or at the start.
    private static let wordBoundary = ByteSet(" \t\n;|&()")
}

/// The scanner's state: the code, the output so far and the start of the text not yet written.
private struct Scan {
    let code: UnsafeBufferPointer<UInt8>
    var out: [UInt8] = []
    var plain = 0

    init(code: UnsafeBufferPointer<UInt8>) {
        self.code = code
    }

    /// Writes the plain text before `start`, then the token in its span.
    mutating func token(_ kind: HighlightClass, from start: Int, to end: Int) {
        flush(to: start)
        out.append(contentsOf: Self.spanOpen)
        kind.cssClass.withUTF8Buffer { out.append(contentsOf: $0) }
        out.append(contentsOf: Self.spanOpenEnd)
        HTML.escape(bytes: UnsafeBufferPointer(rebasing: code[start..<end]), into: &out)
        out.append(contentsOf: Self.spanClose)
        plain = end
    }

    /// Writes the plain text up to `end`.
    mutating func flush(to end: Int) {
        if plain < end { HTML.escape(bytes: UnsafeBufferPointer(rebasing: code[plain..<end]), into: &out) }
        plain = max(plain, end)
    }

    @inline(__always)
    func matches(_ bytes: [UInt8], at i: Int) -> Bool {
        let count = bytes.count
        guard i + count <= code.count else { return false }
        if code[i] != bytes[0] { return false }
        return code[i..<i + count].elementsEqual(bytes)
    }

    /// The index of the newline that ends the line holding `i`, or the end of the code.
    func lineEnd(from i: Int) -> Int {
        guard i < code.count, let hit = memchr(code.baseAddress! + i, 0x0A, code.count - i) else { return code.count }
        return code.baseAddress!.distance(to: hit.assumingMemoryBound(to: UInt8.self))
    }

    func atLineStart(_ i: Int) -> Bool { i == 0 || code[i - 1] == 0x0A }

    /// Only spaces and tabs between the line's start and `i`.
    func onlyIndentBefore(_ i: Int) -> Bool {
        var j = i - 1
        while j >= 0 {
            let c = code[j]
            if c == 0x0A { return true }
            if c != 0x20 && c != 0x09 { return false }
            j -= 1
        }
        return true
    }

    /// Only spaces, tabs and list dashes (`- `) between the line's start and `i`.
    func onlyIndentOrDashesBefore(_ i: Int) -> Bool {
        var j = i - 1
        while j >= 0 {
            let c = code[j]
            if c == 0x0A { return true }
            if c == UInt8(ascii: "-") {
                guard code[j + 1] == 0x20 else { return false }
            } else if c != 0x20 && c != 0x09 {
                return false
            }
            j -= 1
        }
        return true
    }

    static let spanOpen = Array("<span class=\"".utf8)
    static let spanOpenEnd = Array("\">".utf8)
    static let spanClose = Array("</span>".utf8)
}

/// A rule with its strings as bytes, ready for the scanner.
private enum CompiledRule: Sendable {
    case lineComment([UInt8], wordStart: Bool)
    case blockComment(open: [UInt8], close: [UInt8], nests: Bool)
    case string(open: [UInt8], close: [UInt8], escape: UInt8?, multiline: Bool, interpolation: [UInt8]?, keyClass: HighlightClass?)
    case number
    case sigilWord([UInt8], HighlightClass, alone: ByteSet)
    case enclosed(open: [UInt8], close: [UInt8], HighlightClass)
    case line(prefix: [UInt8], HighlightClass, indented: Bool)
    case lineStartWords([[UInt8]], HighlightClass)
    case lineKey(HighlightClass)
    case characters(ByteSet, HighlightClass)
    case word

    /// The bytes a token of this rule can start with.
    func firstBytes(words: ByteSet) -> ByteSet {
        switch self {
        case .lineComment(let open, _), .blockComment(let open, _, _), .string(let open, _, _, _, _, _),
             .sigilWord(let open, _, _), .enclosed(let open, _, _), .line(let open, _, _):
            var set = ByteSet()
            set.insert(open[0])
            return set
        case .number: return ByteSet("0123456789")
        case .lineStartWords(let list, _):
            var set = ByteSet()
            for word in list { set.insert(word[0]) }
            return set
        case .lineKey:
            var set = ByteSet()
            for b in 0...255 where b != 0x20 && b != 0x09 && b != 0x0A { set.insert(UInt8(b)) }
            return set
        case .characters(let set, _): return set
        case .word: return words
        }
    }

    init(_ rule: HighlightRule) {
        switch rule {
        case .lineComment(let open, let wordStart): self = .lineComment(Array(open.utf8), wordStart: wordStart)
        case .blockComment(let open, let close, let nests): self = .blockComment(open: Array(open.utf8), close: Array(close.utf8), nests: nests)
        case .string(let open, let close, let escape, let multiline, let interpolation, let keyClass):
            self = .string(open: Array(open.utf8), close: Array(close.utf8), escape: escape, multiline: multiline,
                           interpolation: interpolation.map { Array($0.utf8) }, keyClass: keyClass)
        case .number: self = .number
        case .sigilWord(let sigil, let kind, let alone): self = .sigilWord(Array(sigil.utf8), kind, alone: ByteSet(alone))
        case .enclosed(let open, let close, let kind): self = .enclosed(open: Array(open.utf8), close: Array(close.utf8), kind)
        case .line(let prefix, let kind, let indented): self = .line(prefix: Array(prefix.utf8), kind, indented: indented)
        case .lineStartWords(let words, let kind):
            self = .lineStartWords(words.map { Array($0.utf8) }.sorted { $0.count > $1.count }, kind)
        case .lineKey(let kind): self = .lineKey(kind)
        case .characters(let set, let kind): self = .characters(ByteSet(set), kind)
        case .word: self = .word
        }
    }
}

/// A set of byte values (256 bits).
struct ByteSet: Sendable {
    private var bits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    init() {}

    /// The bytes of an ASCII string.
    init(_ characters: String) {
        for b in characters.utf8 { insert(b) }
    }

    mutating func insert(_ b: UInt8) {
        let bit = UInt64(1) << UInt64(b & 63)
        switch b >> 6 {
        case 0: bits.0 |= bit
        case 1: bits.1 |= bit
        case 2: bits.2 |= bit
        default: bits.3 |= bit
        }
    }

    @inline(__always)
    func contains(_ b: UInt8) -> Bool {
        let bit = UInt64(1) << UInt64(b & 63)
        switch b >> 6 {
        case 0: return bits.0 & bit != 0
        case 1: return bits.1 & bit != 0
        case 2: return bits.2 & bit != 0
        default: return bits.3 & bit != 0
        }
    }
}

/// A grammar's word lists, bucketed by length for lookups without allocating.
private struct WordTable: Sendable {
    private var buckets: [[(word: [UInt8], kind: HighlightClass)]] = []

    init(_ lists: [HighlightClass: [String]]) {
        // Classes in a fixed order, so a word in two lists always gets the same class.
        for kind in HighlightClass.allCases {
            for word in lists[kind] ?? [] {
                let bytes = Array(word.utf8)
                while buckets.count <= bytes.count { buckets.append([]) }
                buckets[bytes.count].append((bytes, kind))
            }
        }
    }

    func kind(of code: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> HighlightClass? {
        let length = end - start
        guard length < buckets.count else { return nil }
        for (word, kind) in buckets[length] where word[0] == code[start] {
            if code[start..<end].elementsEqual(word) { return kind }
        }
        return nil
    }
}
