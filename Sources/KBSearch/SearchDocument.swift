import Foundation
import KBCore

/// The fields of an indexed document, in index order.
public enum SearchField: Int, CaseIterable, Sendable, Codable, Hashable {
    case title, symptoms, apis, problem, attempts, fix, body
    /// Fenced code blocks: sample code, commands and their output.
    case code

    /// The field's name in index files and docs/search.md.
    public var name: String {
        switch self {
        case .title: "title"
        case .symptoms: "symptoms"
        case .apis: "apis"
        case .problem: "problem"
        case .attempts: "attempts"
        case .fix: "fix"
        case .body: "body"
        case .code: "code"
        }
    }

    public init?(name: String) {
        guard let f = SearchField.allCases.first(where: { $0.name == name }) else { return nil }
        self = f
    }
}

/// A piece of text in a field, with the anchor and label a result can point at
/// (e.g. anchor `attempt-2`, label `시도 2 — 결과`).
public struct FieldText: Hashable, Sendable, Codable {
    public var text: String
    public var anchor: String?
    public var label: String?

    public init(_ text: String, anchor: String? = nil, label: String? = nil) {
        self.text = text
        self.anchor = anchor
        self.label = label
    }
}

/// A document to index; independent of the entry format.
public struct SearchDocument: Sendable {
    public var id: String
    public var lang: String
    public var tags: [String]
    public var status: String
    public var title: String
    /// Where the static site shows the document; exported as is (may be nil).
    public var url: String?
    public var fields: [SearchField: [FieldText]]

    public init(id: String, lang: String, tags: [String] = [], status: String = "", title: String,
                url: String? = nil, fields: [SearchField: [FieldText]]) {
        self.id = id
        self.lang = lang
        self.tags = tags
        self.status = status
        self.title = title
        self.url = url
        self.fields = fields
    }
}

/// Restricts a search. Empty lists do not restrict.
public struct SearchFilters: Sendable, Hashable {
    /// Language tags; `zh` matches `zh-Hans` and `zh-Hant` (prefix up to a `-`), comparison ignores case.
    public var langs: [String]
    /// Every listed tag must be present.
    public var tags: [String]
    /// One of the listed statuses.
    public var statuses: [String]

    public init(langs: [String] = [], tags: [String] = [], statuses: [String] = []) {
        self.langs = langs
        self.tags = tags
        self.statuses = statuses
    }

    public static let none = SearchFilters()

    func accepts(lang: String, tags docTags: [String], status: String) -> Bool {
        if !langs.isEmpty && !langs.contains(where: { LanguageTag.matches(lang, range: $0) }) { return false }
        for t in tags where !docTags.contains(t) { return false }
        if !statuses.isEmpty && !statuses.contains(status) { return false }
        return true
    }
}

/// Ranking parameters (docs/search.md, "Ranking").
public struct SearchParameters: Sendable, Hashable, Codable {
    public var k1: Double = 1.2
    public var b: Double = 0.75
    /// Weight of the phrase bonus: the score is multiplied by `1 + beta * adjacency`.
    public var beta: Double = 0.5
    /// Per-field weights in `SearchField` order.
    public var fieldWeights: [Double] = [3, 3, 2.5, 1.5, 1.2, 1.2, 1, 0.5]
    /// Positions stored per (token, field text); later occurrences count for tf only.
    public var maxPositions: Int = 8
    /// Multiplies what a glossary concept contributes for a query token (and its best-text
    /// weight), which is already scored at the smaller of the token's and the concept's idf; at 1 a
    /// concept match counts like a literal token as rare as the concept (docs/search.md §10.3).
    public var conceptWeight: Double = 1.0

    public init() {}

    public static let `default` = SearchParameters()
}

/// A piece of text around the matches, with ranges to highlight.
public struct SearchSnippet: Sendable, Hashable {
    public var text: String
    /// Ranges in Unicode scalar offsets of `text`.
    public var highlights: [Range<Int>]
    /// True when `text` starts after the beginning or ends before the end of the field text.
    public var truncatedStart: Bool
    public var truncatedEnd: Bool

    /// `highlights` as `String.Index` ranges of `text`.
    public var highlightRanges: [Range<String.Index>] {
        let scalars = text.unicodeScalars
        var indexes: [String.Index] = []
        indexes.reserveCapacity(scalars.count + 1)
        var i = scalars.startIndex
        while i < scalars.endIndex { indexes.append(i); i = scalars.index(after: i) }
        indexes.append(scalars.endIndex)
        return highlights.map { indexes[$0.lowerBound]..<indexes[$0.upperBound] }
    }
}

/// One search hit.
public struct SearchResult: Sendable, Hashable {
    public var id: String
    public var score: Double
    /// Index of the document in the index (documents are sorted by id).
    public var docIndex: Int
    /// The best-matching field text.
    public var field: SearchField
    /// Index of the best text among the document's texts (fields in `SearchField` order).
    public var textIndex: Int
    public var anchor: String?
    public var label: String?
    public var snippet: SearchSnippet?
    /// Ids of the glossary concepts through which the document matched query words it does not
    /// contain itself (in query order); empty when every matched word is literal.
    public var viaGlossary: [String] = []
    /// The prefix and typo expansions through which the document matched query words it does
    /// not contain itself (in query order); empty when every matched word is as typed.
    public var viaExpansions: [SearchExpansion] = []
}
