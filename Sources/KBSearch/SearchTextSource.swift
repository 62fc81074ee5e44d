import KBCore

/// Where an index read from a file finds its documents' texts (the snippets' source). The
/// binary file keeps only a checksum of each document's texts (docs/search.md §7): the texts are
/// the entries' own, so `kb search` reads again, parses and checks the few entries whose results
/// it shows instead of keeping a second copy of every entry's text beside them. The index checks
/// what the source gives against the checksum: texts that do not match (the entry changed since
/// the index was built) are not shown, and the index reports that its entries changed
/// (`SearchIndex.entriesChanged`).
public struct SearchTextSource: Sendable {
    /// The texts of the document with this id, in index order (fields in `SearchField` order,
    /// then list order); nil when there is no such document.
    let texts: @Sendable (_ id: String) -> [String]?

    public init(_ texts: @escaping @Sendable (_ id: String) -> [String]?) {
        self.texts = texts
    }

    /// The texts of documents at hand.
    public static func documents(_ documents: [SearchDocument]) -> SearchTextSource {
        var byID: [String: [String]] = [:]
        for document in documents where byID[document.id] == nil { byID[document.id] = document.textsInIndexOrder }
        let table = byID
        return SearchTextSource { table[$0] }
    }

    /// The entries of an entries folder: the texts of document `id` are those of
    /// `<directory>/<id>/entry.md` (an index is saved only when every id is its folder's name,
    /// lint's `id-mismatch`), parsed as the index build parses it. `files` names another file for
    /// an id (an index built for one command from entries whose ids and folders differ).
    public static func entries(in directory: String, files: [String: String] = [:], parser: EntryParser = EntryParser()) -> SearchTextSource {
        SearchTextSource { id in
            let path = files[id] ?? directory + "/" + id + "/" + EntryLocator.entryFileName
            guard !id.isEmpty, !id.contains("/"), id != ".", id != "..",
                  let bytes = LimitedFileRead.bytes(path, limit: Linter.maximumEntrySize + 1),
                  let entry = parser.parse(bytes: bytes, path: path, folderName: id).entry else { return nil }
            return SearchDocument(entry: entry).textsInIndexOrder
        }
    }
}

extension SearchDocument {
    /// The document's texts as the index numbers them: fields in `SearchField` order, then in
    /// list order.
    public var textsInIndexOrder: [String] {
        SearchField.allCases.flatMap { (fields[$0] ?? []).map(\.text) }
    }
}

/// The bytes a document's texts are checksummed as (docs/search.md §7): per text, its UTF-8
/// length as a varint and its UTF-8 bytes.
enum SearchTextBlock {
    static func append(_ text: String, to bytes: inout [UInt8]) {
        Varint.append(UInt32(text.utf8.count), to: &bytes)
        bytes.append(contentsOf: text.utf8)
    }

    static func checksum(_ texts: [String]) -> UInt64 {
        var bytes: [UInt8] = []
        for text in texts { append(text, to: &bytes) }
        return ContentChecksum.of(bytes[...])
    }
}
