/// Byte-level search helpers for hot paths.
enum ByteSearch {
    /// The offset of the first occurrence of `needle` in `haystack`.
    static func firstIndex(of needle: [UInt8], in haystack: [UInt8], from start: Int = 0) -> Int? {
        guard let first = needle.first, haystack.count >= needle.count else { return nil }
        return haystack.withUnsafeBufferPointer { buffer -> Int? in
            var i = start
            let last = buffer.count - needle.count
            while i <= last {
                if buffer[i] == first {
                    var j = 1
                    while j < needle.count && buffer[i + j] == needle[j] { j += 1 }
                    if j == needle.count { return i }
                }
                i += 1
            }
            return nil
        }
    }
}
