import KBCore
import KBSearch
import KBScenarios
extension HighlightGrammar {
    /// Swift: nested block comments, multi-line, raw and interpolated strings, attributes,
    /// `#` directives, capitalised words as types.
    static let swift = HighlightGrammar(
        label: "Swift",
        names: ["swift"],
        rules: [
            .lineComment("//"),
            .blockComment(open: "/*", close: "*/", nests: true),
            .string(open: "#\"\"\"", close: "\"\"\"#", escape: nil, multiline: true),
            .string(open: "#\"", close: "\"#", escape: nil),
            .string(open: "\"\"\"", close: "\"\"\"", multiline: true, interpolation: "\\("),
            .string(open: "\"", close: "\"", interpolation: "\\("),
            .sigilWord("@", .attribute),
            .sigilWord("#", .keyword),
            .number,
            .word,
        ],
        words: [
            .keyword: [
                "actor", "any", "as", "associatedtype", "async", "await", "break", "case", "catch", "class",
                "consuming", "continue", "convenience", "default", "defer", "deinit", "didSet", "do", "dynamic",
                "else", "enum", "extension", "fallthrough", "false", "fileprivate", "final", "for", "func", "get",
                "guard", "if", "import", "in", "indirect", "init", "inout", "internal", "is", "isolated", "lazy", "let",
                "macro", "mutating", "nil", "nonisolated", "nonmutating", "open", "operator", "optional",
                "override", "package", "precedencegroup", "private", "protocol", "public", "repeat", "required",
                "rethrows", "return", "self", "Self", "set", "some", "static", "struct", "subscript", "super",
                "switch", "throw", "throws", "true", "try", "typealias", "unowned", "var", "weak", "where",
                "while", "willSet",
            ],
        ],
        capitalizedWordsAreTypes: true)
}
