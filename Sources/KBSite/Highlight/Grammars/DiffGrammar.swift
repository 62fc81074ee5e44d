import KBCore
import KBSearch
import KBScenarios
extension HighlightGrammar {
    /// Unified diffs: file headers and hunk lines, added and removed lines.
    static let diff = HighlightGrammar(
        label: "Diff",
        names: ["diff", "patch", "udiff"],
        rules: [
            .line(prefix: "+++", .meta),
            .line(prefix: "---", .meta),
            .line(prefix: "@@", .meta),
            .line(prefix: "diff ", .meta),
            .line(prefix: "index ", .meta),
            .line(prefix: "+", .added),
            .line(prefix: "-", .removed),
        ],
        words: [:])
}
