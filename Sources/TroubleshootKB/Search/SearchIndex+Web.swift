import Foundation
import Dispatch

/// The index in the JSON form the browser loads (docs/search.md, "Web index"): a small
/// metadata file (parameters and glossary, nothing per document), postings shards, one file per
/// token with many records, one file per document with what a shown result needs, and the
/// filter data.
public struct SearchWebExport: Sendable {
    /// `search-meta.json`.
    public var meta: Data
    /// `search-shard-<i>.json` for i in 0..<shards.count.
    public var shards: [Data]
    /// `search-token-<k>.json`: the postings of the k-th token (in token order) with more than
    /// `ownFileRecords` records; its shard names it by k instead of holding its postings.
    public var tokenFiles: [Data] = []
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
    /// Version of the web (JSON) format (4: the metadata holds no per-document data; each
    /// posting record carries its text's field and, once per document and field, the field's
    /// length, so the metadata stays small however many documents there are).
    public static let webFormatVersion = 4

    /// The shard of a token: FNV-1a 32 over its UTF-8 bytes, modulo `shardCount`.
    public static func shard(ofToken token: String, shardCount: Int) -> Int {
        Int(SearchAnalyzer.tokenHash(token) % UInt32(max(1, shardCount)))
    }

    /// Tokens with more records than this get a postings file of their own (`tokenFiles`).
    public static let defaultOwnFileRecords = 128

    /// A power of two so that shards hold about `targetBytes` each, and at most about one token
    /// each (1...65536): small shards, so that a query loads little besides its own tokens.
    /// Tokens with a file of their own count only for their name in the shard.
    public func recommendedShardCount(targetBytes: Int = 8_000, ownFileRecords: Int = SearchIndex.defaultOwnFileRecords) -> Int {
        // Rough size: about 8 characters per record, and the token strings.
        var estimate = 0
        for t in 0..<tokens.count {
            let records = Int(recordCount[t])
            estimate += (records > ownFileRecords ? 8 : records * 8 + 24) + tokens.bytes.count / max(1, tokens.count) + 4
        }
        var count = 1
        while count < 65536 && count * 2 <= max(1, tokens.count) && estimate / count > targetBytes { count *= 2 }
        return count
    }

