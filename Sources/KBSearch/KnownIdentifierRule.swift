/// Which of a query's tokens are searched when the query names an identifier (docs/search.md §4,
/// "Known identifiers").
///
/// The tokenizer emits an identifier (`toolbarcolorscheme`) and then its parts (`toolbar`,
/// `color`, `scheme`), so that a name finds text that spells it in words. When the index has the
/// identifier itself, the query is about that API: its parts would only add every entry that
/// mentions a toolbar or a colour, and the postings of those common words. So the parts and the
/// segment identifiers inside an identifier the index has are left out of the query; an
/// identifier the index does not have keeps them. `search-core.js` applies the same rule
/// (`searchedTokens`).
enum KnownIdentifierRule {
    /// For each emitted token `k`: the first literal identifier token for which `isKnown` holds
    /// whose normalised range holds `k`, when `k` is another part or identifier token (so `k` is
    /// left out of the query); nil otherwise (concept tokens included).
    static func leftOutBy(kinds: [UInt8], starts: [Int32], ends: [Int32], literalCount: Int,
                          isKnown: (Int) -> Bool) -> [Int?] {
        var by = [Int?](repeating: nil, count: kinds.count)
        for i in 0..<literalCount where kinds[i] == SearchTokenizer.kindIdentifier && isKnown(i) {
            for k in 0..<literalCount where k != i && by[k] == nil
                && (kinds[k] == SearchTokenizer.kindPart || kinds[k] == SearchTokenizer.kindIdentifier)
                && starts[k] >= starts[i] && ends[k] <= ends[i] {
                by[k] = i
            }
        }
        return by
    }
}

extension SearchIndex {
    /// The rule over a tokenized query: which emitted tokens this index leaves out, and why.
    func leftOutBy(_ tokenizer: SearchTokenizer) -> [Int?] {
        KnownIdentifierRule.leftOutBy(kinds: tokenizer.kinds, starts: tokenizer.normalizedStarts,
                                      ends: tokenizer.normalizedEnds, literalCount: tokenizer.literalCount) {
            tokens.find(tokenizer.string(at: $0)) >= 0
        }
    }

    /// The identifiers of `query` that this index has and that stand for tokens of the query,
    /// each with the tokens left out for it, in query order (`kb search --explain`).
    public func knownIdentifiers(in query: String) -> [(name: String, leftOut: [String])] {
        var tokenizer = SearchTokenizer()
        tokenizer.tokenize(query, mode: .query, glossary: glossary)
        let by = leftOutBy(tokenizer)
        var out: [(name: String, leftOut: [String])] = []
        for k in by.indices {
            guard let i = by[k] else { continue }
            let name = tokenizer.string(at: i), token = tokenizer.string(at: k)
            if let j = out.firstIndex(where: { $0.name == name }) {
                if !out[j].leftOut.contains(token) { out[j].leftOut.append(token) }
            } else {
                out.append((name, [token]))
            }
        }
        return out
    }
}
