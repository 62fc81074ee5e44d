import KBCore
/// Splits a source into lines (LF or CRLF) and hands them out in order,
/// followed by an end-of-file token on the line after the last one. A trailing
/// blank line (the file's final newline) is not a line of its own.
struct GherkinTokenScanner: Sendable {
    private let lines: [GherkinLine]

    init(source: String) {
        // Split on scalars: as a Character, "\r\n" is one grapheme and would not match "\n".
        var raw: [Substring] = []
        let scalars = source.unicodeScalars
        var start = scalars.startIndex
        var index = start
        while index < scalars.endIndex {
            if scalars[index] == "\n" {
                var end = index
                if end > start, scalars[scalars.index(before: end)] == "\r" { end = scalars.index(before: end) }
                raw.append(Substring(scalars[start..<end]))
                start = scalars.index(after: index)
            }
            index = scalars.index(after: index)
        }
        raw.append(Substring(scalars[start..<scalars.endIndex]))

        var lines = raw.enumerated().map { GherkinLine($0.element, number: $0.offset + 1) }
        if let last = lines.last, last.isEmpty { lines.removeLast() }
        self.lines = lines
    }

    var count: Int { lines.count }

    /// The token for a 1-based line number; past the last line, the end of file.
    func token(at lineNumber: Int) -> GherkinToken {
        lineNumber <= lines.count
            ? GherkinToken(line: lines[lineNumber - 1], lineNumber: lineNumber)
            : GherkinToken(line: nil, lineNumber: lineNumber)
    }
}
