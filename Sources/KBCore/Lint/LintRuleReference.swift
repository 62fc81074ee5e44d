/// The reference of the lint rules, made from `LintRule`'s catalogue: `docs/lint-rules.md`
/// (a test fails when the file differs) and the table `kb lint --list-rules` prints.
public enum LintRuleReference {
    /// Where the generated Markdown is kept, relative to the repository.
    public static let documentPath = "docs/lint-rules.md"

    /// `docs/lint-rules.md`: a table of every rule, then each rule by area.
    public static var markdown: String {
        var lines = [
            "# Lint rules",
            "",
            "<!-- Generated from Sources/KBCore/Lint/LintRule+Catalogue.swift: edit the catalogue, then",
            "     run `KB_RECORD=1 swift test --filter LintRuleReferenceTests` to write this file again. -->",
            "",
            "`kb lint` reports each problem on one line, `path:line:col: error|warning: message [rule-id]`,",
            "or as JSON with `--format json` (the `rule` field). `--strict` makes every warning an error.",
            "`kb build` stops on the same errors, and `kb lint --list-rules` prints the table below.",
            "",
            "| Rule | Severity | What it reports |",
            "|---|---|---|",
        ]
        for area in LintRule.Area.allCases {
            for rule in LintRule.all where rule.area == area {
                lines.append("| [`\(rule.id)`](#\(rule.id)) | \(rule.severity.rawValue) | \(rule.summary) |")
            }
        }
        for area in LintRule.Area.allCases {
            lines += ["", "## \(area.rawValue)"]
            for rule in LintRule.all where rule.area == area {
                let documentation = rule.documentation
                lines += ["", "### `\(rule.id)`", "", "**\(rule.severity.rawValue)** — \(rule.summary) \(documentation.details)"]
                if !documentation.bad.isEmpty {
                    lines += ["", "Reported:", "", "```" + documentation.exampleLanguage, documentation.bad, "```"]
                }
                if !documentation.good.isEmpty {
                    lines += ["", "Instead:", "", "```" + documentation.exampleLanguage, documentation.good, "```"]
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One line per rule: id, severity and summary in columns.
    public static var table: String {
        let width = (LintRule.all.map(\.id.count).max() ?? 0) + 2
        return LintRule.all.map { rule in
            let id = rule.id + String(repeating: " ", count: width - rule.id.count)
            let severity = rule.severity.rawValue + String(repeating: " ", count: 9 - rule.severity.rawValue.count)
            return id + severity + rule.summary
        }.joined(separator: "\n")
    }
}
