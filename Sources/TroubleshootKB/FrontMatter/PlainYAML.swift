/// Reads the few shapes front matter is almost always written in straight from the bytes, into
/// the same `YAMLNode` values and locations libyaml gives for them:
///
///     key: plain value
///     key: "double-quoted value"
///     key: [plain, "double-quoted", …]
///     key:
///       - plain or "double-quoted"
///
/// one key per line at the start of the line (letters, digits, `_`, `-`), every value on one
/// line. Anything else — comments, blank lines, escapes, single quotes, anchors, tags, tabs,
/// carriage returns, multi-line or nested values, indicators where a value starts, control
/// characters, bytes that are not UTF-8 — returns nil, and `YAMLReader` reads the text with libyaml, which also reports
/// every error. The fuzz target of the front matter checks both readers agree.
enum PlainYAML {
    /// Keys longer than this are left to libyaml (which limits simple keys to 1024 characters).
    static let maximumKeyLength = 128

    /// The mapping in `bytes`, or nil when the text is not one of the shapes above.
    /// `lineOffset` is added to the 0-based line of every node, like `YAMLReader`'s.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, lineOffset: Int) -> YAMLNode? {
        // Text that is not UTF-8 is libyaml's to report.
        guard UTF8Scan.isValid(bytes) else { return nil }
        var reader = Reader(bytes: bytes, lineOffset: lineOffset)
        return reader.readMapping()
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        let lineOffset: Int
        /// Start of the current line and its 0-based number.
        var lineStart = 0
        var line = 0
        var nodes = 0

        init(bytes: UnsafeBufferPointer<UInt8>, lineOffset: Int) {
            self.bytes = bytes
            self.lineOffset = lineOffset
        }

        /// The offset of the newline ending the line that starts at `start`.
        func lineEnd(from start: Int) -> Int? {
            var i = start
            while i < bytes.count {
                if bytes[i] == 0x0A { return i }
                i += 1
            }
            return nil
        }

        /// libyaml's position of `offset` on the current line: columns count characters.
        func location(_ offset: Int) -> SourceLocation {
            SourceLocation(line: line + 1 + lineOffset, column: UTF8Scan.scalarCount(bytes, from: lineStart, to: offset) + 1)
        }

        /// `bytes[start..<end]` as a string (`read` checked the UTF-8 of all the bytes; every
        /// slice taken starts and ends at an ASCII byte or the end of a line).
        func string(_ start: Int, _ end: Int) -> String {
            UTF8Scan.uncheckedString(UnsafeBufferPointer(rebasing: bytes[start..<end]))
        }

        /// A plain scalar's node: empty, `~` and `null` in its spellings are null, as in `YAMLReader`.
        func plain(_ start: Int, _ end: Int) -> YAMLNode {
            let text = string(start, end)
            let isNull = text.isEmpty || text == "~" || text == "null" || text == "Null" || text == "NULL"
            return YAMLNode(value: isNull ? .null : .scalar(text, plain: true), location: location(start))
        }

        static func isKeyByte(_ b: UInt8) -> Bool {
            (b | 0x20) &- 0x61 < 26 || b &- 0x30 < 10 || b == 0x5F || b == 0x2D
        }

        /// Characters libyaml reads as ordinary text everywhere: printable ASCII but the tab, and
        /// printable non-ASCII but the next line (U+0085), line and paragraph separators and the
        /// byte order mark.
        func isOrdinary(_ start: Int, _ end: Int) -> Bool {
            var i = start
            while i < end {
                let b = bytes[i]
                if b < 0x80 {
                    guard b >= 0x20 && b != 0x7F else { return false }
                    i += 1
                    continue
                }
                let (value, length) = UTF8Scan.decode(bytes, i)
                switch value {
                case 0xA0...0x2027, 0x202A...0xD7FF, 0xE000...0xFEFE, 0xFF00...0xFFFD, 0x10000...0x10FFFF: break
                default: return false
                }
                i += length
            }
            return true
        }

        /// Whether a plain scalar may start with `b`: not a space and not an indicator
        /// (`-?:,[]{}#&*!|>'"%@` and the backquote).
        static func startsPlain(_ b: UInt8) -> Bool {
            switch b {
            case 0x20, 0x2D, 0x3F, 0x3A, 0x2C, 0x5B, 0x5D, 0x7B, 0x7D, 0x23, 0x26, 0x2A, 0x21, 0x7C, 0x3E, 0x27, 0x22, 0x25, 0x40, 0x60:
                return false
            default:
                return true
            }
        }

        /// A plain scalar filling `start..<end` in block context: no comment sign, no `: `, no
        /// colon at the end, no trailing space.
        func isBlockPlain(_ start: Int, _ end: Int) -> Bool {
            guard end > start, Self.startsPlain(bytes[start]), bytes[end - 1] != 0x20 else { return false }
            var i = start
            while i < end {
                let b = bytes[i]
                if b == 0x23 { return false }
                if b == 0x3A && (i + 1 == end || bytes[i + 1] == 0x20) { return false }
                i += 1
            }
            return isOrdinary(start, end)
        }

        /// A double-quoted scalar starting at `start` and ending before `limit`: its closing
        /// quote's offset, or nil when it has an escape or does not close.
        func closingQuote(from start: Int, limit: Int) -> Int? {
            var i = start + 1
            while i < limit {
                switch bytes[i] {
                case 0x22: return isOrdinary(start + 1, i) ? i : nil
                case 0x5C: return nil
                default: i += 1
                }
            }
            return nil
        }

