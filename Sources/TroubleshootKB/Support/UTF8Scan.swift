/// Helpers for walking valid UTF-8 (the bytes of a Swift `String`) scalar by scalar without
/// decoding it into arrays: the parser's hot paths compare and slice bytes instead.
enum UTF8Scan {
    /// `b` with ASCII upper-case letters lower-cased; every other byte (including all bytes of
    /// multi-byte sequences) unchanged.
    @inline(__always)
    static func foldASCII(_ b: UInt8) -> UInt8 {
        b &- 0x41 < 26 ? b | 0x20 : b
    }

    /// Whether `b` continues a multi-byte sequence (`10xxxxxx`).
    @inline(__always)
    static func isContinuation(_ b: UInt8) -> Bool { b & 0xC0 == 0x80 }

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

    /// Whether `bytes` is well-formed UTF-8 (what `String(validating:as:)` accepts: no
    /// overlong forms, surrogates or values above U+10FFFF), checked eight ASCII bytes at a time.
    static func isValid(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = buffer.baseAddress else { return true }
        let count = buffer.count
        let raw = UnsafeRawPointer(base)
        var i = 0
        while i < count {
            if count - i >= 8, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                i += 8
                continue
            }
            let b0 = base[i]
            if b0 < 0x80 { i += 1; continue }
            func cont(_ j: Int) -> Bool { j < count && isContinuation(base[j]) }
            func byte(_ j: Int, in range: ClosedRange<UInt8>) -> Bool { j < count && range.contains(base[j]) }
            switch b0 {
            case 0xC2...0xDF:
                guard cont(i + 1) else { return false }
                i += 2
            case 0xE0:
                guard byte(i + 1, in: 0xA0...0xBF), cont(i + 2) else { return false }
                i += 3
            case 0xE1...0xEC, 0xEE...0xEF:
                guard cont(i + 1), cont(i + 2) else { return false }
                i += 3
            case 0xED:
                guard byte(i + 1, in: 0x80...0x9F), cont(i + 2) else { return false }
                i += 3
            case 0xF0:
                guard byte(i + 1, in: 0x90...0xBF), cont(i + 2), cont(i + 3) else { return false }
                i += 4
            case 0xF1...0xF3:
                guard cont(i + 1), cont(i + 2), cont(i + 3) else { return false }
                i += 4
            case 0xF4:
                guard byte(i + 1, in: 0x80...0x8F), cont(i + 2), cont(i + 3) else { return false }
                i += 4
            default:
                return false
            }
        }
        return true
    }
}
