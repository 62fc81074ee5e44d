import KBCore
import KBSearch
import KBScenarios
/// The languages code blocks are coloured in, found by the first word of a fence's info
/// string (```` ```swift ````), and the label of each. Adding a language is adding its table in
/// `Grammars/` and its name here.
enum HighlightLanguages {
    static let grammars: [HighlightGrammar] = [
        .swift, .shell, .console, .json, .yaml, .gherkin, .diff, .python, .javaScript, .plainText,
    ]

    /// Languages that get a label but no colours.
    static let labelOnly: [(names: [String], label: String)] = [
        (["sql"], "SQL"),
        (["markdown", "md"], "Markdown"),
        (["html", "xml"], "HTML"),
        (["css"], "CSS"),
    ]

    private static let highlighters: [String: Highlighter] = {
        var table: [String: Highlighter] = [:]
        for grammar in grammars {
            let highlighter = Highlighter(grammar)
            for name in grammar.names { table[name] = highlighter }
        }
        return table
    }()

    private static let labels: [String: String] = {
        var table: [String: String] = [:]
        for (names, label) in labelOnly { for name in names { table[name] = label } }
        for grammar in grammars { for name in grammar.names { table[name] = grammar.label } }
        return table
    }()

    /// The highlighter for a fence's language word (any case), if the language is known.
    static func highlighter(for name: String) -> Highlighter? {
        highlighters[name] ?? highlighters[ByteText.lowercased(name)]
    }

    /// The label for a fence's language word: the language's name when known, else the word.
    static func label(for name: String) -> String {
        labels[name] ?? labels[ByteText.lowercased(name)] ?? name
    }
}
