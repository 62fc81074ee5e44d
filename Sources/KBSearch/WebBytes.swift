import Foundation
import KBCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A growable byte buffer on the C heap for the web export's files: JSON text written through
/// a pointer and handed over as `Data` without a copy.
struct WebBytes {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 256) {
        self.capacity = max(16, capacity)
        base = malloc(self.capacity)!.assumingMemoryBound(to: UInt8.self)
    }

    /// Makes room for `extra` more bytes and returns where they go (`advance(by:)` then counts them).
    @inline(__always)
    mutating func reserve(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
        if count + extra > capacity { grow(count + extra) }
        return base + count
    }

    @inline(__always)
    mutating func advance(by n: Int) { count += n }

    /// The bytes written so far (valid until the next write).
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    private mutating func grow(_ needed: Int) {
        var c = capacity * 2
        while c < needed { c *= 2 }
        base = realloc(base, c)!.assumingMemoryBound(to: UInt8.self)
        capacity = c
    }

    mutating func raw(_ s: StaticString) {
        s.withUTF8Buffer { append($0) }
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let b = bytes.baseAddress, bytes.count > 0 else { return }
        let p = reserve(bytes.count)
        p.update(from: b, count: bytes.count)
        count += bytes.count
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        append(bytes.bindMemory(to: UInt8.self))
    }

    mutating func append(_ bytes: [UInt8]) {
        for b in bytes { byte(b) }
    }

    /// Writes at most `extra` bytes with `body` (records, in `WebDigits` or copied).
    mutating func records(reserving extra: Int, _ body: (inout RecordWriter) -> Void) {
        var out = RecordWriter(at: UnsafeMutableRawPointer(reserve(extra)))
        body(&out)
        precondition(out.count <= extra)
        advance(by: out.count)
    }

    @inline(__always)
    mutating func byte(_ b: UInt8) {
        reserve(1).pointee = b
        count += 1
    }

    mutating func int(_ v: Int) {
        if v >= 0 && v < 10 { byte(UInt8(0x30 + v)); return }
        var s = String(v)
        s.withUTF8 { append($0) }
    }

    /// Shortest representation that round-trips (Swift's `description`), as in JSON.
    mutating func double(_ v: Double) {
        precondition(v.isFinite)
        var s = v.description
        s.withUTF8 { append($0) }
    }

    /// Bytes of a JSON string that need an escape: control characters, `"`, `\`, and `<`, `>`,
    /// `&` (so that no entry text reads as markup wherever the data lands); 0xE2 starts U+2028
    /// and U+2029, which are checked where it occurs.
    private static let escapes: [Bool] = (0..<256).map { b in
        b < 0x20 || b == 0x22 || b == 0x5C || b == 0x3C || b == 0x3E || b == 0x26 || b == 0xE2
    }

    /// Whether any of the eight bytes in `w` is one `escapes` marks (exact: no byte that needs
    /// an escape is missed, and none that does not is reported).
    @inline(__always)
    static func mayNeedEscape(_ w: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, high: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func hasZero(_ y: UInt64) -> UInt64 { (y &- ones) & ~y & high }
        let below = (w &- ones &* 0x20) & ~w & high // some byte < 0x20
        return (below | hasZero(w ^ (ones &* 0x22)) | hasZero(w ^ (ones &* 0x5C)) | hasZero(w ^ (ones &* 0x3C))
                | hasZero(w ^ (ones &* 0x3E)) | hasZero(w ^ (ones &* 0x26)) | hasZero(w ^ (ones &* 0xE2))) != 0
    }

    /// `s` as a JSON string (see `JSONWriter.string` for the escapes).
    mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in string(utf8) }
    }

    mutating func string(_ utf8: UnsafeBufferPointer<UInt8>) {
        let n = utf8.count
        // Room for the plain case; an escape makes more room when it comes.
        _ = reserve(n + 2)
        var o = count
        base[o] = 0x22
        o += 1
        Self.escapes.withUnsafeBufferPointer { escapes in
            var i = 0
            var plain = 0
            let raw = UnsafeRawPointer(utf8.baseAddress)
            while i < n {
                // Eight bytes at a time while none needs an escape (most text).
                if n - i >= 8, !Self.mayNeedEscape(raw.unsafelyUnwrapped.loadUnaligned(fromByteOffset: i, as: UInt64.self)) {
                    i += 8
                    continue
                }
                let b = utf8[i]
                if !escapes[Int(b)] { i += 1; continue }
                var escaped: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0x5C, 0, 0, 0, 0, 0)
                var width = 2
                switch b {
                case 0x22: escaped.1 = 0x22
                case 0x5C: escaped.1 = 0x5C
                case 0x0A: escaped.1 = 0x6E
                case 0x0D: escaped.1 = 0x72
                case 0x09: escaped.1 = 0x74
                case 0xE2:
                    guard i + 2 < n, utf8[i + 1] == 0x80, utf8[i + 2] == 0xA8 || utf8[i + 2] == 0xA9 else { i += 1; continue }
                    escaped = (0x5C, 0x75, 0x32, 0x30, 0x32, utf8[i + 2] == 0xA8 ? 0x38 : 0x39)
                    width = 6
                default:
                    let hex: StaticString = "0123456789abcdef"
                    let h = hex.utf8Start
                    escaped = (0x5C, 0x75, 0x30, 0x30, h[Int(b >> 4)], h[Int(b & 15)])
                    width = 6
                }
                let run = i - plain
                let needed = o + run + width + (n - i) + 1
                if needed > capacity { grow(needed) }
                if run > 0 { (base + o).update(from: utf8.baseAddress! + plain, count: run) }
                o += run
                withUnsafeBytes(of: escaped) { e in
                    for k in 0..<width { base[o + k] = e[k] }
                }
                o += width
                i += b == 0xE2 ? 3 : 1
                plain = i
            }
            let run = n - plain
            if run > 0 { (base + o).update(from: utf8.baseAddress! + plain, count: run) }
            o += run
        }
        base[o] = 0x22
        count = o + 1
    }

    /// Hands the bytes over as `Data` (the buffer is freed with it).
    mutating func take() -> Data {
        let data = Data(bytesNoCopy: base, count: count, deallocator: .free)
        capacity = 16
        count = 0
        base = malloc(capacity)!.assumingMemoryBound(to: UInt8.self)
        return data
    }

    /// Frees the buffer (for a value that is not taken).
    func free() {
        #if canImport(Glibc)
        Glibc.free(base)
        #else
        Darwin.free(base)
        #endif
    }
}
