import KBCore
import KBSearch
import KBScenarios
extension HighlightGrammar {
    /// Plain text: labelled, never coloured.
    static let plainText = HighlightGrammar(label: "Text", names: ["text", "txt", "plain", "plaintext"], rules: [], words: [:])
}
