import Foundation
import KBCore

/// One document of the web export tokenized as the export tokenizes it (a postings accumulator
/// over this document alone, numbered as in the export): its tokens in the export's order (the order of
/// their first records), each token's records in the web form without the head of the first
/// one (the document gap, which depends on the token's other documents), its field lengths and
/// its document file.
struct WebPatchDocument {
    /// Tokens in the order of their first records.
    var tokens: [String] = []
    /// UTF-8 length and FNV-1a hash of each token.
    var nameLengths: [Int] = []
    var hashes: [UInt32] = []
    /// Records of each token, the head of the first left out, and their number.
    var records: [[UInt8]] = []
    var recordCounts: [Int] = []
    /// The position of a token in `tokens`.
    var rank: [String: Int] = [:]
    /// Literal tokens per field.
    var fieldLengths: [Int] = []
    /// The document's file (`doc-<d>`).
    var file: Data

    init(_ document: SearchDocument, number d: Int, maxPositions cap: Int, glossary: SearchGlossary,
         framing: SearchWebExport.Framing) {
        var postings = PostingsAccumulator<WebPostings>(cap: max(0, cap), glossary: glossary)
        _ = postings.beginBatch(firstDocument: Int32(d))
        postings.add(document, number: Int32(d))
        file = WebDocumentFile.bytes(document, number: d, textCount: postings.records.textCount,
                                     textBytes: postings.records.textBytes, framing: framing)
        postings.finish()
        fieldLengths = postings.totalLength
        for p in 0..<postings.parts.count {
            let t = Int(postings.parts[p].token)
            let token = postings.vocabulary.string(t)
            rank[token] = tokens.count
            tokens.append(token)
            nameLengths.append(Int(postings.vocabulary.ends[t]) - postings.vocabulary.start(t))
            hashes.append(postings.vocabulary.hashes[t])
            records.append(Array(postings.streams.bytes(t)))
            recordCounts.append(Int(postings.streams[t].recordCount))
        }
    }
}

/// What a patch reads back from the web export's document, filter and metadata files.
enum WebExportReading {
    /// Language, status and tags of each document (`filters`).
    struct FilterDocument: Equatable {
        var lang: String
        var status: String
        var tags: [String]
    }

    /// The document of a `doc-<d>` file, without status and tags (those are in `filters`).
    static func document(_ bytes: [UInt8], number d: Int, framing: SearchWebExport.Framing) -> SearchDocument? {
        guard let body = WebFraming.body(of: bytes, name: .doc(d), framing: framing),
              let object = try? JSONSerialization.jsonObject(with: Data(bytes[body])) as? [String: Any],
              let id = object["id"] as? String, let lang = object["lang"] as? String,
              let url = object["url"], let texts = object["texts"] as? [[Any]] else { return nil }
        var fields: [SearchField: [FieldText]] = [:]
        var firstText: String? = nil
        for text in texts {
            guard text.count >= 2 && text.count <= 4, let f = int(text[0]), let field = SearchField(rawValue: f),
                  let string = text[1] as? String else { return nil }
            var label: String? = nil, anchor: String? = nil
            if text.count > 2 { label = text[2] as? String; guard label != nil || text[2] is NSNull else { return nil } }
            if text.count > 3 { anchor = text[3] as? String; guard anchor != nil else { return nil } }
            if firstText == nil { firstText = string }
            fields[field, default: []].append(FieldText(string, anchor: anchor, label: label))
        }
        guard let title = object["title"] as? String ?? firstText else { return nil }
        let urlString = url as? String
        guard urlString != nil || url is NSNull else { return nil }
        return SearchDocument(id: id, lang: lang, title: title, url: urlString, fields: fields)
    }

    private static func int(_ value: Any) -> Int? {
        if let v = value as? Int { return v }
        if let v = value as? NSNumber { return v.intValue }
        return nil
    }

    /// The documents of a `filters` file (`n` of them), or nil.
    static func filters(_ bytes: [UInt8], documentCount n: Int, framing: SearchWebExport.Framing) -> [FilterDocument]? {
        guard let body = WebFraming.body(of: bytes, name: .filters, framing: framing),
              let object = try? JSONSerialization.jsonObject(with: Data(bytes[body])) as? [String: Any],
              let values = object["values"] as? [String], let docs = object["docs"] as? String else { return nil }
        var digit = [Int](repeating: -1, count: 256)
        for (v, c) in WebVarints.alphabet.enumerated() { digit[Int(c)] = v }
        let chars = Array(docs.utf8)
        var p = 0
        func next() -> Int? {
            var v = 0, shift = 0
            while p < chars.count && shift < 35 {
                let x = digit[Int(chars[p])]
                guard x >= 0 else { return nil }
                p += 1
                v |= (x & 31) << shift
                if x < 32 { return v }
                shift += 5
            }
            return nil
        }
        func value() -> String? {
            guard let i = next(), i < values.count else { return nil }
            return values[i]
        }
        var out: [FilterDocument] = []
        out.reserveCapacity(n)
        for _ in 0..<n {
            guard let lang = value(), let status = value(), let count = next(), count <= chars.count else { return nil }
            var tags: [String] = []
            for _ in 0..<count {
                guard let tag = value() else { return nil }
                tags.append(tag)
            }
            out.append(FilterDocument(lang: lang, status: status, tags: tags))
        }
        return p == chars.count ? out : nil
    }

    /// What a patch needs of `meta`: the average field lengths, N, the token and shard counts.
    struct Meta {
        var averageFieldLengths: [Double]
        var documentCount: Int
        var tokenCount: Int
        var shardCount: Int
    }

    /// Reads those numbers from a `meta` file (whose other bytes the caller checks by writing it
    /// again), or nil.
    static func meta(_ bytes: [UInt8], framing: SearchWebExport.Framing) -> Meta? {
        guard let body = WebFraming.body(of: bytes, name: .meta, framing: framing) else { return nil }
        let text = String(decoding: bytes[body], as: UTF8.self)
        /// The text after the first `"key":` up to the first of `stops`.
        func field(_ key: String, _ stops: Set<Character>) -> Substring? {
            guard let r = text.range(of: "\"\(key)\":") else { return nil }
            let rest = text[r.upperBound...]
            guard let end = rest.firstIndex(where: { stops.contains($0) }) else { return nil }
            return rest[..<end]
        }
        guard let list = field("avgFieldLengths", ["]"]), list.first == "[",
              let n = field("n", [","]).flatMap({ Int($0) }),
              let tokenCount = field("tokenCount", [","]).flatMap({ Int($0) }),
              let shardCount = field("shardCount", [","]).flatMap({ Int($0) }) else { return nil }
        let averages = list.dropFirst().split(separator: ",").compactMap { Double($0) }
        guard averages.count == SearchIndex.fieldCount else { return nil }
        return Meta(averageFieldLengths: averages, documentCount: n, tokenCount: tokenCount, shardCount: shardCount)
    }
}
