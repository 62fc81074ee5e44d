import KBCore
extension Gherkin {
    /// `Rule:` grouping scenarios under a business rule, with its own optional
    /// background and tags.
    public struct Rule: Hashable, Sendable {
        public var id: String
        public var location: Location
        public var tags: [Tag]
        public var keyword: String
        public var name: String
        public var description: String
        public var children: [Child]

        public enum Child: Hashable, Sendable {
            case background(Background)
            case scenario(Scenario)
        }

        public init(
            id: String, location: Location, tags: [Tag], keyword: String,
            name: String, description: String, children: [Child]
        ) {
            self.id = id
            self.location = location
            self.tags = tags
            self.keyword = keyword
            self.name = name
            self.description = description
            self.children = children
        }
    }
}
