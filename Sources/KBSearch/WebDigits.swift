import KBCore
/// Numbers in the web postings (docs/search.md §6): digits over the 90 printable ASCII characters
/// that need no escape in JSON or HTML, low digits first, in a mixed radix per kind of number: a
/// number `v` below `t` is one character (digit `v`); a larger one is digit `t + (v − t) % (90 − t)`
/// followed by the number `(v − t) / (90 − t)`.
enum WebDigits {
    /// The 90 characters, in value order: space to `~` except `"`, `&`, `<`, `>` and `\`.
    static let alphabet: [UInt8] = Array(0x20...0x7E).filter { $0 != 0x22 && $0 != 0x26 && $0 != 0x3C && $0 != 0x3E && $0 != 0x5C }
    static let radix: UInt32 = 90
    /// `t` of each kind of number: record heads (`A`), a first record's text and field (`B`),
    /// field length codes (`L`, `SearchFieldLength`), first positions (`P`), other small numbers
    /// (`D`: tf − 2, position gaps).
    static let headT: UInt32 = 80, textT: UInt32 = 80, lengthT: UInt32 = 64, positionT: UInt32 = 80, smallT: UInt32 = 80
    /// Longest number (a UInt32 in any of the kinds above).
    static let maxLength = [headT, textT, lengthT, positionT, smallT].map { length(.max, $0) }.max()!

    /// `alphabet` in a buffer that lives as long as the process, so that the record loops read
    /// it through a pointer (`RecordWriter`) instead of through the global's access check. Never
    /// written after it is made, hence `nonisolated(unsafe)`.
    nonisolated(unsafe) static let table: UnsafePointer<UInt8> = {
        let p = UnsafeMutablePointer<UInt8>.allocate(capacity: alphabet.count)
        p.initialize(from: alphabet, count: alphabet.count)
        return UnsafePointer(p)
    }()

    /// Writes `v` at `p` with terminal count `t` (`digits`: `table`); returns the number of characters.
    @inline(__always)
    static func write(_ v: UInt32, _ t: UInt32, to p: UnsafeMutableRawPointer, _ digits: UnsafePointer<UInt8>) -> Int {
        var v = v
        var n = 0
        let c = radix - t
        while v >= t {
            v -= t
            p.storeBytes(of: digits[Int(t + v % c)], toByteOffset: n, as: UInt8.self)
            v /= c
            n += 1
        }
        p.storeBytes(of: digits[Int(v)], toByteOffset: n, as: UInt8.self)
        return n + 1
    }

    /// Number of characters of `v` with terminal count `t`.
    static func length(_ v: UInt32, _ t: UInt32) -> Int {
        var v = v
        var n = 1
        let c = radix - t
        while v >= t { v = (v - t) / c; n += 1 }
        return n
    }
}
