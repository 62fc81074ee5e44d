import Foundation
import KBCore

extension SearchWebExport {
    /// A file of the web export (docs/search.md §6), named by kind and number.
    public enum FileName: Hashable, Sendable, Comparable, CustomStringConvertible {
        case meta
        case shard(Int)
        case token(Int)
        case doc(Int)
        case filters
        case vocabulary(Int)

        /// The kind as the script files name it (`__kbSearchData(kind, n, …)`).
        var kind: StaticString {
            switch self {
            case .meta: "meta"
            case .shard: "shard"
            case .token: "token"
            case .doc: "doc"
            case .filters: "filters"
            case .vocabulary: "vocab"
            }
        }

        /// The number the script files pass (0 for meta and filters).
        var number: Int {
            switch self {
            case .meta, .filters: 0
            case .shard(let k), .token(let k), .doc(let k), .vocabulary(let k): k
            }
        }

        /// The name of the file with `framing`: `search-shard-3.json`, or `shard-3.js` (the
        /// static site keeps the script files in its `search/` folder).
        public func name(_ framing: Framing) -> String {
            let base = switch self {
            case .meta: "meta"
            case .shard(let k): "shard-\(k)"
            case .token(let k): "token-\(k)"
            case .doc(let k): "doc-\(k)"
            case .filters: "filters"
            case .vocabulary(let k): "vocab-\(k)"
            }
            return framing == .script ? base + ".js" : "search-" + base + ".json"
        }

        /// The script file's path in the static site: `search/shard-3.js`.
        public var sitePath: String { "search/" + name(.script) }

        public var description: String { name(.json) }
    }

    /// Every file of the export by name (empty collections when the build handed its document,
    /// shard or token files to a sink instead of keeping them).
    public var files: [FileName: Data] {
        var files: [FileName: Data] = [.meta: meta, .filters: filters]
        for (i, data) in shards.enumerated() { files[.shard(i)] = data }
        for (k, data) in tokenFiles.enumerated() { files[.token(k)] = data }
        for (d, data) in docs.enumerated() { files[.doc(d)] = data }
        for (i, data) in vocabularies.enumerated() { files[.vocabulary(i)] = data }
        return files
    }
}
