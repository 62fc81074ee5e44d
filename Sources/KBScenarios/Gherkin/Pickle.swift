import KBCore
/// One executable scenario compiled from a feature file: a plain scenario, or
/// one examples row of an outline with its placeholders filled in, with the
/// background steps in front and the tags of everything around it.
public struct Pickle: Hashable, Sendable {
    public var id: String
    public var uri: String
    public var name: String
    public var language: String
    /// The scenario line, or for an outline the examples row.
    public var location: Gherkin.Location
    /// Ids of the scenario (and examples row) this pickle came from.
    public var astNodeIds: [String]
    public var tags: [Tag]
    public var steps: [Step]

    public init(
        id: String, uri: String, name: String, language: String, location: Gherkin.Location,
        astNodeIds: [String], tags: [Tag], steps: [Step]
    ) {
        self.id = id
        self.uri = uri
        self.name = name
        self.language = language
        self.location = location
        self.astNodeIds = astNodeIds
        self.tags = tags
        self.steps = steps
    }

    /// A tag inherited from the feature, rule, scenario or examples.
    public struct Tag: Hashable, Sendable {
        public var name: String
        public var astNodeId: String

        public init(name: String, astNodeId: String) {
            self.name = name
            self.astNodeId = astNodeId
        }
    }

    /// What a step does; `And`/`But` steps take the type of the step before them.
    public enum StepType: String, Hashable, Sendable, Codable {
        case context = "Context"
        case action = "Action"
        case outcome = "Outcome"
        case unknown = "Unknown"
    }

    /// A step with its final text and arguments.
    public struct Step: Hashable, Sendable {
        public var id: String
        public var text: String
        public var type: StepType
        public var dataTable: Table?
        public var docString: DocString?
        public var astNodeIds: [String]

        public init(
            id: String, text: String, type: StepType, dataTable: Table? = nil,
            docString: DocString? = nil, astNodeIds: [String]
        ) {
            self.id = id
            self.text = text
            self.type = type
            self.dataTable = dataTable
            self.docString = docString
            self.astNodeIds = astNodeIds
        }
    }

    /// A data table argument as rows of cell values.
    public struct Table: Hashable, Sendable {
        public var rows: [[String]]
        /// 1 or 2 when the step has both a table and a doc string: which came first.
        public var argumentIndex: Int?

        public init(rows: [[String]], argumentIndex: Int? = nil) {
            self.rows = rows
            self.argumentIndex = argumentIndex
        }
    }

    /// A doc string argument.
    public struct DocString: Hashable, Sendable {
        public var content: String
        public var mediaType: String?
        /// 1 or 2 when the step has both a table and a doc string: which came first.
        public var argumentIndex: Int?

        public init(content: String, mediaType: String? = nil, argumentIndex: Int? = nil) {
            self.content = content
            self.mediaType = mediaType
            self.argumentIndex = argumentIndex
        }
    }
}
