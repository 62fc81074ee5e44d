import Foundation
import KBCore

/// The metadata file of the web export (`search-meta.json`, docs/search.md §6): the format,
/// the ranking parameters and statistics that are not per token, the expansion rules and the
/// glossary; nothing per document.
struct WebMetaFile {
    var parameters: SearchParameters
    var glossary: SearchGlossary
    var averageFieldLengths: [Double]
    var documentCount: Int
    var tokenCount: Int
    var shardCount: Int

    /// The file's bytes with `framing`.
    func bytes(framing: SearchWebExport.Framing) -> Data {
        let version = SearchWebExport.formatVersion
        let n = documentCount, v = tokenCount
        let idfUnknown = PostingsStatistics.idf(df: 0, n: Double(n))
        var m = WebBytes()
        SearchWebExport.open(&m, framing, "meta", 0)
        m.raw("{\"format\":\"kb-search\",\"version\":"); m.int(version)
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
        m.raw(",\"tokenCount\":"); m.int(v)
        m.raw(",\"shardCount\":"); m.int(shardCount)
        m.raw(",\"expansion\":{\"vocabularyFiles\":"); m.int(SearchExpansionRules.vocabularyFileCount(shardCount: shardCount))
        m.raw(",\"headLength\":"); m.int(SearchExpansionRules.headLength)
        m.raw(",\"vocabularyMinLength\":"); m.int(SearchExpansionRules.vocabularyMinLength)
        m.raw(",\"prefixMinLength\":"); m.int(SearchExpansionRules.prefixMinLength)
        m.raw(",\"prefixLimit\":"); m.int(SearchExpansionRules.prefixLimit)
        m.raw(",\"prefixWeight\":"); m.double(SearchExpansionRules.prefixWeight)
        m.raw(",\"typoMinLength\":"); m.int(SearchExpansionRules.typoMinLength)
        m.raw(",\"typoMaxDf\":"); m.int(SearchExpansionRules.typoMaxDocumentFrequency)
        m.raw(",\"typoLimit\":"); m.int(SearchExpansionRules.typoLimit)
        m.raw(",\"typoWeight\":"); m.double(SearchExpansionRules.typoWeight)
        m.raw("}")
        m.raw(",\"glossary\":[")
        for (i, c) in glossary.concepts.enumerated() {
            if i > 0 { m.raw(",") }
            m.raw("{\"id\":"); m.string(c.id); m.raw(",\"name\":"); m.string(c.name); m.raw(",\"terms\":[")
            for (j, t) in c.terms.enumerated() { if j > 0 { m.raw(",") }; m.string(t) }
            m.raw("]}")
        }
        m.raw("]}")
        SearchWebExport.close(&m, framing)
        return m.take()
    }
}

extension WebMetaFile {
    /// The file of an export with these statistics.
    init(parameters: SearchParameters, glossary: SearchGlossary, statistics: PostingsStatistics, documentCount: Int,
         tokenCount: Int, shardCount: Int) {
        self.init(parameters: parameters, glossary: glossary, averageFieldLengths: statistics.averageFieldLengths,
                  documentCount: documentCount, tokenCount: tokenCount, shardCount: shardCount)
    }
}
