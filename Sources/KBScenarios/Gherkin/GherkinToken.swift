import KBCore
/// The kinds of line the Gherkin grammar is written in; raw values are the
/// names cucumber's error messages use.
enum GherkinTokenType: String, Sendable {
    case eof = "#EOF"
    case empty = "#Empty"
    case comment = "#Comment"
    case tagLine = "#TagLine"
    case featureLine = "#FeatureLine"
    case ruleLine = "#RuleLine"
    case backgroundLine = "#BackgroundLine"
    case scenarioLine = "#ScenarioLine"
    case examplesLine = "#ExamplesLine"
    case stepLine = "#StepLine"
    case docStringSeparator = "#DocStringSeparator"
    case tableRow = "#TableRow"
    case language = "#Language"
    case other = "#Other"
}

/// A line read by the scanner; `line` is nil for the end of file.
struct GherkinToken: Sendable {
    let line: GherkinLine?
    let lineNumber: Int

    var isEOF: Bool { line == nil }
}

/// What a token matched as: its kind and the parts of the line it carries.
struct GherkinMatch: Sendable {
    var type: GherkinTokenType
    var lineNumber: Int
    var indent: Int
    /// Title, step text, doc string line, comment text, media type or language code.
    var text: String = ""
    var keyword: String = ""
    var keywordType: Gherkin.StepKeywordType = .unknown
    /// Tags of a tag line or cells of a table row.
    var items: [(column: Int, text: String)] = []
    /// The dialect in force when the line was matched.
    var dialect: String = ""

    var location: Gherkin.Location { Gherkin.Location(line: lineNumber, column: indent + 1) }
}
