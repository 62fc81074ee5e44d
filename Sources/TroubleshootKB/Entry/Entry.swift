/// A troubleshooting entry turned into structured records.
public struct Entry: Sendable {
    /// The path of `entry.md` as given to the parser.
    public let path: String
    /// The folder name the entry lives in (the id it must have).
    public let folderName: String
    public let metadata: EntryMetadata
    /// The `# ` heading at the top of the body, if any.
    public let titleHeading: String?
    public let problem: Section?
    public let attempts: [Attempt]
    public let fix: Section?
    public let sideEffects: Section?
    public let lessons: Section?
    public let references: Section?
    /// Blocks in sections the vocabulary does not know.
    public let notes: [Section]
    /// The whole body, for rendering and for text search.
    public let body: MarkdownDocument
    /// The source the entry was parsed from.
    public let source: SourceText
    /// Blocks of grouping headings (`尝试过的方案`), text between such a heading and the first attempt.
    public let attemptsIntro: Section?

    public var id: String { metadata.id.isEmpty ? folderName : metadata.id }

    /// Every record of the entry in document order, with a name, for coverage checks and export.
    public var recordBlocks: [(record: String, block: MarkdownNode)] {
        var result: [(String, MarkdownNode)] = []
        func add(_ section: Section?, _ name: String) {
            guard let section else { return }
            if let heading = section.headingBlock { result.append((name, heading)) }
            result += section.blocks.map { (name, $0) }
        }
        add(problem, "problem")
        add(attemptsIntro, "attempts")
        for attempt in attempts {
            result.append((attempt.anchor, attempt.headingBlock))
            result += attempt.parts.map { (attempt.anchor, $0.block) }
        }
        add(fix, "fix")
        add(sideEffects, "sideEffects")
        add(lessons, "lessons")
        add(references, "references")
        for note in notes { add(note, "notes") }
        return result
    }
}
