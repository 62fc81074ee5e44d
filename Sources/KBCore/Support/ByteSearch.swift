#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Byte-level search helpers for hot paths.
package enum ByteSearch {
    /// Whether `needle` (not empty) occurs in `haystack`.
    static func contains(_ needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = needle.first, let base = haystack.baseAddress, haystack.count >= needle.count else { return false }
        return needle.withUnsafeBufferPointer { pattern -> Bool in
            let last = haystack.count - pattern.count
            var i = 0
            while i <= last, let found = memchr(base + i, Int32(first), last - i + 1) {
                let k = UnsafeRawPointer(found) - UnsafeRawPointer(base)
                if memcmp(base + k, pattern.baseAddress!, pattern.count) == 0 { return true }
                i = k + 1
            }
            return false
        }
    }

    /// The offset of the first `byte` in `haystack` at or after `start` (memchr).
    package static func firstIndex(of byte: UInt8, in haystack: [UInt8], from start: Int = 0) -> Int? {
        guard start >= 0, start < haystack.count else { return nil }
        return haystack.withUnsafeBufferPointer { buffer -> Int? in
            let base = buffer.baseAddress!
            guard let found = memchr(base + start, Int32(byte), buffer.count - start) else { return nil }
            return UnsafeRawPointer(found) - UnsafeRawPointer(base)
        }
    }

    /// The offset of the first occurrence of `needle` in `haystack` at or after `start`.
    package static func firstIndex(of needle: [UInt8], in haystack: [UInt8], from start: Int = 0) -> Int? {
        guard let first = needle.first, start >= 0, haystack.count - start >= needle.count else { return nil }
        // Candidates found with memchr (vectorised in libc), each compared with memcmp.
        return haystack.withUnsafeBufferPointer { buffer -> Int? in
            needle.withUnsafeBufferPointer { pattern -> Int? in
                let base = buffer.baseAddress!, last = buffer.count - pattern.count
                var i = start
                while i <= last, let found = memchr(base + i, Int32(first), last - i + 1) {
                    let k = UnsafeRawPointer(found) - UnsafeRawPointer(base)
                    if memcmp(base + k, pattern.baseAddress!, pattern.count) == 0 { return k }
                    i = k + 1
                }
                return nil
            }
        }
    }
}
