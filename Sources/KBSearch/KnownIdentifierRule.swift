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
    /// `searched[k]` for each emitted token `k`: false for a part or identifier token (other than
    /// the identifier itself) whose normalised range lies inside the range of a literal
    /// identifier token for which `isKnown` holds; true otherwise (concept tokens included).
    static func searchedTokens(kinds: [UInt8], starts: [Int32], ends: [Int32], literalCount: Int,
                               isKnown: (Int) -> Bool) -> [Bool] {
        var searched = [Bool](repeating: true, count: kinds.count)
        for i in 0..<literalCount where kinds[i] == SearchTokenizer.kindIdentifier && isKnown(i) {
            for k in 0..<literalCount where k != i
                && (kinds[k] == SearchTokenizer.kindPart || kinds[k] == SearchTokenizer.kindIdentifier)
                && starts[k] >= starts[i] && ends[k] <= ends[i] {
                searched[k] = false
            }
        }
        return searched
    }
}
