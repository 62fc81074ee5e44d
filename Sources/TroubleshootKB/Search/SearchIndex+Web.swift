import Foundation

/// The index in the JSON form the browser loads (docs/search.md, "Web index"): a small
/// metadata file with what ranking needs for every document, postings shards, one file per
/// document with what a shown result needs, and the filter data.
public struct SearchWebExport: Sendable {
    /// `search-meta.json`.
    public var meta: Data
    /// `search-shard-<i>.json` for i in 0..<shards.count.
    public var shards: [Data]
    /// `search-doc-<d>.json` for each document d.
    public var docs: [Data]
    /// `search-filters.json`: language, tags and status of every document (loaded only to filter).
    public var filters: Data
}

/// Numbers as base-64 varints (docs/search.md §6): each character carries 5 bits, low bits
/// first, plus 32 when more characters follow.
struct WebVarints {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    var bytes: [UInt8] = []

    @inline(__always)
    mutating func append(_ v: UInt32) {
        var v = v
        while v >= 32 { bytes.append(Self.alphabet[Int(32 | (v & 31))]); v >>= 5 }
        bytes.append(Self.alphabet[Int(v)])
    }
}

extension SearchIndex {
    /// Version of the web (JSON) format (3: the compact layout of version 2 with the glossary
    /// and the concept weight in the metadata).
    public static let webFormatVersion = 3

    /// The shard of a token: FNV-1a 32 over its UTF-8 bytes, modulo `shardCount`.
    public static func shard(ofToken token: String, shardCount: Int) -> Int {
        Int(SearchAnalyzer.tokenHash(token) % UInt32(max(1, shardCount)))
    }

    /// A power of two so that shards hold about `targetBytes` of postings each, and at most
    /// about one token each (1...65536): small shards, so that a query loads little besides its
    /// own tokens.
    public func recommendedShardCount(targetBytes: Int = 12_000) -> Int {
        // Rough size: a base-64 character per 5 bits of the binary varints, and the token strings.
        let estimate = postingBytes.count * 3 / 2 + tokens.bytes.count * 2
        var count = 1
        while count < 65536 && count * 2 <= max(1, tokens.count) && estimate / count > targetBytes { count *= 2 }
        return count
    }

    /// The web form with `shardCount` shards (default: `recommendedShardCount()`).
    public func webExport(shardCount: Int? = nil) -> SearchWebExport {
        let shardCount = max(1, shardCount ?? recommendedShardCount())
        let fc = SearchIndex.fieldCount
        let n = ids.count

        // Metadata: per document the field lengths and the number of texts of each field.
        var docs = WebVarints()
        for d in 0..<n {
            for f in 0..<fc { docs.append(UInt32(fieldLengths[d * fc + f])) }
            var counts = [UInt32](repeating: 0, count: fc)
            for gt in Int(docTextStart[d])..<Int(docTextStart[d + 1]) { counts[Int(textField[gt])] += 1 }
            for c in counts { docs.append(c) }
        }
        var m = JSONWriter()
        m.raw("{\"format\":\"kb-search\",\"version\":"); m.int(SearchIndex.webFormatVersion)
        m.raw(",\"k1\":"); m.double(parameters.k1)
        m.raw(",\"b\":"); m.double(parameters.b)
        m.raw(",\"beta\":"); m.double(parameters.beta)
        m.raw(",\"maxPositions\":"); m.int(parameters.maxPositions)
        m.raw(",\"conceptWeight\":"); m.double(parameters.conceptWeight)
        m.raw(",\"fields\":["); for f in SearchField.allCases { if f.rawValue > 0 { m.raw(",") }; m.string(f.name) }
        m.raw("],\"fieldWeights\":["); for (i, w) in parameters.fieldWeights.enumerated() { if i > 0 { m.raw(",") }; m.double(w) }
        m.raw("],\"avgFieldLengths\":["); for (i, a) in averageFieldLengths.enumerated() { if i > 0 { m.raw(",") }; m.double(a) }
        m.raw("],\"n\":"); m.int(n)
        m.raw(",\"idfUnknown\":"); m.double(idfUnknown)
        m.raw(",\"tokenCount\":"); m.int(tokens.count)
        m.raw(",\"shardCount\":"); m.int(shardCount)
        m.raw(",\"glossary\":[")
        for (i, c) in glossary.concepts.enumerated() {
            if i > 0 { m.raw(",") }
            m.raw("{\"id\":"); m.string(c.id); m.raw(",\"name\":"); m.string(c.name); m.raw(",\"terms\":[")
            for (j, t) in c.terms.enumerated() { if j > 0 { m.raw(",") }; m.string(t) }
            m.raw("]}")
        }
        m.raw("],\"docs\":\""); m.bytes.append(contentsOf: docs.bytes)
        m.raw("\"}\n")

        // Shards: tokens in id order, postings as base-64 varints.
        var shards = [JSONWriter](repeating: JSONWriter(), count: shardCount)
        var firstInShard = [Bool](repeating: true, count: shardCount)
        for s in 0..<shardCount { shards[s].raw("{\"v\":\(SearchIndex.webFormatVersion),\"t\":{") }
        let cap = parameters.maxPositions
        var postings = WebVarints()
        for t in 0..<tokens.count {
            let s = Int(tokens.hashes[t] % UInt32(shardCount))
            postings.bytes.removeAll(keepingCapacity: true)
            let list = decodePostings(t) ?? PostingList()
            var prevDoc: Int32 = 0
            for r in 0..<list.count {
                postings.append(UInt32(list.doc[r] - prevDoc)); prevDoc = list.doc[r]
                postings.append(UInt32(list.text[r]))
                postings.append(UInt32(list.tf[r]))
                let p0 = Int(list.posStart[r])
                var prev: Int32 = 0
                for k in 0..<min(Int(list.tf[r]), cap) {
                    let p = list.pos[p0 + k]
                    postings.append(UInt32(p - prev)); prev = p
                }
            }
            if !firstInShard[s] { shards[s].raw(",") }
            firstInShard[s] = false
            shards[s].string(tokens.string(t))
            shards[s].raw(":["); shards[s].int(Int(documentFrequency[t])); shards[s].raw(","); shards[s].double(idf[t])
            shards[s].raw(",\""); shards[s].bytes.append(contentsOf: postings.bytes); shards[s].raw("\"]")
        }

        // Documents: what a shown result needs.
        var docFiles: [Data] = []
        docFiles.reserveCapacity(n)
        for d in 0..<n {
            var w = JSONWriter()
            w.raw("{\"id\":"); w.string(ids[d])
            w.raw(",\"title\":"); w.string(titles[d])
            w.raw(",\"lang\":"); w.string(langs[d])
            w.raw(",\"url\":"); if let u = url(ofDocument: d) { w.string(u) } else { w.raw("null") }
            w.raw(",\"texts\":[")
            let texts = self.texts(ofDocument: d) ?? []
            for (k, gt) in (Int(docTextStart[d])..<Int(docTextStart[d + 1])).enumerated() {
                if k > 0 { w.raw(",") }
                w.raw("["); w.int(Int(textField[gt])); w.raw(",")
                if let a = string(textAnchor[gt]) { w.string(a) } else { w.raw("null") }
                w.raw(",")
                if let l = string(textLabel[gt]) { w.string(l) } else { w.raw("null") }
                w.raw(","); w.string(k < texts.count ? texts[k] : "")
                w.raw("]")
            }
            w.raw("]}\n")
            docFiles.append(Data(w.bytes))
        }

        // Filters: distinct values and per document indexes.
        var values: [String] = []
        var valueIndex: [String: Int] = [:]
        func value(_ s: String) -> UInt32 {
            if let i = valueIndex[s] { return UInt32(i) }
            valueIndex[s] = values.count
            values.append(s)
            return UInt32(values.count - 1)
        }
        var filterDocs = WebVarints()
        for d in 0..<n {
            filterDocs.append(value(langs[d]))
            filterDocs.append(value(statuses[d]))
            let tags = tags(ofDocument: d)
            filterDocs.append(UInt32(tags.count))
            for t in tags { filterDocs.append(value(t)) }
        }
        var fw = JSONWriter()
        fw.raw("{\"v\":\(SearchIndex.webFormatVersion),\"values\":[")
        for (i, v) in values.enumerated() { if i > 0 { fw.raw(",") }; fw.string(v) }
        fw.raw("],\"docs\":\""); fw.bytes.append(contentsOf: filterDocs.bytes); fw.raw("\"}\n")

        return SearchWebExport(meta: Data(m.bytes), shards: shards.map { var w = $0; w.raw("}}\n"); return Data(w.bytes) },
                               docs: docFiles, filters: Data(fw.bytes))
    }

