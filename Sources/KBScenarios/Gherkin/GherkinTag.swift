import KBCore
extension Gherkin {
    /// An `@tag` on a feature, rule, scenario or examples block.
    public struct Tag: Hashable, Sendable {
        public var id: String
        public var location: Location
        /// The tag including its `@`.
        public var name: String

        public init(id: String, location: Location, name: String) {
            self.id = id
            self.location = location
            self.name = name
        }
    }
}
