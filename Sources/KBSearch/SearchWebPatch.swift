import Foundation
import KBCore

/// Rewrites the files of a web export (docs/search.md §6, either framing) that change when
/// document `d` is replaced by a new version with the same id (so the same number and the same
/// number of documents), so that every file equals the one `SearchWebExport.build` makes over
/// the new documents (docs/search.md §6.1). Reads only the files it needs: the metadata, the
/// filters, the old document's file, the shards of the tokens of the old and the new version
/// and their own token files (and, to place a token, a few more shards, token files or document
/// files). Whenever it cannot be sure of a byte it answers `.needsFullBuild`.
public enum SearchWebPatch {
    /// What a patch needs besides the files: made by a full build (`SearchWebExport.patchState`)
    /// or by the previous patch, kept by the caller with the files (e.g. in the build manifest).
    public struct State: Codable, Sendable, Hashable {
        public var formatVersion = SearchWebExport.formatVersion
        public var documentCount: Int
        public var tokenCount: Int
        public var shardCount: Int
        public var tokenFileCount: Int
        public var ownFileRecords: Int
        /// What the recommended shard count weighs: Σ over tokens of name + postings + 32 bytes,
        /// or name + 8 for a token with a file of its own.
        public var inlineBytes: Int
        /// Whether the shard count was given to the build instead of recommended (no patch then).
        public var shardCountRequested: Bool
    }

    public enum Outcome: Sendable {
        /// The files whose bytes change (whole), and the state for the next patch. The set of
        /// files does not change.
        case patched(files: [SearchWebExport.FileName: Data], state: State)
        /// The export must be built again; `reason` says why.
        case needsFullBuild(reason: String)
    }

    /// Why a patch gives up.
    struct Fallback: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// Replaces document `d` of an export of `n` documents made with `parameters`, `glossary`,
    /// `framing` and `ownFileRecords` by `new` (same id). `read` gives the current bytes of a file
    /// (nil when it is missing); its errors are thrown as they are.
    public static func replace(document d: Int, with new: SearchDocument, documentCount n: Int, state: State?,
                               parameters: SearchParameters = .default, glossary: SearchGlossary = .empty,
                               framing: SearchWebExport.Framing,
                               ownFileRecords: Int = SearchWebExport.defaultOwnFileRecords,
                               read: (SearchWebExport.FileName) throws -> Data?) throws -> Outcome {
        try replace(document: d, with: new, documentCount: n, state: state, parameters: parameters, glossary: glossary,
                    framing: framing, ownFileRecords: ownFileRecords, readBytes: { try read($0).map { [UInt8]($0) } })
    }

    /// The same, with `readBytes` giving a file's bytes as an array (read straight into one, no
    /// copy) and `readHead` the first bytes of a file, at most the count given (a token file that
    /// stays as it is is read no further than its first record; default: `readBytes`).
    public static func replace(document d: Int, with new: SearchDocument, documentCount n: Int, state: State?,
                               parameters: SearchParameters = .default, glossary: SearchGlossary = .empty,
                               framing: SearchWebExport.Framing,
                               ownFileRecords: Int = SearchWebExport.defaultOwnFileRecords,
                               readHead: ((SearchWebExport.FileName, Int) throws -> [UInt8]?)? = nil,
                               readBytes read: (SearchWebExport.FileName) throws -> [UInt8]?) throws -> Outcome {
        guard let state else { return .needsFullBuild(reason: "no patch state from an earlier build") }
        return try withoutActuallyEscaping(read) { read in
            var patcher = WebExportPatcher(d: d, n: n, state: state, parameters: parameters, glossary: glossary,
                                           framing: framing, ownFileRecords: ownFileRecords, read: read, readHead: readHead)
            do {
                let (files, state) = try patcher.replace(with: new)
                return .patched(files: files, state: state)
            } catch let fallback as Fallback {
                return .needsFullBuild(reason: fallback.reason)
            }
        }
    }
}
