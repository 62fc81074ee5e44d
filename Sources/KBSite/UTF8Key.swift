/// A string compared and hashed by its UTF-8 bytes (not by canonical equivalence, as `String`
/// is): two spellings of one text are two keys, as they are two byte sequences in a file.
struct UTF8Key: Hashable {
    let text: String
    init(_ text: String) { self.text = text }
    static func == (a: UTF8Key, b: UTF8Key) -> Bool { ByteText.compare(a.text, b.text) == 0 }
    func hash(into hasher: inout Hasher) {
        // The bytes, eight at a time, then their count.
        var word: UInt64 = 0, count = 0
        for byte in text.utf8 {
            word = word << 8 | UInt64(byte)
            count += 1
            if count % 8 == 0 {
                hasher.combine(word)
                word = 0
            }
        }
        hasher.combine(word)
        hasher.combine(count)
    }
}
