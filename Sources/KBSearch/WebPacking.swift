import Foundation

/// The site's packed search files (docs/search.md §6, "Packed files"). A document or token file
/// in script framing, `__kbSearchData("doc",5,{…});` and a newline, is written as
/// `__kbSearchData("doc",5,"<base64>");` and a newline: the base64 (RFC 4648, padded) of the raw
/// deflate stream (`Deflate`) of its JSON. They are half the export's bytes on disk, and what a
/// query loads stays the same once a server compresses it. `search-core.js` unpacks a string it
/// is handed with `DecompressionStream("deflate-raw")`.
///
/// Packing is a matter of storage: the export and the patcher (`SearchWebPatch`) make, read and
/// compare unpacked files, and the site packs a file as it writes it and unpacks one as it reads
/// it, so the bytes on disk are a function of the unpacked bytes.
public enum WebPacking {
    /// Whether the site packs the file: document and token files, the bulk of the export.
    public static func packs(_ name: SearchWebExport.FileName) -> Bool {
        switch name {
        case .doc, .token: true
        case .meta, .shard, .filters, .vocabulary: false
        }
    }

    /// The packed file of the unpacked script file whose bytes are `pieces` in order; nil when
    /// they do not open and close as that file should.
    public static func pack(_ pieces: [UnsafeRawBufferPointer], name: SearchWebExport.FileName) -> Data? {
        let (open, close) = framing(name)
        let total = pieces.reduce(0) { $0 + $1.count }
        guard total >= open.count + close.count,
              prefix(of: pieces, count: open.count) == open,
              suffix(of: pieces, count: close.count) == close else { return nil }
        let json = Deflate.compress(slice(pieces, from: open.count, to: total - close.count))
        var out = Data(open)
        out.append(UInt8(ascii: "\""))
        out.append(Data(json).base64EncodedData())
        out.append(UInt8(ascii: "\""))
        out.append(contentsOf: close)
        return out
    }

    /// `pack` of a file in one piece.
    public static func pack(_ file: Data, name: SearchWebExport.FileName) -> Data? {
        file.withUnsafeBytes { pack([$0], name: name) }
    }

    /// The unpacked file, when `bytes` is a packed file of `name` whose JSON is at most `limit`
    /// bytes; nil otherwise.
    public static func unpack(_ bytes: [UInt8], name: SearchWebExport.FileName, limit: Int = 1 << 30) -> [UInt8]? {
        let (open, close) = framing(name)
        guard bytes.count >= open.count + close.count + 2, bytes.starts(with: open),
              bytes[(bytes.count - close.count)...].elementsEqual(close),
              bytes[open.count] == UInt8(ascii: "\""), bytes[bytes.count - close.count - 1] == UInt8(ascii: "\""),
              let stream = Data(base64Encoded: Data(bytes[(open.count + 1)..<(bytes.count - close.count - 1)])),
              let json = Deflate.decompress([UInt8](stream), limit: limit) else { return nil }
        return open + json + close
    }

    /// What opens and closes the script file of `name`: `__kbSearchData("doc",5,` and `);\n`.
    private static func framing(_ name: SearchWebExport.FileName) -> (open: [UInt8], close: [UInt8]) {
        var w = JSONWriter()
        WebFraming.open(&w, name, .script)
        var c = JSONWriter()
        WebFraming.close(&c, .script)
        return (w.bytes, c.bytes)
    }

    private static func prefix(of pieces: [UnsafeRawBufferPointer], count: Int) -> [UInt8] {
        var out: [UInt8] = []
        for piece in pieces where out.count < count { out.append(contentsOf: piece.prefix(count - out.count)) }
        return out
    }

    private static func suffix(of pieces: [UnsafeRawBufferPointer], count: Int) -> [UInt8] {
        var out: [UInt8] = []
        for piece in pieces.reversed() where out.count < count { out.insert(contentsOf: piece.suffix(count - out.count), at: 0) }
        return out
    }

    /// The bytes `start..<end` of the pieces' concatenation, as slices of the pieces.
    private static func slice(_ pieces: [UnsafeRawBufferPointer], from start: Int, to end: Int) -> [UnsafeRawBufferPointer] {
        var out: [UnsafeRawBufferPointer] = []
        var offset = 0
        for piece in pieces {
            let lo = max(start, offset), hi = min(end, offset + piece.count)
            if lo < hi { out.append(UnsafeRawBufferPointer(rebasing: piece[(lo - offset)..<(hi - offset)])) }
            offset += piece.count
        }
        return out
    }
}
