import KBCore
import KBSearch
import KBScenarios
extension HighlightGrammar {
    /// Gherkin in every built-in dialect: the keywords come from the scenario parser's own table
    /// (`GherkinDialects.builtIn`), so the site colours what `kb check` reads as a keyword.
    /// Comments, tags, doc strings, `<placeholders>`, quoted step arguments and table pipes.
    static let gherkin = HighlightGrammar(
        label: "Gherkin",
        names: ["gherkin", "feature", "cucumber"],
        rules: [
            .line(prefix: "#", .comment, indented: true),
            .line(prefix: "@", .tag, indented: true),
            .lineStartWords(gherkinKeywords, .keyword),
            .string(open: "\"\"\"", close: "\"\"\"", escape: nil, multiline: true),
            .string(open: "```", close: "```", escape: nil, multiline: true),
            .string(open: "\"", close: "\""),
            .enclosed(open: "<", close: ">", .variable),
            .characters("|", .operator),
        ],
        words: [:])

    /// Every keyword of the built-in dialects, longest first: title keywords with their colon,
    /// ASCII or full-width as the parser accepts both (`Feature:`, `功能：`), step keywords as the
    /// table spells them (`Given `, `假如`).
    static let gherkinKeywords: [String] = {
        var all = Set<String>()
        for dialect in GherkinDialects.builtIn.dialects.values {
            for title in dialect.feature + dialect.background + dialect.rule + dialect.scenario
                + dialect.scenarioOutline + dialect.examples {
                all.insert(title + ":")
                all.insert(title + "：")
            }
            all.formUnion(dialect.stepKeywords)
        }
        return all.sorted { $0.utf8.count != $1.utf8.count ? $0.utf8.count > $1.utf8.count : $0 < $1 }
    }()
}
