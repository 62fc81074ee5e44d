import KBCore
/// The field length BM25F normalises by, quantized (docs/search.md §3.1): lengths 0–15 are
/// kept exactly, longer ones fall into 8 buckets per doubling (3 mantissa bits, as Lucene's
/// `SmallFloat.longToInt4`), each scored as its lower end. The web postings store the code
/// (`WebPostings`), the binary index the scored length, so a small edit of a long field usually
/// leaves every record of the document as it was; JS has the same functions in search-core.js.
enum SearchFieldLength {
    /// Bits kept after a length's leading bit: 2^3 = 8 buckets per doubling.
    static let mantissaBits = 3
    /// Lengths below this (16: every bit kept) are their own code and scored exactly.
    static let exactBelow = 2 << mantissaBits

    /// The code of a length (≥ 0): the length itself below `exactBelow`, else
    /// `exactBelow + 8 × (e − 4) + m` where `2^e ≤ length < 2^(e+1)` and `m` is the 3 bits
    /// after the length's leading bit.
    static func code(_ length: Int) -> Int {
        guard length >= exactBelow else { return max(0, length) }
        let e = Int.bitWidth - 1 - length.leadingZeroBitCount
        let shift = e - mantissaBits
        let mantissa = (length >> shift) & ((1 << mantissaBits) - 1)
        return exactBelow + ((shift - 1) << mantissaBits) + mantissa
    }

    /// The length a code stands for in scoring: the smallest length with that code.
    static func length(_ code: Int) -> Int {
        guard code >= exactBelow else { return code }
        let shift = ((code - exactBelow) >> mantissaBits) + 1
        let mantissa = (code - exactBelow) & ((1 << mantissaBits) - 1)
        return ((1 << mantissaBits) | mantissa) << shift
    }

    /// The length scoring uses for an exact length: `length(code(length))`.
    static func scored(_ length: Int) -> Int { self.length(code(length)) }
}
