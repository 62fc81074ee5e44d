/// The site's scripts as the browser gets them: the same code without whole-line comments,
/// comment blocks and indentation, which the readable sources in `site/` carry and every visitor
/// would otherwise download (the search scripts are loaded with a page's first query).
///
/// Line by line, never inside a line: line breaks stay where they were (so automatic semicolon
/// insertion sees the same code), a comment after code on its line stays, and a script in which
/// a line could continue a string or template literal (a backtick, or a line ending in a
/// backslash, outside the comments taken out) or where a comment opens after code is returned
/// as it is.
enum ScriptCompaction {
    static func compact(_ source: String) -> String {
        var kept: [Substring] = []
        var inBlock = false
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            var text = line.drop { $0 == " " || $0 == "\t" }
            if inBlock {
                guard let end = text.range(of: "*/") else { continue }
                inBlock = false
                text = text[end.upperBound...].drop { $0 == " " || $0 == "\t" }
            }
            if text.hasPrefix("/*") {
                if let end = text.range(of: "*/", range: text.index(text.startIndex, offsetBy: 2)..<text.endIndex) {
                    text = text[end.upperBound...].drop { $0 == " " || $0 == "\t" }
                } else {
                    inBlock = true
                    continue
                }
            }
            if text.hasPrefix("//") || text.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { continue }
            // A backtick or a trailing backslash could start or continue a literal over lines, and
            // a comment opened after code could hide a line that only looks like a comment's start.
            if text.contains("`") || text.hasSuffix("\\") || text.contains("/*") { return source }
            kept.append(text)
        }
        if inBlock { return source }
        return kept.joined(separator: "\n") + (source.hasSuffix("\n") ? "\n" : "")
    }
}
