import Foundation

/// The index in the JSON form the browser loads: one metadata file and postings shards
/// (docs/search.md, "Web index").
public struct SearchWebExport: Sendable {
    /// `search-meta.json`.
    public var meta: Data
    /// `search-shard-<i>.json` for i in 0..<shards.count.
    public var shards: [Data]
}

extension SearchIndex {
    /// Version of the web (JSON) format.
    public static let webFormatVersion = 1

    /// The shard of a token: FNV-1a 32 over its UTF-8 bytes, modulo `shardCount`.
    public static func shard(ofToken token: String, shardCount: Int) -> Int {
        Int(SearchAnalyzer.tokenHash(token) % UInt32(max(1, shardCount)))
    }

    /// A power of two so that shards hold about `targetBytes` of postings each (1...4096).
    public func recommendedShardCount(targetBytes: Int = 96_000) -> Int {
        // Rough size: ~4 characters per number.
        let estimate = postingBytes.count * 2 + tokens.bytes.count * 2
        var count = 1
        while count < 4096 && estimate / count > targetBytes { count *= 2 }
        return count
    }

    /// The web form with `shardCount` shards (default: `recommendedShardCount()`).
    public func webExport(shardCount: Int? = nil) -> SearchWebExport {
        let shardCount = max(1, shardCount ?? recommendedShardCount())
        let fc = SearchIndex.fieldCount

        // Metadata.
        var m = JSONWriter()
        var strings: [String] = []
        var stringIndex: [String: Int] = [:]
        func intern(_ i: Int32) -> Int {
            guard let s = string(i) else { return -1 }
            if let i = stringIndex[s] { return i }
            stringIndex[s] = strings.count
            strings.append(s)
            return strings.count - 1
        }
        var docsJSON = JSONWriter()
        docsJSON.raw("[")
        for d in 0..<ids.count {
            if d > 0 { docsJSON.raw(",") }
            docsJSON.raw("{\"id\":"); docsJSON.string(ids[d])
            docsJSON.raw(",\"title\":"); docsJSON.string(titles[d])
            docsJSON.raw(",\"lang\":"); docsJSON.string(langs[d])
            docsJSON.raw(",\"url\":"); if let u = url(ofDocument: d) { docsJSON.string(u) } else { docsJSON.raw("null") }
            docsJSON.raw(",\"tags\":["); for (i, t) in tags(ofDocument: d).enumerated() { if i > 0 { docsJSON.raw(",") }; docsJSON.string(t) }
            docsJSON.raw("],\"status\":"); docsJSON.string(statuses[d])
            docsJSON.raw(",\"len\":["); for f in 0..<fc { if f > 0 { docsJSON.raw(",") }; docsJSON.int(Int(fieldLengths[d * fc + f])) }
            docsJSON.raw("],\"texts\":[")
            var first = true
            for gt in Int(docTextStart[d])..<Int(docTextStart[d + 1]) {
                if !first { docsJSON.raw(",") }
                first = false
                docsJSON.int(Int(textField[gt])); docsJSON.raw(",")
                docsJSON.int(intern(textAnchor[gt])); docsJSON.raw(",")
                docsJSON.int(intern(textLabel[gt]))
            }
            docsJSON.raw("]}")
        }
        docsJSON.raw("]")
        m.raw("{\"format\":\"kb-search\",\"version\":"); m.int(SearchIndex.webFormatVersion)
        m.raw(",\"k1\":"); m.double(parameters.k1)
        m.raw(",\"b\":"); m.double(parameters.b)
        m.raw(",\"beta\":"); m.double(parameters.beta)
        m.raw(",\"maxPositions\":"); m.int(parameters.maxPositions)
        m.raw(",\"fields\":["); for f in SearchField.allCases { if f.rawValue > 0 { m.raw(",") }; m.string(f.name) }
        m.raw("],\"fieldWeights\":["); for (i, w) in parameters.fieldWeights.enumerated() { if i > 0 { m.raw(",") }; m.double(w) }
        m.raw("],\"avgFieldLengths\":["); for (i, a) in averageFieldLengths.enumerated() { if i > 0 { m.raw(",") }; m.double(a) }
        m.raw("],\"n\":"); m.int(ids.count)
        m.raw(",\"idfUnknown\":"); m.double(idfUnknown)
        m.raw(",\"tokenCount\":"); m.int(tokens.count)
        m.raw(",\"shardCount\":"); m.int(shardCount)
        m.raw(",\"strings\":["); for (i, s) in strings.enumerated() { if i > 0 { m.raw(",") }; m.string(s) }
        m.raw("],\"docs\":"); m.bytes.append(contentsOf: docsJSON.bytes)
        m.raw("}\n")

        // Shards: tokens in id order.
        var shards = [JSONWriter](repeating: JSONWriter(), count: shardCount)
        var firstInShard = [Bool](repeating: true, count: shardCount)
        for s in 0..<shardCount { shards[s].raw("{\"v\":\(SearchIndex.webFormatVersion),\"t\":{") }
        let cap = parameters.maxPositions
        for t in 0..<tokens.count {
            let s = Int(tokens.hashes[t] % UInt32(shardCount))
            var w = shards[s]
            shards[s] = JSONWriter()
            if !firstInShard[s] { w.raw(",") }
            firstInShard[s] = false
            w.string(tokens.string(t))
            w.raw(":["); w.int(Int(documentFrequency[t])); w.raw(","); w.double(idf[t])
            var prevDoc = 0
            let list = decodePostings(t) ?? PostingList()
            for r in 0..<list.count {
                let d = Int(list.doc[r])
                w.raw(","); w.int(d - prevDoc); prevDoc = d
                w.raw(","); w.int(Int(list.text[r]))
                w.raw(","); w.int(Int(list.tf[r]))
                let p0 = Int(list.posStart[r])
                var prev: Int32 = 0
                for k in 0..<min(Int(list.tf[r]), cap) {
                    let p = list.pos[p0 + k]
                    w.raw(","); w.int(Int(p - prev)); prev = p
                }
            }
            w.raw("]")
            shards[s] = w
        }
        return SearchWebExport(meta: Data(m.bytes), shards: shards.map { var w = $0; w.raw("}}\n"); return Data(w.bytes) })
    }

