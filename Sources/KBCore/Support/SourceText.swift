#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// UTF-8 source with a line index, used to turn byte offsets and byte columns
/// (what cmark and libyaml report) into scalar columns.
public struct SourceText: Sendable {
    public let bytes: [UInt8]
    /// Byte offset of the first byte of each line; `lineStarts[0] == 0`.
    public let lineStarts: [Int]

    public init(bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        starts.reserveCapacity(bytes.count / 40 + 1)
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count, let found = memchr(base + offset, 0x0A, buffer.count - offset) {
                offset = UnsafeRawPointer(found) - UnsafeRawPointer(base) + 1
                starts.append(offset)
            }
        }
        self.lineStarts = starts
    }

    /// The offset of the first `byte` in the text.
    func firstIndex(of byte: UInt8) -> Int? {
        bytes.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress, let found = memchr(base, Int32(byte), buffer.count) else { return nil }
            return UnsafeRawPointer(found) - UnsafeRawPointer(base)
        }
    }

    public init(_ string: String) {
        self.init(bytes: Array(string.utf8))
    }

    public var lineCount: Int { lineStarts.count }

    /// The bytes of a 1-based line, without its line terminator.
    public func lineBytes(_ line: Int) -> ArraySlice<UInt8> {
        guard line >= 1, line <= lineStarts.count else { return [] }
        let start = lineStarts[line - 1]
        var end = line < lineStarts.count ? lineStarts[line] - 1 : bytes.count
        if end > start, bytes[end - 1] == 0x0D { end -= 1 }
        return bytes[start..<max(start, end)]
    }

    public func lineString(_ line: Int) -> String {
        String(decoding: lineBytes(line), as: UTF8.self)
    }

    /// Converts a 1-based byte column on a 1-based line to a 1-based scalar column.
    public func scalarColumn(line: Int, byteColumn: Int) -> Int {
        var fromLineStart = ColumnCursor()
        return scalarColumn(line: line, byteColumn: byteColumn, cursor: &fromLineStart)
    }

    /// Where a column was last converted on a line, to count on from when the next column asked
    /// for on that line lies further right (`scalarColumn(line:byteColumn:cursor:)`).
    struct ColumnCursor {
        var line = 0, byteColumn = 0, scalarColumn = 0
    }

    /// `scalarColumn(line:byteColumn:)`, counting from `cursor` when it is on the same line and
    /// not past the column; `cursor` is then moved there. Walking a document's nodes in order
    /// asks for growing columns on each line, so most lines are counted once.
    func scalarColumn(line: Int, byteColumn: Int, cursor: inout ColumnCursor) -> Int {
        guard line >= 1, line <= lineStarts.count, byteColumn > 1 else { return max(byteColumn, 1) }
        let start = lineStarts[line - 1]
        let end = min(start + byteColumn - 1, bytes.count)
        var from = start, scalars = 1
        if cursor.line == line && cursor.byteColumn <= byteColumn && cursor.byteColumn > 1 {
            from = min(start + cursor.byteColumn - 1, bytes.count)
            scalars = cursor.scalarColumn
        }
        let column = bytes.withUnsafeBufferPointer { UTF8Scan.leadingByteCount($0, from: from, to: end) } + scalars
        cursor = ColumnCursor(line: line, byteColumn: byteColumn, scalarColumn: column)
        return column
    }

    /// The location of a byte offset in the text.
    public func location(ofByteOffset offset: Int) -> SourceLocation {
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        let line = low + 1
        return SourceLocation(line: line, column: scalarColumn(line: line, byteColumn: offset - lineStarts[low] + 1))
    }
}
