/// The `--base-url`: a path (`/kb/`) or an absolute `http(s)` URL, always ending in `/`.
package struct BaseURL: Sendable, Equatable {
    package let value: String
    /// Whether it was given on the command line (canonical links are written only then).
    package let isExplicit: Bool

    package static let root = BaseURL(value: "/", isExplicit: false)

    init(value: String, isExplicit: Bool) {
        self.value = value
        self.isExplicit = isExplicit
    }

    /// Validates and normalises a `--base-url` value; nil when it is neither a path starting
    /// with `/` nor an `http://` or `https://` URL, or contains spaces, quotes or angle brackets.
    package init?(parsing text: String) {
        var text = text
        let lower = text.lowercased()
        guard text.hasPrefix("/") || lower.hasPrefix("https://") || lower.hasPrefix("http://") else { return nil }
        guard !text.hasPrefix("//") else { return nil }
        for scalar in text.unicodeScalars where scalar.value <= 0x20 || "\"'<>\\`".unicodeScalars.contains(scalar) || scalar.value == 0x7F {
            return nil
        }
        guard !text.contains("?") && !text.contains("#") else { return nil }
        if !text.hasSuffix("/") { text += "/" }
        self.init(value: text, isExplicit: true)
    }

    /// The absolute URL of a page: base + its path.
    package func url(_ path: String) -> String { value + path }
}
