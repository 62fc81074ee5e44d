import KBCore
/// Namespace for the Gherkin abstract syntax tree produced by `GherkinParser`.
///
/// Locations are 1-based; columns count Unicode scalars. Nodes that cucumber
/// gives ids (steps, scenarios, backgrounds, rules, examples, tags, table rows)
/// carry an `id` numbered in the order cucumber's AST builder assigns them.
public enum Gherkin {
    /// A 1-based line and column in a feature file.
    public typealias Location = SourceLocation

    /// The grammatical kind of a step keyword.
    public enum StepKeywordType: String, Hashable, Sendable, Codable {
        case context = "Context"
        case action = "Action"
        case outcome = "Outcome"
        case conjunction = "Conjunction"
        case unknown = "Unknown"
    }

    /// A `#` comment line, kept with its leading whitespace.
    public struct Comment: Hashable, Sendable {
        public var location: Location
        public var text: String

        public init(location: Location, text: String) {
            self.location = location
            self.text = text
        }
    }
}
