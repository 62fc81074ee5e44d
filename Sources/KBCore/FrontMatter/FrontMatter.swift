/// The split of an entry file into YAML front matter and Markdown body.
public struct FrontMatterSplit: Sendable {
    /// Byte range of the YAML text (between the `---` lines).
    public let yaml: Range<Int>
    /// 1-based file line of the first YAML line.
    public let yamlFirstLine: Int
    /// Byte range of the body.
    public let body: Range<Int>
    /// 1-based file line of the first body line.
    public let bodyFirstLine: Int

    /// Finds the front matter: the file starts with a `---` line (after an optional BOM)
    /// and it ends at the next `---` or `...` line. Returns nil when there is none.
    public static func split(_ source: SourceText) -> FrontMatterSplit? {
        let bytes = source.bytes
        var offset = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { offset = 3 }
        guard source.lineCount >= 2 else { return nil }
        func trimmed(_ line: Int) -> ArraySlice<UInt8> {
            var slice = source.lineBytes(line)
            if line == 1 { slice = slice.dropFirst(offset) }
            while let last = slice.last, last == 0x20 || last == 0x09 { slice = slice.dropLast() }
            return slice
        }
        guard trimmed(1).elementsEqual("---".utf8) else { return nil }
        for line in 2...source.lineCount {
            let text = trimmed(line)
            if text.elementsEqual("---".utf8) || text.elementsEqual("...".utf8) {
                let yamlStart = source.lineStarts[1]
                let yamlEnd = source.lineStarts[line - 1]
                let bodyStart = line < source.lineCount ? source.lineStarts[line] : bytes.count
                return FrontMatterSplit(yaml: yamlStart..<yamlEnd, yamlFirstLine: 2,
                                        body: bodyStart..<bytes.count, bodyFirstLine: line + 1)
            }
        }
        return nil
    }
}
