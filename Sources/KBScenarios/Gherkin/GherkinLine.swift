import KBCore
/// One source line as Unicode scalars, with the measurements the token matcher
/// needs. Indentation and columns count scalars.
struct GherkinLine: Sendable {
    let number: Int
    let scalars: [Unicode.Scalar]
    /// Leading whitespace, in scalars.
    let indent: Int

    init(_ text: Substring, number: Int) {
        self.number = number
        self.scalars = Array(text.unicodeScalars)
        self.indent = scalars.firstIndex { !GherkinLine.isWhitespace($0) } ?? scalars.count
    }

    /// Whitespace as cucumber's reference implementation trims it (JavaScript's `\s`).
    static func isWhitespace(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x09...0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
            return true
        default:
            return false
        }
    }

    /// Table cells are trimmed of a narrower set, which keeps decoded `\n`.
    static func isCellPadding(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x09, 0x0B, 0x0C, 0x0D, 0x20, 0x85, 0xA0: return true
        default: return false
        }
    }

    var trimmed: ArraySlice<Unicode.Scalar> { scalars[indent...] }
    var isEmpty: Bool { indent == scalars.count }

    func startsWith(_ prefix: [Unicode.Scalar]) -> Bool {
        trimmed.starts(with: prefix)
    }

    /// The text after the first `length` scalars of the trimmed line, trimmed.
    func restTrimmed(after length: Int) -> String {
        let rest = trimmed.dropFirst(length)
        return GherkinLine.string(GherkinLine.trim(rest, GherkinLine.isWhitespace))
    }

    /// The line with `indentToRemove` leading scalars removed, or the trimmed
    /// line when it is indented less than that.
    func text(removingIndent indentToRemove: Int) -> String {
        if indentToRemove < 0 || indentToRemove > indent {
            return GherkinLine.string(trimmed)
        }
        return GherkinLine.string(scalars[indentToRemove...])
    }

    /// The whole line, trimmed on both sides: how an unexpected line is quoted in errors.
    var trimmedText: String { GherkinLine.string(GherkinLine.trim(trimmed, GherkinLine.isWhitespace)) }

    /// Cells of a `|` table row: content before the first `|` and after the last
    /// one is ignored; `\|`, `\\` and `\n` are decoded; cells are trimmed.
    func tableCells() -> [(column: Int, text: String)] {
        let line = Array(trimmed)
        var cells: [(column: Int, text: String)] = []
        var cell: [Unicode.Scalar] = []
        var index = 0
        var startColumn = 1
        var seenFirstPipe = false
        while index < line.count {
            let c = line[index]
            index += 1
            if c == "|" {
                if seenFirstPipe {
                    let leading = cell.prefix { GherkinLine.isCellPadding($0) }.count
                    let value = GherkinLine.trim(cell[...], GherkinLine.isCellPadding)
                    cells.append((column: indent + startColumn + leading, text: GherkinLine.string(value)))
                }
                seenFirstPipe = true
                cell.removeAll()
                startColumn = index + 1
            } else if c == "\\" {
                guard index < line.count else {
                    cell.append(c)
                    continue
                }
                let next = line[index]
                index += 1
                switch next {
                case "n": cell.append("\n")
                case "|", "\\": cell.append(next)
                default: cell.append(c); cell.append(next)
                }
            } else {
                cell.append(c)
            }
        }
        return cells
    }

    /// Tags of a tag line, up to a ` #` comment. Throws for a tag containing whitespace.
    func tags() throws(GherkinError) -> [(column: Int, text: String)] {
        var text = Array(trimmed)
        // A comment starts at whitespace followed by `#`.
        if let hash = text.indices.dropFirst().first(where: { text[$0] == "#" && GherkinLine.isWhitespace(text[$0 - 1]) }) {
            text = Array(text[..<(hash - 1)])
        }
        var tags: [(column: Int, text: String)] = []
        var column = indent + 1
        for item in text.split(separator: "@", omittingEmptySubsequences: false) {
            var name = item
            while let last = name.last, GherkinLine.isWhitespace(last) { name = name.dropLast() }
            if name.isEmpty { continue }
            if name.contains(where: GherkinLine.isWhitespace) {
                throw GherkinError(line: number, column: column, reason: "A tag may not contain whitespace")
            }
            tags.append((column: column, text: "@" + GherkinLine.string(name)))
            column += item.count + 1
        }
        return tags
    }

    static func trim(_ s: ArraySlice<Unicode.Scalar>, _ isSpace: (Unicode.Scalar) -> Bool) -> ArraySlice<Unicode.Scalar> {
        var slice = s
        while let first = slice.first, isSpace(first) { slice = slice.dropFirst() }
        while let last = slice.last, isSpace(last) { slice = slice.dropLast() }
        return slice
    }

    static func string<S: Sequence>(_ scalars: S) -> String where S.Element == Unicode.Scalar {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }
}
