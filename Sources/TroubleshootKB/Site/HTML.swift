#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one escaping helper of the site: every piece of text that goes into HTML or XML —
/// element content and attribute values alike — passes through `HTML.escape`.
/// Pre-rendered HTML comes only from cmark (`MarkdownNode.html`), which is safe unless
/// `--unsafe-html` is given.
enum HTML {
    /// Escapes `& < > " '` for element content and double- or single-quoted attribute values,
    /// in HTML and in XML. Control characters XML 1.0 forbids are dropped.
    static func escape(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes -> String in
            // Most text needs nothing: return it as it is.
            var clean = true
            for b in bytes where b < 0x20 || b == 0x26 || b == 0x3C || b == 0x3E || b == 0x22 || b == 0x27 || b == 0x7F || b == 0xC2 || b == 0xEF {
                if b == 0x09 || b == 0x0A || b == 0x0D { continue }
                clean = false
                break
            }
            if clean { return String(decoding: bytes, as: UTF8.self) }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + 32)
            let n = bytes.count
            var i = 0
            while i < n {
                let b = bytes[i]
                switch b {
                case 0x26: out.append(contentsOf: [0x26, 0x61, 0x6D, 0x70, 0x3B]) // &amp;
                case 0x3C: out.append(contentsOf: [0x26, 0x6C, 0x74, 0x3B]) // &lt;
                case 0x3E: out.append(contentsOf: [0x26, 0x67, 0x74, 0x3B]) // &gt;
                case 0x22: out.append(contentsOf: [0x26, 0x71, 0x75, 0x6F, 0x74, 0x3B]) // &quot;
                case 0x27: out.append(contentsOf: [0x26, 0x23, 0x33, 0x39, 0x3B]) // &#39;
                case 0x09, 0x0A, 0x0D: out.append(b)
                // C0 controls (except tab and newlines), DEL..C1 controls (U+0080–U+009F: C2 80–C2 9F)
                // and the non-characters U+FFFE/U+FFFF (EF BF BE/BF) are invalid in XML and useless in HTML.
                case 0..<0x20, 0x7F: break
                case 0xC2 where i + 1 < n && bytes[i + 1] >= 0x80 && bytes[i + 1] <= 0x9F: i += 1
                case 0xEF where i + 2 < n && bytes[i + 1] == 0xBF && (bytes[i + 2] == 0xBE || bytes[i + 2] == 0xBF): i += 2
                default: out.append(b)
                }
                i += 1
            }
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// Schemes never emitted in a link the site builds itself.
    static let forbiddenSchemes = ["javascript", "vbscript", "data"]

    /// Whether `url` is safe to put in an `href`/`src` the site builds: no `javascript:`,
    /// `vbscript:` or `data:` scheme, however it is spelled (case, leading spaces, control
    /// characters or tabs inside the scheme are ignored the way browsers ignore them).
    static func isSafeURL(_ url: String) -> Bool {
        var scheme = ""
        for scalar in url.unicodeScalars {
            if scalar.value <= 0x20 { continue } // browsers strip leading spaces and remove tabs/newlines
            if scalar == ":" { break }
            if scalar == "/" || scalar == "?" || scalar == "#" { return true } // a path before any colon: relative
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

    /// `text` with every occurrence of `target` replaced by `replacement` (UTF-8 bytes, left to right).
    static func replacing(_ text: String, _ target: String, with replacement: String) -> String {
        var text = text, target = target, replacement = replacement
        return text.withUTF8 { h in
            target.withUTF8 { t in
                replacement.withUTF8 { r in
                    guard !t.isEmpty, h.count >= t.count else { return String(decoding: h, as: UTF8.self) }
                    var out: [UInt8] = []
                    var at = 0
                    while let offset = find(h, t, from: at) {
                        if out.isEmpty { out.reserveCapacity(h.count + 64) }
                        out.append(contentsOf: UnsafeBufferPointer(rebasing: h[at..<offset]))
                        out.append(contentsOf: r)
                        at = offset + t.count
                    }
                    if at == 0 { return String(decoding: h, as: UTF8.self) }
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: h[at...]))
                    return String(decoding: out, as: UTF8.self)
                }
            }
        }
    }
}
