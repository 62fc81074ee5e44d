import CZlib

/// Raw deflate streams (RFC 1951, no zlib or gzip wrapper) through zlib: the only place the
/// project calls zlib, so the `z_stream` and its raw pointers stay here. Used to pack the site's
/// document and token files (`WebPacking`, docs/search.md §6), which browsers unpack with
/// `DecompressionStream("deflate-raw")`. `DeflateTests` checks it against node's zlib both ways.
enum Deflate {
    /// The level the site's files are packed with: zlib's default, within 0.1 % of level 9's
    /// size on the web export and a fifth faster (level 1 is 5 % larger).
    static let defaultLevel: Int32 = 6

    /// One raw deflate stream of the bytes of `pieces`, in order. The output depends only on the
    /// bytes (not on how they are cut into pieces) and on zlib's version.
    static func compress(_ pieces: [UnsafeRawBufferPointer], level: Int32 = defaultLevel) -> [UInt8] {
        var stream = z_stream()
        // Fails only for bad parameters or without memory: a broken library or process.
        precondition(kb_deflate_raw_init(&stream, level) == Z_OK, "deflateInit2 failed")
        defer { deflateEnd(&stream) }
        let total = pieces.reduce(0) { $0 + $1.count }
        var out = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(total))) + 16)
        var written = 0
        out.withUnsafeMutableBytes { raw in
            let base = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            for (i, piece) in pieces.enumerated() {
                let last = i == pieces.count - 1
                if piece.isEmpty && !last { continue }
                stream.next_in = UnsafeMutablePointer(mutating: piece.baseAddress?.assumingMemoryBound(to: UInt8.self))
                stream.avail_in = UInt32(piece.count)
                stream.next_out = base + written
                stream.avail_out = UInt32(raw.count - written)
                let status = deflate(&stream, last ? Z_FINISH : Z_NO_FLUSH)
                written = raw.count - Int(stream.avail_out)
                // The buffer holds deflateBound's worst case for all the input, so every piece is
                // consumed and the last one finishes the stream.
                precondition(stream.avail_in == 0 && status == (last ? Z_STREAM_END : Z_OK), "deflate: \(status)")
            }
            if pieces.isEmpty {
                stream.next_out = base
                stream.avail_out = UInt32(raw.count)
                precondition(deflate(&stream, Z_FINISH) == Z_STREAM_END, "deflate of nothing")
                written = raw.count - Int(stream.avail_out)
            }
        }
        out.removeSubrange(written...)
        return out
    }

    static func compress(_ bytes: [UInt8], level: Int32 = defaultLevel) -> [UInt8] {
        bytes.withUnsafeBytes { compress([$0], level: level) }
    }

    /// The bytes of `stream` when it is one complete raw deflate stream, with nothing after it,
    /// that unpacks to at most `limit` bytes; nil otherwise (damaged, cut short, or too large:
    /// memory is reserved as the output grows, never more than `limit` and a block).
    static func decompress(_ stream: [UInt8], limit: Int) -> [UInt8]? {
        var z = z_stream()
        guard kb_inflate_raw_init(&z) == Z_OK else { return nil }
        defer { inflateEnd(&z) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        return stream.withUnsafeBytes { input -> [UInt8]? in
            z.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: UInt8.self))
            z.avail_in = UInt32(input.count)
            while true {
                let (status, produced) = chunk.withUnsafeMutableBytes { raw -> (Int32, Int) in
                    z.next_out = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
                    z.avail_out = UInt32(raw.count)
                    let status = inflate(&z, Z_NO_FLUSH)
                    return (status, raw.count - Int(z.avail_out))
                }
                guard status == Z_OK || status == Z_STREAM_END, out.count + produced <= limit else { return nil }
                out.append(contentsOf: chunk[0..<produced])
                if status == Z_STREAM_END { return z.avail_in == 0 ? out : nil }
                // No progress with input left means a stream cut short.
                if produced == 0 && z.avail_in == 0 { return nil }
            }
        }
    }
}
