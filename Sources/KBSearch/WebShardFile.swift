import Foundation
import KBCore

/// A postings file of the web export read back for a patch: a shard
/// (`{"v":5,"t":{token:[df,idf,"<postings>"] or k,…}}`) or a token's own file (the same with one
/// token), split into its entries without decoding them. Keys stay in their JSON form (the export
/// writes each token's one escaped form, so a token is found by its escaped bytes).
struct WebShardFile {
    /// What a token maps to.
    enum Value {
        /// `[df,idf,"<postings>"]`: df, and where idf and the postings are in `bytes`.
        case postings(df: Int, idf: Range<Int>, postings: Range<Int>)
        /// The number of the token's own file.
        case ownFile(Int)
    }

    struct Entry {
        /// The key with its quotes, and the whole entry (`"key":value`), in `bytes`.
        var key: Range<Int>
        var whole: Range<Int>
        var value: Value
    }

    let bytes: [UInt8]
    private(set) var entries: [Entry] = []
    /// Entry index by key bytes (with quotes).
    private(set) var index: [[UInt8]: Int] = [:]

    /// Reads a file of `name` with `framing`; nil when it is not of the expected form.
    init?(_ bytes: [UInt8], name: SearchWebExport.FileName, framing: SearchWebExport.Framing) {
        self.bytes = bytes
        guard var cursor = Cursor(bytes, name: name, framing: framing) else { return nil }
        if !cursor.expect("}") {
            while true {
                guard let (key, value) = cursor.entry() else { return nil }
                let keyBytes = Array(bytes[key])
                guard index[keyBytes] == nil else { return nil }
                index[keyBytes] = entries.count
                entries.append(Entry(key: key, whole: key.lowerBound..<cursor.p, value: value))
                if cursor.expect(",") { continue }
                guard cursor.expect("}") else { return nil }
                break
            }
        }
        guard cursor.expect("}"), cursor.p == cursor.end else { return nil }
    }

    /// The start of a token's own file, read no further than the first bytes of its postings: its
    /// key (with quotes), df, idf, and `postings`, from where the postings start to the end of the
    /// file's JSON (the postings' closing quote and brackets included, so a reader of the first
    /// records stops before it). For a token whose postings stay as they are.
    struct OwnFileHead {
        var key: Range<Int>
        var df: Int
        var idf: Range<Int>
        var postings: Range<Int>
    }

    /// `bytes` may be the start of the file only (`isPrefix`): its end is then not checked, and
    /// `postings` ends where the bytes do.
    static func ownFileHead(_ bytes: [UInt8], name: SearchWebExport.FileName, framing: SearchWebExport.Framing,
                            isPrefix: Bool = false) -> OwnFileHead? {
        guard var cursor = Cursor(bytes, name: name, framing: framing, isPrefix: isPrefix), let key = cursor.key(), cursor.expect(":["),
              let (df, idf) = cursor.dfAndIdf(), cursor.expect("\"") else { return nil }
        return OwnFileHead(key: key, df: df, idf: idf, postings: cursor.p..<cursor.end)
    }

    /// Reads the JSON of a postings file from its start: `{"v":<version>,"t":{` is read on creation.
    private struct Cursor {
        let bytes: [UInt8]
        var p: Int
        let end: Int

        init?(_ bytes: [UInt8], name: SearchWebExport.FileName, framing: SearchWebExport.Framing, isPrefix: Bool = false) {
            guard let body = isPrefix ? WebFraming.bodyStart(of: bytes, name: name, framing: framing).map({ $0..<bytes.count })
                                      : WebFraming.body(of: bytes, name: name, framing: framing) else { return nil }
            self.bytes = bytes
            p = body.lowerBound
            end = body.upperBound
            guard expect("{\"v\":\(SearchWebExport.formatVersion),\"t\":{") else { return nil }
        }

        mutating func expect(_ s: String) -> Bool {
            let start = p
            for c in s.utf8 {
                guard p < end, bytes[p] == c else { p = start; return false }
                p += 1
            }
            return true
        }

        /// Reads up to (not including) `stop` (found with memchr: postings run to hundreds of kilobytes).
        mutating func until(_ stop: UInt8) -> Range<Int>? {
            let start = p
            guard let k = ByteSearch.firstIndex(of: stop, in: bytes, from: p), k < end else {
                p = end
                return nil
            }
            p = k
            return start..<k
        }

        /// A JSON string, with its quotes.
        mutating func key() -> Range<Int>? {
            let start = p
            guard p < end, bytes[p] == UInt8(ascii: "\"") else { return nil }
            p += 1
            while p < end && bytes[p] != UInt8(ascii: "\"") { p += bytes[p] == UInt8(ascii: "\\") ? 2 : 1 }
            guard p < end else { return nil }
            p += 1
            return start..<p
        }

