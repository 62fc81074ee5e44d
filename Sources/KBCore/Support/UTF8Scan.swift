/// Helpers for walking valid UTF-8 (the bytes of a Swift `String`) scalar by scalar without
/// decoding it into arrays: the parser's hot paths compare and slice bytes instead.
package enum UTF8Scan {
    /// `b` with ASCII upper-case letters lower-cased; every other byte (including all bytes of
    /// multi-byte sequences) unchanged.
    @inline(__always)
    package static func foldASCII(_ b: UInt8) -> UInt8 {
        b &- 0x41 < 26 ? b | 0x20 : b
    }

    /// Whether `b` continues a multi-byte sequence (`10xxxxxx`).
    @inline(__always)
    package static func isContinuation(_ b: UInt8) -> Bool { b & 0xC0 == 0x80 }

    /// The scalar starting at `i` and its length in bytes. `i` must be a scalar boundary of
    /// valid UTF-8 inside `buffer`.
    @inline(__always)
    static func decode(_ buffer: UnsafeBufferPointer<UInt8>, _ i: Int) -> (value: UInt32, length: Int) {
        let b0 = UInt32(buffer[i])
        if b0 < 0x80 { return (b0, 1) }
        if b0 < 0xE0 { return ((b0 & 0x1F) << 6 | UInt32(buffer[i + 1] & 0x3F), 2) }
        if b0 < 0xF0 {
            return ((b0 & 0x0F) << 12 | UInt32(buffer[i + 1] & 0x3F) << 6 | UInt32(buffer[i + 2] & 0x3F), 3)
        }
        return ((b0 & 0x07) << 18 | UInt32(buffer[i + 1] & 0x3F) << 12 | UInt32(buffer[i + 2] & 0x3F) << 6
                | UInt32(buffer[i + 3] & 0x3F), 4)
    }

    /// The scalar whose UTF-8 fills `buffer[start..<end]` exactly, or U+FFFD when those bytes
    /// are not one well-formed sequence (what repairing the bytes into a string would show).
    static func scalarOrReplacement(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Unicode.Scalar {
        guard end > start, end - start <= 4,
              isValid(UnsafeBufferPointer(rebasing: buffer[start..<end])) else { return "\u{FFFD}" }
        let (value, length) = decode(buffer, start)
        guard length == end - start, let scalar = Unicode.Scalar(value) else { return "\u{FFFD}" }
        return scalar
    }

    /// The first scalar of possibly ill-formed UTF-8, as a repairing decoder reads it (U+FFFD
    /// when the bytes do not start with a well-formed sequence); nil for no bytes.
    static func firstScalar(_ buffer: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar? {
        guard let b0 = buffer.first else { return nil }
        let length = b0 < 0x80 ? 1 : b0 < 0xE0 ? 2 : b0 < 0xF0 ? 3 : 4
        return scalarOrReplacement(buffer, from: 0, to: min(length, buffer.count))
    }

    /// The last scalar of possibly ill-formed UTF-8, as a repairing decoder reads it (U+FFFD
    /// when the bytes do not end with a well-formed sequence); nil for no bytes.
    static func lastScalar(_ buffer: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar? {
        guard !buffer.isEmpty else { return nil }
        // The last byte that does not continue a sequence, at most three bytes back.
        var start = buffer.count - 1
        while start > 0 && buffer.count - start < 4 && isContinuation(buffer[start]) { start -= 1 }
        return scalarOrReplacement(buffer, from: start, to: buffer.count)
    }

    /// The boundary of the scalar that ends at `i` (`i` > 0 must be a scalar boundary).
    @inline(__always)
    static func previousBoundary(_ buffer: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int {
        var j = i - 1
        while j > 0 && isContinuation(buffer[j]) { j -= 1 }
        return j
    }

    /// The number of scalars in `buffer[start..<end]` (both scalar boundaries).
    @inline(__always)
    static func scalarCount(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        leadingByteCount(buffer, from: start, to: end)
    }

    /// The bytes in `buffer[start..<end]` that do not continue a multi-byte sequence, counted
    /// eight at a time.
    static func leadingByteCount(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        guard let base = buffer.baseAddress, end > start else { return 0 }
        var continuations = 0
        var i = start
        let raw = UnsafeRawPointer(base)
        while end - i >= 8 {
            let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            // A continuation byte has bit 7 set and bit 6 clear; shifting left by one moves
            // each byte's bit 6 under its bit 7.
            continuations &+= (word & ~(word << 1) & 0x8080_8080_8080_8080).nonzeroBitCount
            i += 8
        }
        while i < end {
            if isContinuation(base[i]) { continuations &+= 1 }
            i += 1
        }
        return end - start - continuations
    }

    /// The boundary `count` scalars after `start`, or `end` when fewer remain.
    static func advance(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int, by count: Int, end: Int) -> Int {
        var i = start
        var left = count
        while left > 0 && i < end {
            i += 1
            while i < end && isContinuation(buffer[i]) { i += 1 }
            left -= 1
        }
        return i
    }

    /// Whether `buffer[at...]` starts with `word`, comparing the text ASCII-case-folded
    /// (`word` is already folded).
    @inline(__always)
    static func hasFoldedPrefix(_ buffer: UnsafeBufferPointer<UInt8>, at start: Int, end: Int, _ word: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = word.count
        guard end - start >= count else { return false }
        var k = 0
        while k < count {
            if foldASCII(buffer[start + k]) != word[k] { return false }
            k += 1
        }
        return true
    }

    /// Whether `buffer` is well-formed UTF-8 (what `String(validating:as:)` accepts: no
    /// overlong forms, surrogates or values above U+10FFFF). ASCII is skipped eight bytes at a
    /// time, and a sequence with room for four bytes after it is checked without bounds checks.
    static func isValid(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = buffer.baseAddress else { return true }
        let count = buffer.count
        let raw = UnsafeRawPointer(base)
        var i = 0
        while i < count {
            let b0 = base[i]
            if b0 < 0x80 {
                i += 1
                while count - i >= 8, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 { i += 8 }
                continue
            }
            guard count - i >= 4 else { return isValidTail(buffer, from: i) }
            let b1 = base[i + 1], b2 = base[i + 2]
            switch b0 {
            case 0xE1...0xEC, 0xEE...0xEF:
                guard (UInt16(b1) << 8 | UInt16(b2)) & 0xC0C0 == 0x8080 else { return false }
                i += 3
            case 0xC2...0xDF:
                guard isContinuation(b1) else { return false }
                i += 2
            case 0xE0:
                guard (0xA0...0xBF).contains(b1), isContinuation(b2) else { return false }
                i += 3
            case 0xED:
                guard (0x80...0x9F).contains(b1), isContinuation(b2) else { return false }
                i += 3
            case 0xF0...0xF4:
                guard isContinuation(b2), isContinuation(base[i + 3]) else { return false }
                switch b0 {
                case 0xF0: guard (0x90...0xBF).contains(b1) else { return false }
                case 0xF4: guard (0x80...0x8F).contains(b1) else { return false }
                default: guard isContinuation(b1) else { return false }
                }
                i += 4
            default:
                return false
            }
        }
        return true
    }

    /// `isValid` for the last (fewer than four) bytes, with bounds checks.
    private static func isValidTail(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        let count = buffer.count
        var i = start
        func byte(_ j: Int, in range: ClosedRange<UInt8>) -> Bool { j < count && range.contains(buffer[j]) }
        while i < count {
            let b0 = buffer[i]
            switch b0 {
            case 0x00...0x7F:
                i += 1
            case 0xC2...0xDF:
                guard byte(i + 1, in: 0x80...0xBF) else { return false }
                i += 2
            case 0xE0:
                guard byte(i + 1, in: 0xA0...0xBF), byte(i + 2, in: 0x80...0xBF) else { return false }
                i += 3
            case 0xE1...0xEC, 0xEE...0xEF:
                guard byte(i + 1, in: 0x80...0xBF), byte(i + 2, in: 0x80...0xBF) else { return false }
                i += 3
            case 0xED:
                guard byte(i + 1, in: 0x80...0x9F), byte(i + 2, in: 0x80...0xBF) else { return false }
                i += 3
            default:
                // Four-byte sequences do not fit in fewer than four bytes.
                return false
            }
        }
        return true
    }

    /// `buffer` as a string when it is well-formed UTF-8: checked once by `isValid`, then copied
    /// without the standard library checking it again. Nil for anything else.
    static func string(_ buffer: UnsafeBufferPointer<UInt8>) -> String? {
        isValid(buffer) ? uncheckedString(buffer) : nil
    }

    /// Bytes already known to be well-formed UTF-8 (a slice, on scalar boundaries, of bytes
    /// `isValid` accepted) as a string, copied without checking.
    static func uncheckedString(_ buffer: UnsafeBufferPointer<UInt8>) -> String {
        String(copying: unsafe UTF8Span(unchecked: buffer.span))
    }

    /// A C string's bytes as a string: unchecked when they are well-formed UTF-8, repaired
    /// (`String(cString:)`) when they are not.
    static func string(cString: UnsafePointer<CChar>, length: Int) -> String {
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(cString).assumingMemoryBound(to: UInt8.self), count: length)
        return string(bytes) ?? String(cString: cString)
    }
}
