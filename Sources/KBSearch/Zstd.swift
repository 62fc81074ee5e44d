import CZstd

/// Zstandard compression (libzstd) of byte buffers, one frame at a time: the only place the
/// project calls libzstd, so the raw pointers its functions take stay here. Used for the large
/// posting lists and the eager part of the `.kb/index` file (docs/search.md §7).
/// `ZstdTests` checks it against the `zstd` command-line tool both ways.
enum Zstd {
    /// The level the index is written with: libzstd's default, fast to write (hundreds of MB/s).
    static let defaultLevel: Int32 = 3

    /// One frame holding `bytes` (with their length in its header).
    static func compress(_ bytes: UnsafeRawBufferPointer, level: Int32 = defaultLevel) -> [UInt8] {
        let bound = ZSTD_compressBound(bytes.count)
        var out = [UInt8](repeating: 0, count: bound)
        let written = out.withUnsafeMutableBytes { raw in
            ZSTD_compress(raw.baseAddress, bound, bytes.baseAddress, bytes.count, level)
        }
        // Compressing into a buffer of the bound cannot fail (zstd.h); a failure here is a broken library.
        precondition(ZSTD_isError(written) == 0, "ZSTD_compress: \(String(cString: ZSTD_getErrorName(written)))")
        out.removeSubrange(written...)
        return out
    }

    static func compress(_ bytes: [UInt8], level: Int32 = defaultLevel) -> [UInt8] {
        bytes.withUnsafeBytes { compress($0, level: level) }
    }

    /// Appends the content of `frame` to `output` when it is one valid frame whose header says
    /// it holds exactly `rawLength` bytes (as `compress` writes it) and that does; false
    /// otherwise, before anything is reserved when the header says another length or none.
    static func decompress(_ frame: UnsafeRawBufferPointer, rawLength: Int, appendingTo output: inout [UInt8]) -> Bool {
        guard rawLength >= 0, ZSTD_getFrameContentSize(frame.baseAddress, frame.count) == UInt64(rawLength) else { return false }
        let start = output.count
        // One byte more than the content, so the buffer has an address even for an empty frame.
        output.append(contentsOf: repeatElement(0, count: rawLength + 1))
        let got = output.withUnsafeMutableBytes { raw in
            ZSTD_decompress(raw.baseAddress! + start, rawLength, frame.baseAddress, frame.count)
        }
        output.removeLast()
        guard ZSTD_isError(got) == 0, got == rawLength else {
            output.removeSubrange(start...)
            return false
        }
        return true
    }
}
