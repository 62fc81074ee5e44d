import KBCore
extension Gherkin {
    /// `Examples:` of a scenario outline: a header row naming the placeholders
    /// and one body row per pickle.
    public struct Examples: Hashable, Sendable {
        public var id: String
        public var location: Location
        public var tags: [Tag]
        public var keyword: String
        public var name: String
        public var description: String
        public var tableHeader: TableRow?
        public var tableBody: [TableRow]

        public init(
            id: String, location: Location, tags: [Tag], keyword: String, name: String,
            description: String, tableHeader: TableRow?, tableBody: [TableRow]
        ) {
            self.id = id
            self.location = location
            self.tags = tags
            self.keyword = keyword
            self.name = name
            self.description = description
            self.tableHeader = tableHeader
            self.tableBody = tableBody
        }
    }
}
