import KBCore
extension Gherkin {
    /// `Scenario:`/`Example:`, or a `Scenario Outline:` when it has examples.
    public struct Scenario: Hashable, Sendable {
        public var id: String
        public var location: Location
        public var tags: [Tag]
        public var keyword: String
        public var name: String
        public var description: String
        public var steps: [Step]
        public var examples: [Examples]

        /// Whether pickles come from expanding `examples` (cucumber decides by
        /// the presence of examples, not by the keyword).
        public var isOutline: Bool { !examples.isEmpty }

        public init(
            id: String, location: Location, tags: [Tag], keyword: String, name: String,
            description: String, steps: [Step], examples: [Examples]
        ) {
            self.id = id
            self.location = location
            self.tags = tags
            self.keyword = keyword
            self.name = name
            self.description = description
            self.steps = steps
            self.examples = examples
        }
    }
}
