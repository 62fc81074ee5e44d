import KBCore
import KBSearch
import KBScenarios
import KBSite
/// `kb list`: the entries, filtered by language, tag or status.
public struct ListCommand: KBCommand {
    public static let formatOption = CommandOption(["--format"], value: "format", help: "Output format: text, json, or ids (one id per line, for scripts and shell completion) (default: text).", choices: ["text", "json", "ids"])

    public static let configuration = CommandConfiguration(
        name: "list",
        abstract: "List entries.",
        options: EntryFilter.options + [formatOption]
    )

    public let filter: EntryFilter
    public let format: String

    public init(_ arguments: ParsedArguments) throws {
        filter = try EntryFilter(arguments)
        format = try arguments.choice(Self.formatOption, default: "text")
    }

    public func run(_ context: CommandContext) throws -> Int32 {
        let kb = try KnowledgeBaseLoader(workingDirectory: context.workingDirectory).load(paths: [context.entriesDirectory])
        let (readable, unreadable) = UnreadableEntries.split(kb.items)
        let entries = readable.filter(filter.matches).sorted { $0.id < $1.id }
        // Entries that cannot be read are not listed; saying so (and failing) keeps a script
        // from taking the list for the whole knowledge base.
        defer { UnreadableEntries.report(unreadable, leftOutOf: "listed", context: context) }
        let done = unreadable.isEmpty ? ExitCode.success : ExitCode.failure
        if format == "ids" {
            for entry in entries { context.stdout.print(entry.id) }
            return done
        }
        if format == "json" {
            let rows = entries.map { ListRow(id: $0.id, title: $0.metadata.title, lang: $0.metadata.lang,
                                             status: $0.metadata.status?.rawValue ?? "", tags: $0.metadata.tags,
                                             attempts: $0.attempts.count, updated: $0.metadata.updated, path: $0.path) }
            context.stdout.print(try JSONOutput.string(rows))
            return done
        }
        let style = context.style
        let idWidth = min(40, entries.map { $0.id.count }.max() ?? 0)
        for entry in entries {
            let outcomes = entry.attempts.map(\.outcome.symbol).joined()
            let id = entry.id.padding(toLength: max(idWidth, entry.id.count), withPad: " ", startingAt: 0)
            let lang = entry.metadata.lang.padding(toLength: 7, withPad: " ", startingAt: 0)
            let status = (entry.metadata.status?.rawValue ?? "?").padding(toLength: 10, withPad: " ", startingAt: 0)
            context.stdout.print("\(style.bold(id))  \(lang) \(style.dim(status)) \(outcomes.padding(toLength: 8, withPad: " ", startingAt: 0)) \(entry.metadata.title)")
        }
        context.stderr.print("\(entries.count) of \(readable.count) entries")
        return done
    }

    struct ListRow: Encodable {
        let id, title, lang, status: String
        let tags: [String]
        let attempts: Int
        let updated, path: String
    }
}

/// Filters shared by `list`, `search` and `check`: language, tag, status.
public struct EntryFilter: Sendable {
    public var lang: String?
    public var tag: String?
    public var status: EntryMetadata.Status?

    public init(lang: String? = nil, tag: String? = nil, status: EntryMetadata.Status? = nil) {
        self.lang = lang
        self.tag = tag
        self.status = status
    }

    public static let langOption = CommandOption(["--lang"], value: "lang", help: "Only entries in this language (zh-Hans, ko, ja, …; 'zh' matches both Chinese scripts).")
    public static let tagOption = CommandOption(["--tag"], value: "tag", help: "Only entries with this tag.")
    public static let statusOption = CommandOption(["--status"], value: "status", help: "Only entries with this status: resolved, workaround or open.",
                                                   choices: EntryMetadata.Status.allCases.map(\.rawValue))
    /// The options a command that filters entries declares.
    public static let options = [langOption, tagOption, statusOption]

    public init(_ arguments: ParsedArguments) throws {
        lang = arguments.value(Self.langOption)
        tag = arguments.value(Self.tagOption)
        status = try arguments.choice(Self.statusOption).flatMap(EntryMetadata.Status.init(rawValue:))
    }

    public func matches(_ entry: Entry) -> Bool {
        matches(lang: entry.metadata.lang, tags: entry.metadata.tags, status: entry.metadata.status)
    }

    public func matches(lang entryLang: String, tags: [String], status entryStatus: EntryMetadata.Status?) -> Bool {
        // As kb search's filter: without case, `zh` for both Chinese scripts.
        if let lang, !LanguageTag.matches(entryLang, range: lang) { return false }
        if let tag, !tags.contains(tag) { return false }
        if let status, entryStatus != status { return false }
        return true
    }
}
