/// The structure of an imported draft before it is written out: sections in input order,
/// each with its heading, the questions the importer could not answer, and its blocks.
public struct DraftDocument: Sendable {
    public var title: String
    /// Whether the title line was written by the author (and becomes the `# ` heading) or
    /// drafted by the importer from the first sentence.
    public var titleFromInput: Bool
    public var lang: String
    public var sections: [DraftSection]
    /// Questions about the front matter, written as YAML comments.
    public var frontMatterTodos: [String] = []
    /// Links found anywhere in the text, in order.
    public var references: [String] = []
}

public struct DraftSection: Sendable {
    public enum Kind: Sendable, Equatable {
        /// Text between the title and the first heading (the parser reads it as the problem).
        case preamble
        case section(SectionKind)
        case attempt(AttemptNumber)
        /// A heading the vocabulary does not know.
        case notes
    }

    public var kind: Kind
    public var heading: String?
    public var level: Int
    public var todos: [String] = []
    /// An attempt drafted from the shape of a blog post (code, then "but …"): its outcome is left
    /// to the author, not drafted from phrases.
    public var outcomeLeftToAuthor = false
    public var nodes: [DraftNode] = []

    public init(kind: Kind, heading: String?, level: Int, todos: [String] = [], nodes: [DraftNode] = []) {
        self.kind = kind
        self.heading = heading
        self.level = level
        self.todos = todos
        self.nodes = nodes
    }
}

public struct DraftListItem: Sendable, Equatable {
    public var level: Int
    /// `1.` for numbered items, nil for bullets.
    public var ordinal: String?
    /// The label as written, colon included (`结果：`, `결과:`), shown in bold.
    public var label: String?
    public var labelKind: LabelKind?
    public var text: String

    public init(level: Int = 0, ordinal: String? = nil, label: String? = nil, labelKind: LabelKind? = nil, text: String) {
        self.level = level
        self.ordinal = ordinal
        self.label = label
        self.labelKind = labelKind
        self.text = text
    }
}

public enum DraftNode: Sendable, Equatable {
    case paragraph([String])
    case list([DraftListItem])
    case code(language: String, lines: [String])
    case media([String])
    /// A sub-heading inside a section or attempt.
    case heading(level: Int, text: String)
    case rule(String)
    case todo(String)
}
