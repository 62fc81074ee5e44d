import Testing
@testable import KBCore

/// `ContentChecksum` reads 64-bit words through an unsafe pointer; a plain version that builds
/// each word from the bytes one by one must give the same checksum for every length and offset.
@Suite struct ContentChecksumTests {
    /// The definition, spelled out with arrays and integer arithmetic only.
    static func plain(_ bytes: [UInt8]) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        let prime: UInt64 = 0x100_0000_01b3
        var k = 0
        while k + 8 <= bytes.count {
            var word: UInt64 = 0
            for i in 0..<8 { word |= UInt64(bytes[k + i]) << (8 * UInt64(i)) }
            h = (h ^ word).multipliedReportingOverflow(by: prime).partialValue
            k += 8
        }
        var tail: UInt64 = 0
        for i in k..<bytes.count { tail |= UInt64(bytes[i]) << (8 * UInt64(i - k)) }
        h = (h ^ tail).multipliedReportingOverflow(by: prime).partialValue
        return (h ^ UInt64(bytes.count)).multipliedReportingOverflow(by: prime).partialValue
    }

    @Test(arguments: [0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 1000])
    func matchesThePlainVersion(length: Int) {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<(length + 3)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        // At offsets 0…3 of the array: the words are read unaligned.
        for offset in 0...3 {
            let run = Array(bytes[offset..<(offset + length)])
            #expect(ContentChecksum.of(bytes[offset..<(offset + length)]) == Self.plain(run), "length \(length), offset \(offset)")
        }
    }

    @Test func oneChangedByteChangesTheChecksum() {
        let text = Array("title: Large title disappears after push".utf8)
        for k in text.indices {
            var changed = text
            changed[k] ^= 0x20
            #expect(ContentChecksum.of(changed[...]) != ContentChecksum.of(text[...]), "byte \(k)")
        }
        #expect(ContentChecksum.of(text[...]) != ContentChecksum.of(text.dropLast()))
    }
}
