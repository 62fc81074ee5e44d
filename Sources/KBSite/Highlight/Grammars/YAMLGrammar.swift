import KBCore
import KBSearch
import KBScenarios
extension HighlightGrammar {
    /// YAML: keys, `#` comments where a word starts, quoted strings, numbers, booleans and null,
    /// anchors, aliases, tags and document markers.
    static let yaml = HighlightGrammar(
        label: "YAML",
        names: ["yaml", "yml"],
        rules: [
            .lineComment("#", wordStart: true),
            .line(prefix: "---", .meta),
            .line(prefix: "...", .meta),
            .lineKey(.attribute),
            .string(open: "\"", close: "\"", multiline: true),
            .string(open: "'", close: "'", escape: nil, multiline: true),
            .sigilWord("&", .variable),
            .sigilWord("*", .variable),
            .sigilWord("!!", .type),
            .characters("|>", .operator),
            .number,
            .word,
        ],
        words: [.keyword: ["true", "false", "yes", "no", "on", "off", "null", "True", "False", "TRUE", "FALSE", "Null", "NULL", "~"]])
}
