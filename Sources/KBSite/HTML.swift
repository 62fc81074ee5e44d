import KBCore
import KBSearch
import KBScenarios
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one escaping helper of the site: every piece of text that goes into HTML or XML —
/// element content and attribute values alike — passes through `HTML.escape` (or
/// `HTMLBuffer.text`, which is the same code writing into a page's bytes).
/// Pre-rendered HTML comes only from cmark (`MarkdownNode.html`), which is safe unless
/// `--unsafe-html` is given.
enum HTML {
    /// Escapes `& < > " '` for element content and double- or single-quoted attribute values,
    /// in HTML and in XML. Control characters XML 1.0 forbids are dropped.
    static func escape(_ text: String) -> String {
        var out: [UInt8] = []
        escape(text, into: &out)
        // Most text needs nothing: then it is returned as it is.
        if out.count == text.utf8.count && out.elementsEqual(text.utf8) { return text }
        return String(decoding: out, as: UTF8.self)
    }

    /// `escape`, appending the UTF-8 bytes to `out`.
    @inline(__always)
    static func escape(_ text: String, into out: inout [UInt8]) {
        if let done: Void = text.utf8.withContiguousStorageIfAvailable({ escape(bytes: $0, into: &out) }) { return done }
        var copy = text
        copy.withUTF8 { escape(bytes: $0, into: &out) }
    }

    /// The escaping itself: runs of plain bytes are copied as they are.
    static func escape(bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        let n = bytes.count
        var i = 0
        var plain = 0 // start of the bytes not copied yet
        while i < n {
            let b = bytes[i]
            // Everything above `>` except DEL and the lead bytes of C1 controls and U+FFFE/U+FFFF is plain.
            if b > 0x3E && b != 0x7F && b != 0xC2 && b != 0xEF { i += 1; continue }
            let replacement: StaticString
            var width = 1
            switch b {
            case 0x26: replacement = "&amp;"
            case 0x3C: replacement = "&lt;"
            case 0x3E: replacement = "&gt;"
            case 0x22: replacement = "&quot;"
            case 0x27: replacement = "&#39;"
            // C0 controls (except tab and newlines), DEL..C1 controls (U+0080–U+009F: C2 80–C2 9F)
            // and the non-characters U+FFFE/U+FFFF (EF BF BE/BF) are invalid in XML and useless in HTML.
            case 0x09, 0x0A, 0x0D: i += 1; continue
            case 0..<0x20, 0x7F: replacement = ""
            case 0xC2 where i + 1 < n && bytes[i + 1] >= 0x80 && bytes[i + 1] <= 0x9F:
                replacement = ""; width = 2
            case 0xEF where i + 2 < n && bytes[i + 1] == 0xBF && (bytes[i + 2] == 0xBE || bytes[i + 2] == 0xBF):
                replacement = ""; width = 3
            default: i += 1; continue
            }
            if plain < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plain..<i])) }
            if replacement.utf8CodeUnitCount > 0 { replacement.withUTF8Buffer { out.append(contentsOf: $0) } }
            i += width
            plain = i
        }
        if plain < n { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plain..<n])) }
    }

    /// Schemes never emitted in a link the site builds itself.
    static let forbiddenSchemes = ["javascript", "vbscript", "data"]

    /// Whether `url` is safe to put in an `href`/`src` the site builds: no `javascript:`,
    /// `vbscript:` or `data:` scheme, however it is spelled (case, leading spaces, control
    /// characters or tabs inside the scheme are ignored the way browsers ignore them).
    static func isSafeURL(_ url: String) -> Bool {
        // The common cases on bytes: a path or fragment before any colon, or an ASCII scheme.
        var ascii: [UInt8] = []
        var scalars = 0
        for byte in url.utf8 {
            if byte <= 0x20 { continue } // browsers strip leading spaces and remove tabs/newlines
            if byte == UInt8(ascii: ":") {
                return !forbiddenSchemes.contains(String(decoding: ascii, as: UTF8.self).lowercased())
            }
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { return true } // relative
            if byte >= 0x80 { return isSafeURLScalars(url) }
            ascii.append(byte)
            scalars += 1
            if scalars > 32 { return true }
        }
        return true // no colon: relative
    }

    /// `isSafeURL` for schemes with non-ASCII characters, compared the way `String.lowercased` sees them.
    static func isSafeURLScalars(_ url: String) -> Bool {
        var scheme = ""
        for scalar in url.unicodeScalars {
            if scalar.value <= 0x20 { continue }
            if scalar == ":" { break }
            if scalar == "/" || scalar == "?" || scalar == "#" { return true }
            scheme.unicodeScalars.append(scalar)
            if scheme.unicodeScalars.count > 32 { return true }
        }
        guard url.contains(":") else { return true }
        return !forbiddenSchemes.contains(scheme.lowercased())
    }

    /// `href="…"` for a URL the site builds (relative page paths, fragments, the base URL):
    /// escaped, and replaced by `#` if its scheme is forbidden.
    static func href(_ url: String) -> String {
        "href=\"" + escape(isSafeURL(url) ? url : "#") + "\""
    }

    /// An attribute `name="value"`, escaped.
    static func attribute(_ name: String, _ value: String) -> String {
        name + "=\"" + escape(value) + "\""
    }
}