    /// Writes `search-meta.json` and `search-shard-<i>.json` into `directory`.
    public func writeWebExport(to directory: URL, shardCount: Int? = nil) throws {
        let export = webExport(shardCount: shardCount)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try export.meta.write(to: directory.appendingPathComponent("search-meta.json"))
        for (i, shard) in export.shards.enumerated() {
            try shard.write(to: directory.appendingPathComponent("search-shard-\(i).json"))
        }
    }
}

/// Minimal JSON text writer with deterministic output.
struct JSONWriter {
    var bytes: [UInt8] = []

    mutating func raw(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func raw(_ s: String) { bytes.append(contentsOf: s.utf8) }

    mutating func int(_ v: Int) {
        if v >= 0 && v < 10 { bytes.append(UInt8(0x30 + v)); return }
        bytes.append(contentsOf: String(v).utf8)
    }

    /// Shortest representation that round-trips (Swift's `description`), as JSON.
    mutating func double(_ v: Double) {
        precondition(v.isFinite)
        bytes.append(contentsOf: v.description.utf8)
    }

    mutating func string(_ s: String) {
        bytes.append(0x22)
        for b in s.utf8 {
            switch b {
            case 0x22: bytes.append(0x5C); bytes.append(0x22)
            case 0x5C: bytes.append(0x5C); bytes.append(0x5C)
            case 0x0A: bytes.append(0x5C); bytes.append(0x6E)
            case 0x0D: bytes.append(0x5C); bytes.append(0x72)
            case 0x09: bytes.append(0x5C); bytes.append(0x74)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 15)]])
            default: bytes.append(b)
            }
        }
        bytes.append(0x22)
    }
}
