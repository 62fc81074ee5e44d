import KBCore
import KBSearch
import KBScenarios
/// What a knowledge base says about its own site (kb.yaml): its name, the home page's
/// description, and the order of languages on the home page.
public struct SiteSettings: Sendable, Equatable {
    /// Shown in page titles (`… · title`), the header, the feed.
    public var title: String
    /// The home page's meta description.
    public var description: String
    /// Language tags in home-page order; languages not listed follow, by tag.
    public var languageOrder: [String]

    public init(title: String = KnowledgeBaseConfiguration().title,
                description: String = KnowledgeBaseConfiguration().description,
                languageOrder: [String] = []) {
        self.title = title
        self.description = description
        self.languageOrder = languageOrder
    }

    public init(_ configuration: KnowledgeBaseConfiguration) {
        self.init(title: configuration.title, description: configuration.description, languageOrder: configuration.languages)
    }

    /// `groups` in the configured order: listed languages first, in their order, then the rest as given.
    func ordered<Group>(_ groups: [Group], language: (Group) -> String) -> [Group] {
        guard !languageOrder.isEmpty else { return groups }
        let rank = Dictionary(languageOrder.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        return groups.enumerated().sorted { a, b in
            let (ra, rb) = (rank[language(a.element)] ?? Int.max, rank[language(b.element)] ?? Int.max)
            return ra != rb ? ra < rb : a.offset < b.offset
        }.map(\.element)
    }
}
