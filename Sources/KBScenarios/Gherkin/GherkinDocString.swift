import KBCore
extension Gherkin {
    /// A `"""` or ```` ``` ```` block argument, its indentation removed relative
    /// to the opening delimiter and escaped delimiters decoded.
    public struct DocString: Hashable, Sendable {
        public var location: Location
        public var content: String
        /// The text after the opening delimiter, such as `json`; nil when empty.
        public var mediaType: String?
        public var delimiter: String

        public init(location: Location, content: String, mediaType: String?, delimiter: String) {
            self.location = location
            self.content = content
            self.mediaType = mediaType
            self.delimiter = delimiter
        }
    }
}
