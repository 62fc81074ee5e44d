#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Warns about `**`, `*` or `__` that cmark left as literal text because it touches CJK
/// punctuation on the inside with a CJK letter on the outside (CommonMark's flanking rules):
/// `**「强调」**した` does not render as bold.
enum CJKEmphasisRule {
    static func check(_ entry: Entry) -> [Diagnostic] {
        var out: [Diagnostic] = []
        // Only entries with a delimiter next to CJK punctuation can have the problem.
        guard mayContainPattern(entry.source.bytes) else { return [] }
        for block in entry.body.blocks {
            block.walk { node in
                switch node.kind {
                case .paragraph, .heading:
                    out += check(leaf: node, entry: entry)
                default:
                    break
                }
            }
        }
        return out
    }

    /// A fast byte-level pre-check: `*` or `_` directly next to a CJK punctuation mark
    /// (all of them are three-byte UTF-8 sequences starting with E3 or EF).
    static func mayContainPattern(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            let count = buffer.count
            func isLead(_ b: UInt8) -> Bool { b == 0xE3 || b == 0xEF || b == 0xE2 }
            // Each delimiter found with memchr (vectorised), then its neighbours checked.
            for delimiter: Int32 in [0x2A, 0x5F] {
                var i = 0
                while i < count, let found = memchr(base + i, delimiter, count - i) {
                    let k = UnsafeRawPointer(found) - UnsafeRawPointer(base)
                    if k + 1 < count, isLead(base[k + 1]) { return true }
                    if k >= 3, isLead(base[k - 3]) { return true }
                    i = k + 1
                }
            }
            return false
        }
    }

    /// Inline text of a leaf block where literal text is kept and every other inline is a
    /// placeholder, so delimiter runs left in text nodes can be examined with their neighbours.
    private static func inlineText(_ node: MarkdownNode, into out: inout [Unicode.Scalar]) {
        for child in node.children {
            switch child.kind {
            case .text: out += child.literal.unicodeScalars
            case .emphasis, .strong, .link: inlineText(child, into: &out)
            default: out.append("\u{FFFC}")
            }
        }
    }

    private static func check(leaf: MarkdownNode, entry: Entry) -> [Diagnostic] {
        var scalars: [Unicode.Scalar] = []
        inlineText(leaf, into: &scalars)
        guard scalars.contains("*") || scalars.contains("_") else { return [] }
        var out: [Diagnostic] = []
        var searchLine = leaf.range.start.line
        var searchColumn = 1
        var i = 0
        while i < scalars.count {
            let c = scalars[i]
            guard c == "*" || c == "_" else { i += 1; continue }
            var j = i
            while j < scalars.count && scalars[j] == c { j += 1 }
            let length = j - i
            defer { i = j }
            if c == "_" && length != 2 { continue }
            guard i > 0, j < scalars.count else { continue }
            let before = scalars[i - 1], after = scalars[j]
            let closeFails = CJKCharacter.isPunctuation(before) && CJKCharacter.isLetter(after)
            let openFails = CJKCharacter.isLetter(before) && CJKCharacter.isPunctuation(after)
            guard closeFails || openFails else { continue }
            let run = String(repeating: String(c), count: length)
            let needle = String(before) + run + String(after)
            var location = leaf.range.start
            if let found = find(needle, in: entry.source, fromLine: searchLine, column: searchColumn, toLine: leaf.range.end.line) {
                location = SourceLocation(line: found.line, column: found.column + 1)
                searchLine = found.line
                searchColumn = found.column + 1
            }
            let side = closeFails ? "after '\(before)' cannot close before '\(after)'" : "before '\(after)' cannot open after '\(before)'"
            out.append(Diagnostic(path: entry.path, location: location, severity: .warning,
                                  message: "'\(run)' \(side), so it stays literal: CJK punctuation is inside the delimiters and a CJK letter outside; move the punctuation outside (「**强调**」) or use <strong>",
                                  rule: "cjk-emphasis"))
        }
        return out
    }

    private static func find(_ needle: String, in source: SourceText, fromLine: Int, column: Int, toLine: Int) -> SourceLocation? {
        guard fromLine <= toLine else { return nil }
        for line in fromLine...min(toLine, source.lineCount) {
            let text = Array(source.lineString(line).unicodeScalars)
            let pattern = Array(needle.unicodeScalars)
            let startColumn = line == fromLine ? column : 1
            guard text.count >= pattern.count else { continue }
            var start = max(0, startColumn - 1)
            while start + pattern.count <= text.count {
                if Array(text[start..<start + pattern.count]) == pattern {
                    return SourceLocation(line: line, column: start + 1)
                }
                start += 1
            }
        }
        return nil
    }
}
