import KBCore
import KBSearch
import KBScenarios
/// One way a token starts and ends. A grammar is a list of rules tried in order at each
/// position of the code; the first that matches makes the token. Rules are data: a language
/// is described by choosing and parameterising these, never by code of its own.
enum HighlightRule: Sendable {
    /// `open` up to the end of the line (`//`, `#`). With `wordStart`, only where a word may
    /// start (at the line start or after a space or `;|&()`), as `#` in shell.
    case lineComment(String, wordStart: Bool = false)
    /// `open` … `close`, counting nested pairs when `nests` (Swift's `/* /* */ */`).
    /// Unterminated: up to the end of the code.
    case blockComment(open: String, close: String, nests: Bool)
    /// A string from `open` to `close`. `escape` makes the next character part of the string;
    /// `interpolation` opens a nested expression (`\(` in Swift) that runs to its matching `)`.
    /// A single-line string that is not closed ends at the end of its line; a multi-line one at
    /// the end of the code. `keyClass`: the class instead of `string` when a `:` follows
    /// (JSON's keys).
    case string(open: String, close: String, escape: UInt8? = UInt8(ascii: "\\"), multiline: Bool = false,
                interpolation: String? = nil, keyClass: HighlightClass? = nil)
    /// A number: a digit, then digits, letters, `_` and `.` before a digit (`0x1F`, `1_000`, `2.5e3`).
    case number
    /// `sigil` glued to a word of letters, digits and `_` (`@MainActor`, `#if`, `$HOME`), or to
    /// one of the characters in `alone` (shell's `$?`, `$#`, `$1`).
    case sigilWord(String, HighlightClass, alone: String = "")
    /// `open` … `close` on one line (`${HOME}`, Gherkin's `<name>`); plain when not closed there.
    case enclosed(open: String, close: String, HighlightClass)
    /// A whole line that starts with `prefix` in its first column (diff's `+`, `-`, `@@`), or
    /// after its indentation when `indented` (Gherkin's comments and tags).
    case line(prefix: String, HighlightClass, indented: Bool = false)
    /// One of `words` first on its line after indentation (Gherkin's keywords, longest first).
    case lineStartWords([String], HighlightClass)
    /// A mapping key first on its line (after indentation and `- `) and followed by `:` and a
    /// space or the line's end, as in YAML. The key is `class`.
    case lineKey(HighlightClass)
    /// Any one of these characters.
    case characters(String, HighlightClass)
    /// A word: `keyword`/`type`/… from the grammar's word lists, a type when capitalised and the
    /// grammar says so, otherwise plain.
    case word
}