        /// `df,idf,` (after the opening bracket).
        mutating func dfAndIdf() -> (df: Int, idf: Range<Int>)? {
            guard let dfRange = until(UInt8(ascii: ",")), let df = WebShardFile.int(bytes[dfRange]) else { return nil }
            p += 1
            guard let idf = until(UInt8(ascii: ",")), !idf.isEmpty else { return nil }
            p += 1
            return (df, idf)
        }

        /// `"key":[df,idf,"<postings>"]` or `"key":k`.
        mutating func entry() -> (key: Range<Int>, value: Value)? {
            guard let key = key(), expect(":") else { return nil }
            if expect("[") {
                guard let (df, idf) = dfAndIdf(), expect("\""), let postings = until(UInt8(ascii: "\"")) else { return nil }
                p += 1
                guard expect("]") else { return nil }
                return (key, .postings(df: df, idf: idf, postings: postings))
            }
            let digits = p
            while p < end && bytes[p] >= UInt8(ascii: "0") && bytes[p] <= UInt8(ascii: "9") { p += 1 }
            guard let k = WebShardFile.int(bytes[digits..<p]) else { return nil }
            return (key, .ownFile(k))
        }
    }

    /// A decimal number without sign or leading zeros.
    static func int(_ digits: ArraySlice<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.count < 19, digits.count == 1 || digits.first != UInt8(ascii: "0") else { return nil }
        var v = 0
        for c in digits {
            guard c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") else { return nil }
            v = v * 10 + Int(c - UInt8(ascii: "0"))
        }
        return v
    }

    /// Writes a postings file with `framing`: its entries (each `"key":value` in JSON) in order.
    static func write(_ name: SearchWebExport.FileName, framing: SearchWebExport.Framing, entries: [ArraySlice<UInt8>]) -> [UInt8] {
        var w = JSONWriter()
        WebFraming.open(&w, name, framing)
        w.raw("{\"v\":"); w.int(SearchWebExport.formatVersion); w.raw(",\"t\":{")
        for (i, entry) in entries.enumerated() {
            if i > 0 { w.raw(",") }
            w.bytes.append(contentsOf: entry)
        }
        w.raw("}}")
        WebFraming.close(&w, framing)
        return w.bytes
    }

    /// `"key":[df,idf,"<postings>"]` as the export writes it.
    static func entry(key: [UInt8], df: Int, idf: Double, postings: [UInt8]) -> [UInt8] {
        var w = JSONWriter()
        w.bytes = key
        w.raw(":["); w.int(df); w.raw(","); w.double(idf); w.raw(",\"")
        w.bytes.append(contentsOf: postings)
        w.raw("\"]")
        return w.bytes
    }
}

/// The wrapping of the web export's files (`SearchWebExport.open`, `close`): nothing and a
/// newline for JSON; `__kbSearchData("kind",n,` and `);` and a newline for scripts.
enum WebFraming {
    static func open(_ w: inout JSONWriter, _ name: SearchWebExport.FileName, _ framing: SearchWebExport.Framing) {
        guard framing == .script else { return }
        w.raw("__kbSearchData(\""); w.raw(name.kind); w.raw("\","); w.int(name.number); w.raw(",")
    }

    static func close(_ w: inout JSONWriter, _ framing: SearchWebExport.Framing) {
        if framing == .script { w.raw(");") }
        w.raw("\n")
    }

    /// Where the JSON of a file starts, when `bytes` (the file or its start) open as the file should.
    static func bodyStart(of bytes: [UInt8], name: SearchWebExport.FileName, framing: SearchWebExport.Framing) -> Int? {
        var w = JSONWriter()
        open(&w, name, framing)
        return bytes.starts(with: w.bytes) ? w.bytes.count : nil
    }

    /// Where the JSON of a file is, or nil when the wrapping is not the expected one.
    static func body(of bytes: [UInt8], name: SearchWebExport.FileName, framing: SearchWebExport.Framing) -> Range<Int>? {
        var w = JSONWriter()
        open(&w, name, framing)
        let prefix = w.bytes
        w = JSONWriter()
        close(&w, framing)
        let suffix = w.bytes
        guard bytes.count >= prefix.count + suffix.count,
              bytes[0..<prefix.count].elementsEqual(prefix),
              bytes[(bytes.count - suffix.count)...].elementsEqual(suffix) else { return nil }
        return prefix.count..<(bytes.count - suffix.count)
    }
}
