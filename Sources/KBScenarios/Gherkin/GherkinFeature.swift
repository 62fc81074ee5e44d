import KBCore
extension Gherkin {
    /// `Feature:` with its header and children, in file order: an optional
    /// background, scenarios, then rules.
    public struct Feature: Hashable, Sendable {
        public var location: Location
        public var tags: [Tag]
        /// The dialect code in force at the feature line.
        public var language: String
        public var keyword: String
        public var name: String
        public var description: String
        public var children: [Child]

        public enum Child: Hashable, Sendable {
            case background(Background)
            case scenario(Scenario)
            case rule(Rule)
        }

        public init(
            location: Location, tags: [Tag], language: String, keyword: String,
            name: String, description: String, children: [Child]
        ) {
            self.location = location
            self.tags = tags
            self.language = language
            self.keyword = keyword
            self.name = name
            self.description = description
            self.children = children
        }
    }
}