    /// The web form with `shardCount` shards (default: `recommendedShardCount()`); tokens with
    /// more than `ownFileRecords` records get a file of their own.
    public func webExport(shardCount: Int? = nil, ownFileRecords: Int = SearchIndex.defaultOwnFileRecords) -> SearchWebExport {
        let shardCount = max(1, shardCount ?? recommendedShardCount(ownFileRecords: ownFileRecords))
        let fc = SearchIndex.fieldCount
        let n = ids.count

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
        m.raw("]}\n")

        // Shards: tokens in id order, postings as base-64 varints; shards and documents are
        // written on all cores (each file's bytes depend only on the index, so the output is the
        // same however the work is spread).
        var tokensOfShard = [[Int32]](repeating: [], count: shardCount)
        var ownFile = [Int32](repeating: -1, count: tokens.count)
        var ownFileTokens: [Int32] = []
        for t in 0..<tokens.count {
            tokensOfShard[Int(tokens.hashes[t] % UInt32(shardCount))].append(Int32(t))
            if Int(recordCount[t]) > ownFileRecords { ownFile[t] = Int32(ownFileTokens.count); ownFileTokens.append(Int32(t)) }
        }
        let cap = parameters.maxPositions
        let fileOfToken = ownFile
        /// `"token":[df,idf,"<varints>"]`.
        @Sendable func writeToken(_ t: Int, into w: inout JSONWriter, postings: inout WebVarints) {
            postings.bytes.removeAll(keepingCapacity: true)
            let list = decodePostings(t) ?? PostingList()
            var prevDoc: Int32 = 0
            var prevText: Int32 = 0
            var prevField = -1
            for r in 0..<list.count {
                let d = Int(list.doc[r])
                let text = list.text[r]
                let field = Int(textField[Int(docTextStart[d]) + Int(text)])
                // Records of one document come in text order: a record of the same document as
                // the one before is 2 × (text gap − 1); the first record of a document is
                // 2 × document gap + 1, then its text.
                let sameDoc = r > 0 && Int32(d) == prevDoc && text > prevText
                if sameDoc {
                    postings.append(UInt32(2 * (text - prevText - 1)))
                } else {
                    postings.append(UInt32(2 * (Int32(d) - prevDoc) + 1))
                    postings.append(UInt32(text))
                }
                prevDoc = Int32(d); prevText = text
                // Then tf × 8 + field (fieldCount is 8).
                postings.append(UInt32(list.tf[r]) * UInt32(fc) + UInt32(field))
                // The field's length in d, once per run of records of one document and field
                // (texts are numbered in field order).
                if !(sameDoc && field == prevField) { postings.append(UInt32(fieldLengths[d * fc + field])) }
                prevField = field
                let p0 = Int(list.posStart[r])
                var prev: Int32 = 0
                for k in 0..<min(Int(list.tf[r]), cap) {
                    let p = list.pos[p0 + k]
                    postings.append(UInt32(p - prev)); prev = p
                }
            }
            w.string(tokens.string(t))
            w.raw(":["); w.int(Int(documentFrequency[t])); w.raw(","); w.double(idf[t])
            w.raw(",\""); w.bytes.append(contentsOf: postings.bytes); w.raw("\"]")
        }
        let shardTokens = tokensOfShard
        let shardFiles = UnsafeMutableBufferPointer<Data>.allocate(capacity: shardCount)
        shardFiles.initialize(repeating: Data())
        defer { shardFiles.deinitialize(); shardFiles.deallocate() }
        nonisolated(unsafe) let shardOutput = shardFiles
        DispatchQueue.concurrentPerform(iterations: shardCount) { s in
            var w = JSONWriter()
            w.raw("{\"v\":\(SearchIndex.webFormatVersion),\"t\":{")
            var postings = WebVarints()
            for (k, t32) in shardTokens[s].enumerated() {
                let t = Int(t32)
                if k > 0 { w.raw(",") }
                if fileOfToken[t] >= 0 {
                    w.string(tokens.string(t)); w.raw(":"); w.int(Int(fileOfToken[t]))
                } else {
                    writeToken(t, into: &w, postings: &postings)
                }
            }
            w.raw("}}\n")
            shardOutput[s] = Data(w.bytes)
        }

        let tokenBuffer = UnsafeMutableBufferPointer<Data>.allocate(capacity: ownFileTokens.count)
        tokenBuffer.initialize(repeating: Data())
        defer { tokenBuffer.deinitialize(); tokenBuffer.deallocate() }
        nonisolated(unsafe) let tokenOutput = tokenBuffer
        let bigTokens = ownFileTokens
        DispatchQueue.concurrentPerform(iterations: bigTokens.count) { k in
            var w = JSONWriter()
            var postings = WebVarints()
            w.raw("{\"v\":\(SearchIndex.webFormatVersion),\"t\":{")
            writeToken(Int(bigTokens[k]), into: &w, postings: &postings)
            w.raw("}}\n")
            tokenOutput[k] = Data(w.bytes)
        }

        // Documents: what a shown result needs.
        let docBuffer = UnsafeMutableBufferPointer<Data>.allocate(capacity: n)
        docBuffer.initialize(repeating: Data())
        defer { docBuffer.deinitialize(); docBuffer.deallocate() }
        nonisolated(unsafe) let docOutput = docBuffer
        DispatchQueue.concurrentPerform(iterations: n) { d in
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
            docOutput[d] = Data(w.bytes)
        }
        let docFiles = Array(docBuffer)

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

        return SearchWebExport(meta: Data(m.bytes), shards: Array(shardFiles), tokenFiles: Array(tokenBuffer), docs: docFiles,
                               filters: Data(fw.bytes))
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
        for (k, file) in export.tokenFiles.enumerated() {
            try file.write(to: directory.appendingPathComponent("search-token-\(k).json"))
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
