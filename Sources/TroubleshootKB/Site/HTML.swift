/// The one escaping helper of the site: every piece of text that goes into HTML or XML —
/// element content and attribute values alike — passes through `HTML.escape`.
/// Pre-rendered HTML comes only from cmark (`MarkdownNode.html`), which is safe unless
/// `--unsafe-html` is given.
enum HTML {
    /// Escapes `& < > " '` for element content and double- or single-quoted attribute values,
    /// in HTML and in XML. Control characters XML 1.0 forbids are dropped.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                // C0 controls (except tab and newlines), DEL..C1 controls and non-characters U+FFFE/U+FFFF
                // are invalid in XML and useless in HTML.
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    continue
                }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
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
