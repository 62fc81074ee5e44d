import Foundation
import KBCore

/// A vocabulary file of the web export (`search-vocab-<i>.json`, docs/search.md §6): the listed
/// words (`SearchExpansionRules.isListed`) whose head key falls in file `i`, with their document
/// frequencies, so the browser finds prefix and typo expansions (§4.1) without the whole
/// vocabulary: `{"v":6,"h":{"<head>":"<rest> <df> <rest> <df> …",…}}` with the heads in UTF-8
/// byte order and, under a head, the rests of its words (the word without its head) in UTF-8
/// byte order.
struct WebVocabularyFile: Equatable {
    /// Document frequency of each listed word of the file.
    var words: [String: Int] = [:]

    /// The file number of a listed word's head key, and the key.
    static func place(of token: String, fileCount: Int) -> (file: Int, head: String)? {
        let scalars = token.unicodeScalars.map(\.value)
        guard SearchExpansionRules.isListed(scalars) else { return nil }
        let head = SearchExpansionRules.headKey(scalars)
        return (SearchExpansionRules.vocabularyFile(ofHead: head, fileCount: fileCount), head)
    }

    /// Whether a token's UTF-8 bytes may be a listed word (a quick test before decoding: long
    /// enough, and a first byte of an ASCII word scalar or of a two-byte or U+1Exx letter).
    static func mayBeListed(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= SearchExpansionRules.vocabularyMinLength, let b = bytes.first else { return false }
        return (b >= 0x30 && b <= 0x39) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x2E || (b >= 0xC3 && b <= 0xD4) || b == 0xE1
    }

    /// The file's bytes with `framing`.
    func write(number: Int, framing: SearchWebExport.Framing) -> Data {
        let name = SearchWebExport.FileName.vocabulary(number)
        var byHead: [String: [(rest: [UInt8], df: Int)]] = [:]
        for (word, df) in words {
            let scalars = Array(word.unicodeScalars)
            let head = String(String.UnicodeScalarView(scalars.prefix(SearchExpansionRules.headLength)))
            let rest = String(String.UnicodeScalarView(scalars.dropFirst(SearchExpansionRules.headLength)))
            byHead[head, default: []].append((Array(rest.utf8), df))
        }
        var w = JSONWriter()
        WebFraming.open(&w, name, framing)
        w.raw("{\"v\":"); w.int(SearchWebExport.formatVersion); w.raw(",\"h\":{")
        let heads = byHead.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        for (i, head) in heads.enumerated() {
            if i > 0 { w.raw(",") }
            w.string(head)
            w.raw(":")
            var list = ""
            for (j, word) in byHead[head]!.sorted(by: { $0.rest.lexicographicallyPrecedes($1.rest) }).enumerated() {
                if j > 0 { list += " " }
                list += String(decoding: word.rest, as: UTF8.self) + " " + String(word.df)
            }
            w.string(list)
        }
        w.raw("}}")
        WebFraming.close(&w, framing)
        return Data(w.bytes)
    }

    init() {}

    /// Reads file `number` back; nil when it is not of this form.
    init?(_ bytes: [UInt8], number: Int, framing: SearchWebExport.Framing) {
        guard let body = WebFraming.body(of: bytes, name: .vocabulary(number), framing: framing),
              let object = try? JSONSerialization.jsonObject(with: Data(bytes[body])) as? [String: Any],
              object["v"] as? Int == SearchWebExport.formatVersion, let heads = object["h"] as? [String: String] else { return nil }
        for (head, list) in heads {
            let items = list.split(separator: " ", omittingEmptySubsequences: false)
            guard items.count % 2 == 0 else { return nil }
            for k in stride(from: 0, to: items.count, by: 2) {
                guard let df = Int(items[k + 1]), df > 0 else { return nil }
                words[head + items[k]] = df
            }
        }
    }
}
