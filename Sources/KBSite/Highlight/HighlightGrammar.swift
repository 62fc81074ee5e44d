import KBCore
import KBSearch
import KBScenarios
/// A language for the highlighter: its label, the fence names that select it, its rules and
/// its word lists. Each language is one table in `Grammars/`; `HighlightLanguages` lists them.
struct HighlightGrammar: Sendable {
    /// What the code block's label shows ("Swift", "Shell").
    let label: String
    /// Fence info words that select the grammar, lower case (`swift`; `sh`, `bash`).
    let names: [String]
    /// Tried in order at each position.
    let rules: [HighlightRule]
    /// Word lists: every word in a list gets that class.
    let words: [HighlightClass: [String]]
    /// Capitalised words not in `words` are types (Swift, JavaScript).
    var capitalizedWordsAreTypes = false
    /// Characters besides ASCII letters, digits, `_` and non-ASCII ones that words hold
    /// (`-` and `.` in shell, so `foo-if` is one word).
    var extraWordCharacters = ""
    /// A shell session: only lines that start with one of these prompts are code (the prompt is
    /// `meta`); the other lines are output, left plain.
    var prompts: [String] = []
}
