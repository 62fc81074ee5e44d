import Foundation
import KBCore

/// A document file of the web export (`search-doc-<d>.json`, docs/search.md §6): what a shown
/// result needs, `{"id","title"(when not the first text),"lang","url","texts":[[field,text,label,anchor]…]}`
/// with trailing nulls left out of each text.
enum WebDocumentFile {
    /// The file of document `d` with `framing`; `textCount` and `textBytes` (the number of its
    /// texts and their UTF-8 length) size the buffer.
    static func bytes(_ doc: SearchDocument, number d: Int, textCount: Int, textBytes: Int,
                      framing: SearchWebExport.Framing) -> Data {
        var w = WebBytes(capacity: textBytes + textBytes / 8 + 64 * textCount + 256)
        SearchWebExport.open(&w, framing, "doc", d)
        w.raw("{\"id\":"); w.string(doc.id)
        let texts = SearchField.allCases.compactMap { field in doc.fields[field].map { (field, $0) } }
        let firstText = texts.lazy.compactMap(\.1.first).first?.text
        if doc.title != firstText { w.raw(",\"title\":"); w.string(doc.title) }
        w.raw(",\"lang\":"); w.string(doc.lang)
        w.raw(",\"url\":"); if let u = doc.url { w.string(u) } else { w.raw("null") }
        w.raw(",\"texts\":[")
        var k = 0
        for (field, list) in texts {
            for ft in list {
                if k > 0 { w.raw(",") }
                w.raw("["); w.int(field.rawValue); w.raw(","); w.string(ft.text)
                if ft.label != nil || ft.anchor != nil {
                    w.raw(",")
                    if let l = ft.label { w.string(l) } else { w.raw("null") }
                    if let a = ft.anchor { w.raw(","); w.string(a) }
                }
                w.raw("]")
                k += 1
            }
        }
        w.raw("]}")
        SearchWebExport.close(&w, framing)
        return w.take()
    }
}
