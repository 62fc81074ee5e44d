import KBCore
import KBSearch
import KBScenarios
/// The kinds of token the highlighter marks, each written as `<span class="hl-…">`. The style
/// sheet colours them (site/assets/style.css); anything not marked is plain text.
enum HighlightClass: UInt8, Sendable, CaseIterable {
    case keyword, string, comment, number, type, attribute, variable, `operator`
    /// Diff lines.
    case added, removed
    /// Diff headers and hunk lines, prompts in shell sessions, YAML document markers.
    case meta
    /// Gherkin tags.
    case tag

    /// The span's class attribute value.
    var cssClass: StaticString {
        switch self {
        case .keyword: return "hl-keyword"
        case .string: return "hl-string"
        case .comment: return "hl-comment"
        case .number: return "hl-number"
        case .type: return "hl-type"
        case .attribute: return "hl-attribute"
        case .variable: return "hl-variable"
        case .operator: return "hl-operator"
        case .added: return "hl-added"
        case .removed: return "hl-removed"
        case .meta: return "hl-meta"
        case .tag: return "hl-tag"
        }
    }
}
