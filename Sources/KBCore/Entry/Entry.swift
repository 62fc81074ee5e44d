/// A troubleshooting entry turned into structured records.
///
/// A value type whose records live in one shared, immutable object: copying an entry (into a
/// list, a page's index, a search document's closure) costs one reference count, not one per
/// record.
public struct Entry: Sendable {
    /// The records, shared by every copy.
    private final class Storage: Sendable {
        let path: String
        let folderName: String
        let metadata: EntryMetadata
        let titleHeading: String?
        let problem: Section?
        let attempts: [Attempt]
        let fix: Section?
        let sideEffects: Section?
        let lessons: Section?
        let references: Section?
        let notes: [Section]
        let body: MarkdownDocument
        let source: SourceText
        let attemptsIntro: Section?

        init(path: String, folderName: String, metadata: EntryMetadata, titleHeading: String?, problem: Section?,
             attempts: [Attempt], fix: Section?, sideEffects: Section?, lessons: Section?, references: Section?,
             notes: [Section], body: MarkdownDocument, source: SourceText, attemptsIntro: Section?) {
            self.path = path
            self.folderName = folderName
            self.metadata = metadata
            self.titleHeading = titleHeading
            self.problem = problem
            self.attempts = attempts
            self.fix = fix
            self.sideEffects = sideEffects
            self.lessons = lessons
            self.references = references
            self.notes = notes
            self.body = body
            self.source = source
            self.attemptsIntro = attemptsIntro
        }
    }

    private let storage: Storage

    init(path: String, folderName: String, metadata: EntryMetadata, titleHeading: String?, problem: Section?,
         attempts: [Attempt], fix: Section?, sideEffects: Section?, lessons: Section?, references: Section?,
         notes: [Section], body: MarkdownDocument, source: SourceText, attemptsIntro: Section?) {
        storage = Storage(path: path, folderName: folderName, metadata: metadata, titleHeading: titleHeading, problem: problem,
                          attempts: attempts, fix: fix, sideEffects: sideEffects, lessons: lessons, references: references,
                          notes: notes, body: body, source: source, attemptsIntro: attemptsIntro)
    }

    /// The same entry without its source text (for what needs only the records: pages and
    /// search, once the entry has been linted), so that the file's bytes can be freed.
    package func withoutSource() -> Entry {
        Entry(path: path, folderName: folderName, metadata: metadata, titleHeading: titleHeading, problem: problem,
              attempts: attempts, fix: fix, sideEffects: sideEffects, lessons: lessons, references: references,
              notes: notes, body: body, source: SourceText(bytes: []), attemptsIntro: attemptsIntro)
    }

    /// The path of `entry.md` as given to the parser.
    public var path: String { storage.path }
    /// The folder name the entry lives in (the id it must have).
    public var folderName: String { storage.folderName }
    public var metadata: EntryMetadata { storage.metadata }
    /// The `# ` heading at the top of the body, if any.
    public var titleHeading: String? { storage.titleHeading }
    public var problem: Section? { storage.problem }
    public var attempts: [Attempt] { storage.attempts }
    public var fix: Section? { storage.fix }
    public var sideEffects: Section? { storage.sideEffects }
    public var lessons: Section? { storage.lessons }
    public var references: Section? { storage.references }
    /// Blocks in sections the vocabulary does not know.
    public var notes: [Section] { storage.notes }
    /// The whole body, for rendering and for text search.
    public var body: MarkdownDocument { storage.body }
    /// The source the entry was parsed from.
    public var source: SourceText { storage.source }
    /// Blocks of grouping headings (`尝试过的方案`), text between such a heading and the first attempt.
    public var attemptsIntro: Section? { storage.attemptsIntro }

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
            let anchor = attempt.anchor.fragment
            result.append((anchor, attempt.headingBlock))
            result += attempt.parts.map { (anchor, $0.block) }
        }
        add(fix, RecordAnchor.fix.fragment)
        add(sideEffects, "sideEffects")
        add(lessons, "lessons")
        add(references, "references")
        for note in notes { add(note, "notes") }
        return result
    }
}
