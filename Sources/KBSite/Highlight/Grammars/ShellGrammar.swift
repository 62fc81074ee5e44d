import KBCore
import KBSearch
import KBScenarios
extension HighlightGrammar {
    /// Shell scripts (sh, bash, zsh): `#` comments only where a word starts, quoted strings,
    /// `$NAME`, `${…}` and `$1`, and the shell's reserved words and common builtins.
    static let shell = HighlightGrammar(
        label: "Shell",
        names: ["sh", "bash", "shell", "zsh", "ksh"],
        rules: shellRules,
        words: shellWords,
        extraWordCharacters: "-./")

    /// A terminal session: lines after a `$ ` or `% ` prompt are shell, the others are output.
    static let console = HighlightGrammar(
        label: "Shell",
        names: ["console", "shell-session", "terminal"],
        rules: shellRules,
        words: shellWords,
        extraWordCharacters: "-./",
        prompts: ["$ ", "% "])

    static let shellRules: [HighlightRule] = [
        .lineComment("#", wordStart: true),
        .string(open: "'", close: "'", escape: nil, multiline: true),
        .string(open: "\"", close: "\"", multiline: true),
        .enclosed(open: "${", close: "}", .variable),
        .sigilWord("$", .variable, alone: "?#@*$!-0123456789"),
        .characters("|&;<>", .operator),
        .number,
        .word,
    ]

    static let shellWords: [HighlightClass: [String]] = [
        .keyword: [
            "if", "then", "else", "elif", "fi", "for", "in", "do", "done", "while", "until", "case", "esac",
            "function", "select", "time", "return", "exit", "break", "continue", "export", "local",
            "readonly", "declare", "typeset", "unset", "set", "shift", "source", "eval", "exec", "trap",
            "cd", "echo", "printf", "read", "test", "true", "false",
        ],
    ]
}
