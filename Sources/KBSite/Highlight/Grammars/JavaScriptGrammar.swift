import KBCore
import KBSearch
import KBScenarios
extension HighlightGrammar {
    /// JavaScript and TypeScript: comments, quoted and template strings, keywords, capitalised
    /// words as types.
    static let javaScript = HighlightGrammar(
        label: "JavaScript",
        names: ["js", "javascript", "mjs", "cjs", "ts", "typescript"],
        rules: [
            .lineComment("//"),
            .blockComment(open: "/*", close: "*/", nests: false),
            .string(open: "`", close: "`", multiline: true, interpolation: "${"),
            .string(open: "\"", close: "\""),
            .string(open: "'", close: "'"),
            .sigilWord("@", .attribute),
            .number,
            .word,
        ],
        words: [
            .keyword: [
                "async", "await", "break", "case", "catch", "class", "const", "continue", "debugger", "default",
                "delete", "do", "else", "export", "extends", "false", "finally", "for", "from", "function", "if",
                "import", "in", "instanceof", "let", "new", "null", "of", "return", "static", "super", "switch",
                "this", "throw", "true", "try", "typeof", "undefined", "var", "void", "while", "with", "yield",
                "interface", "type", "enum", "implements", "readonly",
            ],
        ],
        capitalizedWordsAreTypes: true)
}