        /// A scalar on its own (a mapping value or a block list item) filling `start..<end`.
        func scalar(_ start: Int, _ end: Int) -> YAMLNode? {
            if bytes[start] == 0x22 {
                guard let close = closingQuote(from: start, limit: end), close == end - 1 else { return nil }
                return YAMLNode(value: .scalar(string(start + 1, close), plain: false), location: location(start))
            }
            guard isBlockPlain(start, end) else { return nil }
            return plain(start, end)
        }

        /// `[a, "b", …]` filling `start..<end`.
        mutating func flowSequence(_ start: Int, _ end: Int) -> YAMLNode? {
            guard bytes[end - 1] == 0x5D else { return nil }
            var items: [YAMLNode] = []
            var i = start + 1
            func skipSpaces() { while i < end && bytes[i] == 0x20 { i += 1 } }
            skipSpaces()
            if bytes[i] == 0x5D {
                guard i == end - 1 else { return nil }
                return YAMLNode(value: .sequence([]), location: location(start))
            }
            while true {
                skipSpaces()
                guard i < end else { return nil }
                if bytes[i] == 0x22 {
                    guard let close = closingQuote(from: i, limit: end) else { return nil }
                    items.append(YAMLNode(value: .scalar(string(i + 1, close), plain: false), location: location(i)))
                    i = close + 1
                } else {
                    // A plain item: up to the comma or bracket, without flow indicators, colons,
                    // quotes or comment signs; trailing spaces are not part of it.
                    guard Self.startsPlain(bytes[i]) else { return nil }
                    let itemStart = i
                    while i < end, bytes[i] != 0x2C, bytes[i] != 0x5D {
                        switch bytes[i] {
                        case 0x5B, 0x7B, 0x7D, 0x3A, 0x23, 0x22, 0x27: return nil
                        default: i += 1
                        }
                    }
                    var itemEnd = i
                    while itemEnd > itemStart && bytes[itemEnd - 1] == 0x20 { itemEnd -= 1 }
                    guard isOrdinary(itemStart, itemEnd) else { return nil }
                    items.append(plain(itemStart, itemEnd))
                }
                nodes += 1
                skipSpaces()
                guard i < end else { return nil }
                if bytes[i] == 0x5D {
                    guard i == end - 1 else { return nil }
                    return YAMLNode(value: .sequence(items), location: location(start))
                }
                guard bytes[i] == 0x2C else { return nil }
                i += 1
                skipSpaces()
                // A trailing comma (`[a, ]`) is left to libyaml.
                guard i < end, bytes[i] != 0x5D else { return nil }
            }
        }

        /// The mapping: one `key: value` (or `key:` and a block list) per line to the end.
        mutating func readMapping() -> YAMLNode? {
            guard !bytes.isEmpty, bytes[bytes.count - 1] == 0x0A else { return nil }
            var pairs: [(key: YAMLNode, value: YAMLNode)] = []
            pairs.reserveCapacity(16)
            while lineStart < bytes.count {
                guard let end = lineEnd(from: lineStart) else { return nil }
                var i = lineStart
                while i < end && Self.isKeyByte(bytes[i]) { i += 1 }
                guard i > lineStart, i - lineStart <= PlainYAML.maximumKeyLength, i < end, bytes[i] == 0x3A,
                      bytes[lineStart] != 0x2D else { return nil }
                let key = plain(lineStart, i)
                let value: YAMLNode
                if i + 1 == end {
                    // `key:` alone: a block list must follow.
                    guard let list = blockSequence(after: end) else { return nil }
                    value = list
                } else {
                    guard bytes[i + 1] == 0x20 else { return nil }
                    var start = i + 1
                    while start < end && bytes[start] == 0x20 { start += 1 }
                    guard start < end else { return nil }
                    if bytes[start] == 0x5B {
                        guard let list = flowSequence(start, end) else { return nil }
                        value = list
                    } else {
                        guard let scalar = scalar(start, end) else { return nil }
                        value = scalar
                    }
                    lineStart = end + 1
                    line += 1
                }
                pairs.append((key, value))
                nodes += 2
                guard nodes < YAMLReader.maximumNodes / 2 else { return nil }
            }
            guard let first = pairs.first else { return nil }
            return YAMLNode(value: .mapping(pairs), location: first.key.location)
        }

        /// The `- item` lines after `key:` (which ends at `keyLineEnd`), all indented alike;
        /// moves past them.
        mutating func blockSequence(after keyLineEnd: Int) -> YAMLNode? {
            lineStart = keyLineEnd + 1
            line += 1
            var items: [YAMLNode] = []
            var indent: Int? = nil
            var sequenceLocation: SourceLocation? = nil
            while lineStart < bytes.count {
                guard let end = lineEnd(from: lineStart) else { return nil }
                var i = lineStart
                while i < end && bytes[i] == 0x20 { i += 1 }
                if i == lineStart && i < end && Self.isKeyByte(bytes[i]) && bytes[i] != 0x2D { break }
                guard i + 1 < end, bytes[i] == 0x2D, bytes[i + 1] == 0x20 else { return nil }
                if let indent {
                    guard i - lineStart == indent else { return nil }
                } else {
                    indent = i - lineStart
                    sequenceLocation = location(i)
                }
                var start = i + 2
                while start < end && bytes[start] == 0x20 { start += 1 }
                guard start < end, let item = scalar(start, end) else { return nil }
                items.append(item)
                nodes += 1
                lineStart = end + 1
                line += 1
            }
            guard let sequenceLocation else { return nil }
            return YAMLNode(value: .sequence(items), location: sequenceLocation)
        }
    }
}
