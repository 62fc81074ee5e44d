import KBCore
/// The keywords of one Gherkin spoken language, in the shape of an entry of
/// cucumber's `gherkin-languages.json`.
///
/// Title keywords (`feature`, `rule`, `background`, `scenario`,
/// `scenarioOutline`, `examples`) are written without the colon. Step keywords
/// keep their trailing space where the language separates words with spaces
/// (`"Given "`), and have none where it does not (`"假如"`); `"* "` is a step
/// keyword of every kind in every dialect.
public struct GherkinDialect: Hashable, Sendable, Codable {
    /// The language code used in `# language: xx`, such as `en` or `zh-CN`.
    public var code: String
    /// The English name of the language.
    public var name: String
    /// The language's name for itself.
    public var native: String
    public var feature: [String]
    public var background: [String]
    public var rule: [String]
    public var scenario: [String]
    public var scenarioOutline: [String]
    public var examples: [String]
    public var given: [String]
    public var when: [String]
    public var then: [String]
    public var and: [String]
    public var but: [String]

    public init(
        code: String, name: String, native: String,
        feature: [String], background: [String], rule: [String],
        scenario: [String], scenarioOutline: [String], examples: [String],
        given: [String], when: [String], then: [String], and: [String], but: [String]
    ) {
        self.code = code
        self.name = name
        self.native = native
        self.feature = feature
        self.background = background
        self.rule = rule
        self.scenario = scenario
        self.scenarioOutline = scenarioOutline
        self.examples = examples
        self.given = given
        self.when = when
        self.then = then
        self.and = and
        self.but = but
    }

    /// All step keywords, longest first, so that a keyword that is a prefix of
    /// another one (`"Le "` and `"Le sa a "`) never shadows it.
    public var stepKeywords: [String] {
        let all = given + when + then + and + but
        // A stable sort on length: equal-length keywords keep the table order.
        return all.enumerated()
            .sorted { lhs, rhs in
                let l = lhs.element.unicodeScalars.count, r = rhs.element.unicodeScalars.count
                return l != r ? l > r : lhs.offset < rhs.offset
            }
            .map(\.element)
    }

    /// The kind of a step keyword: `.unknown` when the keyword is listed under
    /// more than one kind (as `"* "` always is), `nil` when it is not a step keyword.
    public func keywordType(of keyword: String) -> Gherkin.StepKeywordType? {
        var kinds: [Gherkin.StepKeywordType] = []
        kinds += given.filter { $0 == keyword }.map { _ in .context }
        kinds += when.filter { $0 == keyword }.map { _ in .action }
        kinds += then.filter { $0 == keyword }.map { _ in .outcome }
        kinds += (and + but).filter { $0 == keyword }.map { _ in .conjunction }
        switch kinds.count {
        case 0: return nil
        case 1: return kinds[0]
        default: return .unknown
        }
    }
}