/// A page being built: its UTF-8 bytes, appended in place. One buffer is reused for every page
/// a rendering thread makes, so building a page allocates (almost) nothing.
///
/// `raw` appends markup the renderer wrote itself or cmark rendered; `text` escapes.
struct HTMLBuffer {
    var bytes: [UInt8] = []

    init(capacity: Int = 1 << 16) { bytes.reserveCapacity(capacity) }

    mutating func reset() { bytes.removeAll(keepingCapacity: true) }

    var count: Int { bytes.count }

    /// Markup written in the source.
    @inline(__always)
    mutating func raw(_ markup: StaticString) {
        markup.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Markup made by the site (paths, cmark's HTML, escaped fragments).
    @inline(__always)
    mutating func raw(_ markup: String) {
        if markup.utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil {
            bytes.append(contentsOf: markup.utf8)
        }
    }

    @inline(__always)
    mutating func raw(_ markup: [UInt8]) { bytes.append(contentsOf: markup) }

    @inline(__always)
    mutating func raw(_ markup: ArraySlice<UInt8>) { bytes.append(contentsOf: markup) }

    @inline(__always)
    mutating func raw(_ markup: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: markup) }

    /// Plain text, escaped.
    @inline(__always)
    mutating func text(_ text: String) { HTML.escape(text, into: &bytes) }

    /// A decimal number.
    mutating func number(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { raw in
            repeat {
                raw[19 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[(20 - count)...]))
        }
    }

    /// ` name="value"` (note the leading space), the value escaped.
    @inline(__always)
    mutating func attribute(_ name: StaticString, _ value: String) {
        bytes.append(UInt8(ascii: " "))
        raw(name)
        raw("=\"")
        text(value)
        bytes.append(UInt8(ascii: "\""))
    }

    /// ` href="…"` for a URL the site builds: escaped, `#` if its scheme is forbidden.
    mutating func href(_ url: String) {
        raw(" href=\"")
        text(HTML.isSafeURL(url) ? url : "#")
        bytes.append(UInt8(ascii: "\""))
    }

    /// ` href="<prefix><path>"` for a link between pages of the site: `prefix` is `../`
    /// repeated, `path` a page path from `SitePaths` (neither can hold a scheme).
    @inline(__always)
    mutating func link(_ prefix: String, _ path: String, fragment: String? = nil) {
        raw(" href=\"")
        raw(prefix)
        text(path)
        if let fragment {
            bytes.append(UInt8(ascii: "#"))
            text(fragment)
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// ` href="<prefix>tags/<slug>/index.html"`: `SitePaths.tag` written in place.
    mutating func tagLink(_ prefix: String, _ tag: String) {
        raw(" href=\"")
        raw(prefix)
        raw("tags/")
        if SitePaths.isPlainTag(tag) {
            raw(tag) // [a-z0-9._-] only
        } else {
            bytes.append(UInt8(ascii: "_"))
            hex(SitePaths.hash(tag))
        }
        raw("/index.html\"")
    }

    /// 16 lower-case hex digits.
    mutating func hex(_ value: UInt64) {
        let digits: StaticString = "0123456789abcdef"
        digits.withUTF8Buffer { digits in
            for shift in stride(from: 60, through: 0, by: -4) { bytes.append(digits[Int((value >> UInt64(shift)) & 0xF)]) }
        }
    }

    /// cmark's HTML of a block, with code blocks made into the site's (`CodeBlockHTML`: a head
    /// with the language's label, coloured code, a keyboard-scrollable `<pre>`). Copied as it is
    /// otherwise.
    mutating func block(_ html: String) {
        if html.utf8.withContiguousStorageIfAvailable({ block($0) }) == nil {
            var copy = html
            copy.withUTF8 { block($0) }
        }
    }

    private static let preCode: StaticString = "<pre><code"

    /// `block` on bytes.
    mutating func block(_ h: UnsafeBufferPointer<UInt8>) {
        Self.preCode.withUTF8Buffer { needle in
            var at = 0
            while let offset = ByteText.find(h, needle, from: at) {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: h[at..<offset]))
                if let end = CodeBlockHTML.write(h, at: offset, into: &self) {
                    at = end
                } else {
                    raw("<pre tabindex=\"0\"><code")
                    at = offset + needle.count
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: h[at...]))
        }
    }
}

/// Byte-level text helpers for the page renderers: plain UTF-8 comparisons (no locale or
/// Unicode equivalence rules), much faster than Foundation's `range(of:)` on Linux.
enum ByteText {
    /// Whether `needle`'s UTF-8 bytes occur in `haystack`'s.
    static func contains(_ haystack: String, _ needle: String) -> Bool {
        var haystack = haystack, needle = needle
        return haystack.withUTF8 { h in
            needle.withUTF8 { n in
                if n.isEmpty { return true }
                if n.count > h.count { return false }
                return find(h, n, from: 0) != nil
            }
        }
    }

