import Foundation
import KBCore

/// Query words a document may match without containing them as typed (docs/search.md §4.1): the
/// completions of the word being typed (prefix) and the vocabulary words one edit away from a
/// word the index does not know (typo). Both `kb search` and `search-core.js` apply these rules.
public struct SearchExpansion: Sendable, Hashable {
    /// How the query word reached the vocabulary word.
    public enum Kind: String, Sendable, Hashable {
        case prefix
        case typo
    }

    /// The query token that was expanded.
    public var query: String
    /// The vocabulary token it was expanded to.
    public var token: String
    public var kind: Kind

    public init(query: String, token: String, kind: Kind) {
        self.query = query
        self.token = token
        self.kind = kind
    }
}

/// The numbers of the expansion rules. They are written to the web metadata, so the browser
/// ranks with the same ones.
public enum SearchExpansionRules {
    /// A word being typed is completed from this many scalars on.
    public static let prefixMinLength = 3
    /// A word is corrected from this many scalars on.
    public static let typoMinLength = 5
    /// A word is corrected when it is in at most this many documents.
    public static let typoMaxDocumentFrequency = 1
    /// The vocabulary listed for expansions holds words of at least this many scalars (a completion
    /// is longer than its prefix, a correction at most one scalar shorter than the word).
    public static let vocabularyMinLength = 4
    /// The head key: a word's first scalars. Completions and corrections share it with the query
    /// word, so one vocabulary file answers both.
    public static let headLength = 2
    /// At most this many completions, and corrections, per query word (the most frequent).
    public static let prefixLimit = 5
    public static let typoLimit = 3
    /// Share of an expansion's contribution relative to a literal match of the same frequency.
    public static let prefixWeight = 0.8
    public static let typoWeight = 0.7
    /// Vocabulary files per shard of postings (at least one file).
    public static let shardsPerVocabularyFile = 16

    /// Number of vocabulary files of an export with `shardCount` shards.
    public static func vocabularyFileCount(shardCount: Int) -> Int {
        max(1, shardCount / shardsPerVocabularyFile)
    }

    /// Whether `scalars` have the shape of a word that expands or is listed: every scalar a word
    /// scalar or a dot (docs/search.md §2.1) and at least one a letter (`a`–`z` or class letter).
    static func isWordShaped(_ scalars: [UInt32]) -> Bool {
        var hasLetter = false
        for v in scalars {
            switch SearchScalars.classify(v) {
            case .lower, .letter: hasLetter = true
            case .upper, .digit, .underscore, .dot: break
            default: return false
            }
        }
        return hasLetter
    }

    /// Whether a token of the index is listed in the expansion vocabulary.
    static func isListed(_ scalars: [UInt32]) -> Bool {
        scalars.count >= vocabularyMinLength && isWordShaped(scalars)
    }

    /// The head key of a word: its first `headLength` scalars.
    static func headKey(_ scalars: [UInt32]) -> String {
        var s = String.UnicodeScalarView()
        for v in scalars.prefix(headLength) { s.append(Unicode.Scalar(v)!) }
        return String(s)
    }

    /// The vocabulary file of a head key: FNV-1a 32 of its UTF-8 bytes modulo the file count.
    static func vocabularyFile(ofHead head: String, fileCount: Int) -> Int {
        Int(SearchAnalyzer.tokenHash(head) % UInt32(max(1, fileCount)))
    }

    /// Whether `b` is exactly one insertion, deletion, substitution or transposition of two
    /// adjacent scalars away from `a` (optimal string alignment distance 1).
    static func isOneEdit(_ a: [UInt32], _ b: [UInt32]) -> Bool {
        let m = a.count, n = b.count
        if abs(m - n) > 1 || a == b { return false }
        var i = 0
        while i < m && i < n && a[i] == b[i] { i += 1 }
        if m == n {
            if a[(i + 1)...] == b[(i + 1)...] { return true }
            return i + 1 < m && a[i] == b[i + 1] && a[i + 1] == b[i] && a[(i + 2)...] == b[(i + 2)...]
        }
        return m < n ? a[i...] == b[(i + 1)...] : a[(i + 1)...] == b[i...]
    }

    /// A candidate of the vocabulary: its scalars and document frequency.
    struct Candidate {
        var token: String
        var scalars: [UInt32]
        var df: Int
    }

    /// The expansions of query token `query` (scalars `q`, document frequency `df`, 0 when
    /// unknown), among `candidates` (vocabulary words with the query word's head key), leaving out
    /// `exclude` (the query's literal tokens). `isLast`: the token ends where the query ends.
    static func expansions(of query: String, scalars q: [UInt32], df: Int, isLast: Bool,
                           candidates: [Candidate], exclude: Set<String>) -> [SearchExpansion] {
        guard isWordShaped(q) else { return [] }
        var out: [SearchExpansion] = []
        /// The most frequent first, then by UTF-8 bytes (= scalars).
        func ordered(_ list: [Candidate]) -> [Candidate] {
            list.sorted { $0.df != $1.df ? $0.df > $1.df : $0.scalars.lexicographicallyPrecedes($1.scalars) }
        }
        if isLast && q.count >= prefixMinLength {
            let completions = candidates.filter {
                $0.scalars.count > q.count && $0.scalars.starts(with: q) && !exclude.contains($0.token)
            }
            for c in ordered(completions).prefix(prefixLimit) { out.append(SearchExpansion(query: query, token: c.token, kind: .prefix)) }
        }
        if q.count >= typoMinLength && df <= typoMaxDocumentFrequency {
            let taken = Set(out.map(\.token))
            let corrections = candidates.filter {
                $0.df > df && !taken.contains($0.token) && !exclude.contains($0.token) && isOneEdit(q, $0.scalars)
            }
            for c in ordered(corrections).prefix(typoLimit) { out.append(SearchExpansion(query: query, token: c.token, kind: .typo)) }
        }
        return out
    }

    static func weight(_ kind: SearchExpansion.Kind) -> Double {
        kind == .prefix ? prefixWeight : typoWeight
    }
}
