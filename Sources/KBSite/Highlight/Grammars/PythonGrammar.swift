import KBCore
import KBSearch
import KBScenarios
extension HighlightGrammar {
    /// Python: `#` comments, triple-quoted and single-line strings, decorators, keywords.
    static let python = HighlightGrammar(
        label: "Python",
        names: ["python", "py", "python3"],
        rules: [
            .lineComment("#"),
            .string(open: "\"\"\"", close: "\"\"\"", multiline: true),
            .string(open: "'''", close: "'''", multiline: true),
            .string(open: "\"", close: "\""),
            .string(open: "'", close: "'"),
            .sigilWord("@", .attribute),
            .number,
            .word,
        ],
        words: [
            .keyword: [
                "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
                "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in",
                "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with",
                "yield", "match", "case", "self",
            ],
            .type: [
                "bool", "bytes", "bytearray", "dict", "float", "int", "list", "object", "set", "str", "tuple",
                "Exception", "ValueError", "TypeError", "KeyError", "UnicodeDecodeError", "UnicodeEncodeError",
            ],
        ])
}
