import KBCore
/// A parsed feature file: its feature (absent for a file with only comments
/// and blank lines) and all of its comments.
public struct GherkinDocument: Hashable, Sendable {
    public var uri: String
    public var feature: Gherkin.Feature?
    public var comments: [Gherkin.Comment]
    /// How many node ids the parser handed out; the pickle compiler numbers its
    /// pickles after them so that every id in a parse is unique.
    public var idCount: Int

    public init(uri: String, feature: Gherkin.Feature?, comments: [Gherkin.Comment], idCount: Int = 0) {
        self.uri = uri
        self.feature = feature
        self.comments = comments
        self.idCount = idCount
    }
}
