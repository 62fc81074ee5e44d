/// A 1-based position in a source file. Columns count Unicode scalars, so a
/// column in Chinese, Korean or Japanese text matches what an editor shows.
public struct SourceLocation: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    public var description: String { "\(line):\(column)" }
}

/// An inclusive range of source positions.
public struct SourceRange: Hashable, Sendable, Codable, CustomStringConvertible {
    public var start: SourceLocation
    public var end: SourceLocation

    public init(start: SourceLocation, end: SourceLocation) {
        self.start = start
        self.end = end
    }

    public var description: String { "\(start)-\(end)" }
}