    /// The offset of the first occurrence of `n` in `h` at or after `start`.
    static func find(_ h: UnsafeBufferPointer<UInt8>, _ n: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard !n.isEmpty else { return start }
        guard start + n.count <= h.count else { return nil }
        let first = Int32(n[0])
        var at = start
        while at + n.count <= h.count {
            guard let hit = memchr(h.baseAddress! + at, first, h.count - n.count + 1 - at) else { return nil }
            let offset = h.baseAddress!.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if memcmp(h.baseAddress! + offset, n.baseAddress!, n.count) == 0 { return offset }
            at = offset + 1
        }
        return nil
    }

    /// Whether lower-casing `text` can change nothing but ASCII letters, and nothing lower-cases
    /// to its other characters: ASCII, U+0080–U+00BF and the caseless three-byte scalars (not the
    /// full-width letters). Comparing such texts with ASCII letters folded is comparing them
    /// lower-cased.
    static func foldsLikeASCII(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var i = 0
            let n = bytes.count
            while i < n {
                let b = bytes[i]
                if b < 0x80 { i += 1; continue }
                if b == 0xC2 && i + 1 < n { i += 2; continue }
                // Lead bytes of U+3000–U+9FFF (CJK punctuation, kana, Han) and U+B000–U+CFFF (Hangul).
                if (b >= 0xE3 && b <= 0xE9 || b == 0xEB || b == 0xEC) && i + 2 < n { i += 3; continue }
                guard b >= 0xE2 && b <= 0xEF && i + 2 < n else { return false }
                let scalar = (UInt32(b & 0x0F) << 12) | (UInt32(bytes[i + 1] & 0x3F) << 6) | UInt32(bytes[i + 2] & 0x3F)
                guard caseless(scalar) && !(scalar >= 0xFF41 && scalar <= 0xFF5A) else { return false }
                i += 3
            }
            return true
        }
    }

