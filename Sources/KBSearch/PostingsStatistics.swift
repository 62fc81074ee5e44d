import Foundation
import KBCore

/// The BM25F statistics of an index (docs/search.md §3), the same for both index forms: the
/// average length of each field and the IDF of each token.
struct PostingsStatistics {
    let averageFieldLengths: [Double]
    let idf: [Double]
    /// IDF of a token that is in no document.
    let idfUnknown: Double

    init(documentCount n: Int, documentFrequency: [Int32], totalFieldLength: [Int]) {
        averageFieldLengths = totalFieldLength.map { n == 0 ? 0 : Double($0) / Double(n) }
        idf = documentFrequency.map { Self.idf(df: Double($0), n: Double(n)) }
        idfUnknown = Self.idf(df: 0, n: Double(n))
    }

    static func idf(df: Double, n: Double) -> Double {
        log(1 + (n - df + 0.5) / (df + 0.5))
    }
}
