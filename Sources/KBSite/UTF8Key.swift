/// A string compared and hashed by its UTF-8 bytes (not by canonical equivalence, as `String`
/// is): two spellings of one text are two keys, as they are two byte sequences in a file.
struct UTF8Key: Hashable {
    let text: String
    init(_ text: String) { self.text = text }
    static func == (a: UTF8Key, b: UTF8Key) -> Bool { ByteText.compare(a.text, b.text) == 0 }
    func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
