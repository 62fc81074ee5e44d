import KBCore
extension Gherkin {
    /// A step line with its keyword, text, and optional data table and doc
    /// string arguments (a step may carry one of each, in either order).
    public struct Step: Hashable, Sendable {
        public var id: String
        public var location: Location
        /// The keyword as written, including its trailing space if it has one.
        public var keyword: String
        public var keywordType: StepKeywordType
        public var text: String
        public var dataTable: DataTable?
        public var docString: DocString?

        public init(
            id: String, location: Location, keyword: String, keywordType: StepKeywordType,
            text: String, dataTable: DataTable? = nil, docString: DocString? = nil
        ) {
            self.id = id
            self.location = location
            self.keyword = keyword
            self.keywordType = keywordType
            self.text = text
            self.dataTable = dataTable
            self.docString = docString
        }
    }
}
