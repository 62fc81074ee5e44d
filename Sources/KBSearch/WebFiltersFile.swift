import Foundation
import KBCore

/// The filter file of the web export (`search-filters.json`, docs/search.md §6): the distinct
/// values, then per document its language, status and tags as indexes into them, as base-64
/// varints (`WebVarints`). Loaded only to filter.
struct WebFiltersFile {
    /// What the filters keep of a document.
    struct Document: Equatable {
        var lang = ""
        var status = ""
        var tags: [String] = []

        init() {}

        init(lang: String, status: String, tags: [String]) {
            self.lang = lang
            self.status = status
            self.tags = tags
        }

        init(_ document: SearchDocument) {
            self.init(lang: document.lang, status: document.status, tags: document.tags)
        }
    }

    /// Per document, in document order.
    var documents: [Document]

    /// The file's bytes with `framing`.
    func bytes(framing: SearchWebExport.Framing) -> Data {
        var values: [String] = []
        var valueIndex: [String: Int] = [:]
        func value(_ s: String) -> UInt32 {
            if let i = valueIndex[s] { return UInt32(i) }
            valueIndex[s] = values.count
            values.append(s)
            return UInt32(values.count - 1)
        }
        var filterDocs = WebVarints()
        for document in documents {
            filterDocs.append(value(document.lang))
            filterDocs.append(value(document.status))
            filterDocs.append(UInt32(document.tags.count))
            for t in document.tags { filterDocs.append(value(t)) }
        }
        var fw = WebBytes()
        SearchWebExport.open(&fw, framing, "filters", 0)
        fw.raw("{\"v\":"); fw.int(SearchWebExport.formatVersion); fw.raw(",\"values\":[")
        for (i, v) in values.enumerated() { if i > 0 { fw.raw(",") }; fw.string(v) }
        fw.raw("],\"docs\":\"")
        fw.append(filterDocs.bytes)
        fw.raw("\"}")
        SearchWebExport.close(&fw, framing)
        return fw.take()
    }
}
