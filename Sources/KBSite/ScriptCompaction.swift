import KBCore
import KBSearch
import KBScenarios
/// The site's scripts as the browser gets them: the same code without whole-line comments,
/// comment blocks and indentation, which the readable sources in `site/` carry and every visitor
/// would otherwise download (the search scripts are loaded with a page's first query).
///
/// Line by line, never inside a line: line breaks stay where they were (so automatic semicolon
/// insertion sees the same code), a comment after code on its line stays, and a script in which
/// a line could continue a string or template literal (a backtick, or a line ending in a
/// backslash, outside the comments taken out), where a comment opens after code, or that has
/// carriage returns is returned as it is. The work is on the UTF-8 bytes (every mark it looks
/// for is ASCII).
enum ScriptCompaction {
    static func compact(_ source: String) -> String {
        let bytes = Array(source.utf8)
        guard let kept = compact(bytes) else { return source }
        return String(decoding: kept, as: UTF8.self)
    }

    /// The compacted bytes, or nil when the script is to be kept as it is.
    static func compact(_ bytes: [UInt8]) -> [UInt8]? {
        let space: UInt8 = 0x20, tab: UInt8 = 0x09, slash: UInt8 = 0x2F, star: UInt8 = 0x2A
        if bytes.contains(0x0D) { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var first = true
        var inBlock = false
        return bytes.withUnsafeBufferPointer { b -> [UInt8]? in
            let n = b.count
            /// The index after `*/` at or after `from` and before `end`, or nil.
            func closing(_ from: Int, _ end: Int) -> Int? {
                var k = from
                while k + 1 < end {
                    if b[k] == star && b[k + 1] == slash { return k + 2 }
                    k += 1
                }
                return nil
            }
            func skipBlanks(_ from: Int, _ end: Int) -> Int {
                var k = from
                while k < end && (b[k] == space || b[k] == tab) { k += 1 }
                return k
            }
            var lineStart = 0
            while lineStart <= n {
                var lineEnd = lineStart
                while lineEnd < n && b[lineEnd] != 0x0A { lineEnd += 1 }
                defer { lineStart = lineEnd + 1 }
                var s = skipBlanks(lineStart, lineEnd)
                if inBlock {
                    guard let end = closing(s, lineEnd) else { continue }
                    inBlock = false
                    s = skipBlanks(end, lineEnd)
                }
                if lineEnd - s >= 2 && b[s] == slash && b[s + 1] == star {
                    if let end = closing(s + 2, lineEnd) {
                        s = skipBlanks(end, lineEnd)
                    } else {
                        inBlock = true
                        continue
                    }
                }
                if s == lineEnd || (lineEnd - s >= 2 && b[s] == slash && b[s + 1] == slash) { continue }
                // A backtick or a trailing backslash could start or continue a literal over lines, and
                // a comment opened after code could hide a line that only looks like a comment's start.
                if b[lineEnd - 1] == 0x5C { return nil }
                var k = s
                while k < lineEnd {
                    if b[k] == 0x60 || (b[k] == slash && k + 1 < lineEnd && b[k + 1] == star) { return nil }
                    k += 1
                }
                if !first { out.append(0x0A) }
                first = false
                out.append(contentsOf: UnsafeBufferPointer(rebasing: b[s..<lineEnd]))
            }
            if inBlock { return nil }
            if n > 0 && b[n - 1] == 0x0A { out.append(0x0A) }
            return out
        }
    }
}
