import KBCore
extension Gherkin {
    /// `Background:` steps run before every scenario of its feature or rule.
    public struct Background: Hashable, Sendable {
        public var id: String
        public var location: Location
        public var keyword: String
        public var name: String
        public var description: String
        public var steps: [Step]

        public init(id: String, location: Location, keyword: String, name: String, description: String, steps: [Step]) {
            self.id = id
            self.location = location
            self.keyword = keyword
            self.name = name
            self.description = description
            self.steps = steps
        }
    }
}