    /// Writes `search-meta.json`, `search-shard-<i>.json`, `search-doc-<d>.json` and
    /// `search-filters.json` into `directory`.
    public func writeWebExport(to directory: URL, shardCount: Int? = nil) throws {
        let export = webExport(shardCount: shardCount)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try export.meta.write(to: directory.appendingPathComponent("search-meta.json"))
        for (i, shard) in export.shards.enumerated() {
            try shard.write(to: directory.appendingPathComponent("search-shard-\(i).json"))
        }
        for (d, doc) in export.docs.enumerated() {
            try doc.write(to: directory.appendingPathComponent("search-doc-\(d).json"))
        }
        try export.filters.write(to: directory.appendingPathComponent("search-filters.json"))
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

    /// A JSON string. `<`, `>` and `&` are written as `\u003c`, `\u003e` and `\u0026` (and the
    /// line separators U+2028/U+2029 as escapes), so entry text such as `</script>` or `<!--`
    /// stays inert even if the JSON is ever inlined into a page.
    mutating func string(_ s: String) {
        bytes.append(0x22)
        var s = s
        s.withUTF8 { utf8 in
            let hex: StaticString = "0123456789abcdef"
            func escape(_ b: UInt8) {
                hex.withUTF8Buffer { h in bytes.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, h[Int(b >> 4)], h[Int(b & 15)]]) }
            }
            var i = 0
            let n = utf8.count
            while i < n {
                let b = utf8[i]
                i += 1
                if b == 0xE2, i + 1 < n, utf8[i] == 0x80, utf8[i + 1] == 0xA8 || utf8[i + 1] == 0xA9 {
                    bytes.append(contentsOf: [0x5C, 0x75, 0x32, 0x30, 0x32, utf8[i + 1] == 0xA8 ? 0x38 : 0x39])
                    i += 2
                    continue
                }
                switch b {
                case 0x3C, 0x3E, 0x26: escape(b)
                case 0x22: bytes.append(0x5C); bytes.append(0x22)
                case 0x5C: bytes.append(0x5C); bytes.append(0x5C)
                case 0x0A: bytes.append(0x5C); bytes.append(0x6E)
                case 0x0D: bytes.append(0x5C); bytes.append(0x72)
                case 0x09: bytes.append(0x5C); bytes.append(0x74)
                case 0..<0x20: escape(b)
                default: bytes.append(b)
                }
            }
        }
        bytes.append(0x22)
    }
}
