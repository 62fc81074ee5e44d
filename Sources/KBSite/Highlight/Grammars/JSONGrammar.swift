import KBCore
import KBSearch
import KBScenarios
extension HighlightGrammar {
    /// JSON: keys (strings before `:`), strings, numbers, `true`, `false`, `null`.
    static let json = HighlightGrammar(
        label: "JSON",
        names: ["json", "jsonc", "json5"],
        rules: [
            .string(open: "\"", close: "\"", keyClass: .attribute),
            .number,
            .word,
        ],
        words: [.keyword: ["true", "false", "null"]])
}
