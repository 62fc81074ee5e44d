/// The JSON form of an entry's records (`kb export`). Documented in `docs/export-schema.md`;
/// bump `schemaVersion` on any incompatible change.
public struct EntryExport: Encodable, Sendable {
    public static let schemaVersion = 1

    public struct Document: Encodable, Sendable {
        public let schemaVersion = EntryExport.schemaVersion
        public let entries: [EntryExport]

        public init(entries: [EntryExport]) { self.entries = entries }
    }

    public struct AttemptRecord: Encodable, Sendable {
        let number: String
        let anchor: String
        let title: String
        let outcome: Outcome
        let outcomeWord: String?
        let idea: String
        let failure: String
        let cause: String
        let details: String
        let code: [CodeBlock]
        let range: SourceRange
    }

    public struct SectionRecord: Encodable, Sendable {
        let heading: String?
        let text: String
        let code: [CodeBlock]
        let range: SourceRange?
    }

    public struct FixRecord: Encodable, Sendable {
        let anchor = RecordAnchor.fix.fragment
        let heading: String?
        let summary: String
        let steps: [String]
        let text: String
        let code: [CodeBlock]
        let range: SourceRange?
    }

    let id: String
    let path: String
    let title: String
    let lang: String
    let summary: String
    let symptoms: [String]
    let platforms: [String]
    let apis: [String]
    let tags: [String]
    let status: String?
    let related: [String]
    let updated: String
    let extra: [String: String]
    let problem: SectionRecord?
    let attempts: [AttemptRecord]
    let fix: FixRecord?
    let sideEffects: SectionRecord?
    let lessons: [String]
    let references: [Reference]
    let notes: [SectionRecord]

    public init(_ entry: Entry) {
        let meta = entry.metadata
        func section(_ s: Section?) -> SectionRecord? {
            s.map { SectionRecord(heading: $0.heading, text: $0.text, code: $0.code, range: $0.range) }
        }
        id = entry.id
        path = entry.path
        title = meta.title
        lang = meta.lang
        summary = meta.summary
        symptoms = meta.symptoms
        platforms = meta.platforms
        apis = meta.apis
        tags = meta.tags
        status = meta.status?.rawValue
        related = meta.related
        updated = meta.updated
        extra = Dictionary(meta.extra.map { ($0.key, $0.value.string ?? $0.value.typeName) }, uniquingKeysWith: { a, _ in a })
        problem = section(entry.problem)
        attempts = entry.attempts.map {
            AttemptRecord(number: $0.number.description, anchor: $0.anchor.fragment, title: $0.title, outcome: $0.outcome,
                          outcomeWord: $0.outcomeWord, idea: $0.idea, failure: $0.failure, cause: $0.cause,
                          details: $0.details, code: $0.code, range: $0.range)
        }
        fix = entry.fix.map { fix in
            let summary = fix.blocks.first { $0.kind == .paragraph }?.plainText ?? ""
            return FixRecord(heading: fix.heading, summary: summary, steps: fix.listItems, text: fix.text, code: fix.code, range: fix.range)
        }
        sideEffects = section(entry.sideEffects)
        lessons = entry.lessons.map { $0.listItems.isEmpty ? [$0.text] : $0.listItems } ?? []
        references = entry.references?.links ?? []
        notes = entry.notes.compactMap(section)
    }
}
