/// The 64-bit checksum of a byte run: FNV-1a over little-endian 64-bit words, the tail bytes as one
/// more word, then the length (docs/search.md §7). Entry files are hashed with it to tell whether
/// they changed; the search index checksums its blocks with it.
package enum ContentChecksum {
    package static func of(_ raw: UnsafeRawBufferPointer) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        let prime: UInt64 = 0x100_0000_01b3
        let words = raw.count / 8
        if let base = raw.baseAddress {
            for i in 0..<words {
                h = (h ^ UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self))) &* prime
            }
        }
        var tail: UInt64 = 0
        for i in (words * 8)..<raw.count { tail |= UInt64(raw[i]) << (8 * UInt64(i - words * 8)) }
        h = (h ^ tail) &* prime
        return (h ^ UInt64(raw.count)) &* prime
    }
}

extension ContentChecksum {
    /// The checksum of array bytes.
    package static func of(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.withUnsafeBytes { of($0) }
    }
}