    /// Whether `haystack` with ASCII letters folded to lower case contains `needle` (lower case).
    /// Candidates are found with `memchr` on a byte of the needle that folding leaves alone (a
    /// continuation byte when there is one: they vary most), then compared folded.
    static func containsFolded(_ haystack: String, _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        var haystack = haystack
        return haystack.withUTF8 { h in
            needle.withUnsafeBufferPointer { n in
                let count = n.count
                guard count <= h.count, let base = h.baseAddress else { return false }
                func matches(at start: Int) -> Bool {
                    var k = 0
                    while k < count {
                        var c = h[start + k]
                        if c >= 0x41 && c <= 0x5A { c |= 0x20 }
                        if c != n[k] { return false }
                        k += 1
                    }
                    return true
                }
                let anchor = n.firstIndex(where: UTF8Scan.isContinuation)
                    ?? n.firstIndex(where: { !($0 >= 0x61 && $0 <= 0x7A) })
                guard let k = anchor else {
                    // Only ASCII letters: every position whose first byte folds to the needle's.
                    let first = n[0], firstUpper = first & ~0x20
                    for at in 0...(h.count - count) where h[at] == first || h[at] == firstUpper {
                        if matches(at: at) { return true }
                    }
                    return false
                }
                let byte = Int32(n[k])
                let last = h.count - count + k // the anchor's last possible offset
                var at = k
                while at <= last {
                    guard let hit = memchr(base + at, byte, last - at + 1) else { return false }
                    let offset = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    if matches(at: offset - k) { return true }
                    at = offset + 1
                }
                return false
            }
        }
    }

    /// Three-byte scalars without case mappings: punctuation, symbols, arrows, box drawing,
    /// CJK punctuation, kana, Han, Yi, Hangul syllables, full-width forms other than A–Z.
    @inline(__always)
    static func caseless(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x2000..<0x2100, 0x2190..<0x2460, 0x2500..<0x2C00, 0x3000..<0xA640, 0xAC00..<0xD800,
             0xFF00..<0xFF21, 0xFF3B..<0xFFF0: return true
        default: return false
        }
    }

    /// Negative, 0 or positive as `a`'s UTF-8 bytes sort before, with or after `b`'s (the order
    /// of Unicode scalar values).
    static func compare(_ a: String, _ b: String) -> Int {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                let common = min(x.count, y.count)
                if common > 0 {
                    let order = memcmp(x.baseAddress!, y.baseAddress!, common)
                    if order != 0 { return Int(order) }
                }
                return x.count - y.count
            }
        }
    }

    /// `text` lower-cased as `String.lowercased()` would, quickly for ASCII and for the scripts
    /// and symbols without case that CJK text is written in; anything else goes to `lowercased()`.
    static func lowercased(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes -> String in
            var out = [UInt8]()
            out.reserveCapacity(bytes.count)
            var i = 0
            let n = bytes.count
            while i < n {
                let b = bytes[i]
                if b < 0x80 {
                    out.append(b >= 0x41 && b <= 0x5A ? b | 0x20 : b)
                    i += 1
                    continue
                }
                if b == 0xC2 && i + 1 < n { // U+0080–U+00BF: no case
                    out.append(b); out.append(bytes[i + 1])
                    i += 2
                    continue
                }
                if b >= 0xE2 && b <= 0xEF && i + 2 < n {
                    let scalar = (UInt32(b & 0x0F) << 12) | (UInt32(bytes[i + 1] & 0x3F) << 6) | UInt32(bytes[i + 2] & 0x3F)
                    if caseless(scalar) {
                        out.append(b); out.append(bytes[i + 1]); out.append(bytes[i + 2])
                        i += 3
                        continue
                    }
                    if scalar >= 0xFF21 && scalar <= 0xFF3A { // full-width A–Z → a–z
                        let lower = scalar + 0x20
                        out.append(0xEF); out.append(0x80 | UInt8((lower >> 6) & 0x3F)); out.append(0x80 | UInt8(lower & 0x3F))
                        i += 3
                        continue
                    }
                }
                return String(decoding: bytes, as: UTF8.self).lowercased()
            }
            return String(decoding: out, as: UTF8.self)
        }
    }
}
