import Foundation
import KBCore
import KBSearch
import KBScenarios
import KBSite

/// `kb new [TITLE]`: a new entry's draft, from the template of its language.
public struct NewCommand: KBCommand {
    public static let langOption = CommandOption(["--lang"], value: "lang", help: "The entry's language (default: the first of kb.yaml's languages, else en).", choices: DraftTemplate.languages)
    public static let idOption = CommandOption(["--id"], value: "id", help: "The entry id (default: made from the title).")
    public static let fromOption = CommandOption(["--from"], value: "file", help: "Draft from a raw write-up (kb import FILE --write).")

    public static let configuration = CommandConfiguration(
        name: "new",
        abstract: "Start a new entry: entry.md and scenario.feature from the template of its language.",
        discussion: """
        Writes entries/<id>/entry.md with every front-matter key, the headings and labels of the \
        language's vocabulary, and a TODO(kb-new) comment on each part still to write (kb lint \
        lists them as warnings), and a scenario.feature skeleton in the same language. The id is \
        made from the title's ASCII words and API names; a title without them needs --id. Never \
        overwrites. --from FILE drafts the entry from a raw write-up instead (kb import FILE --write).
        """,
        arguments: [.init("title", help: "The entry's title (one line; not with --from).", arity: .zeroOrMore)],
        options: [langOption, idOption, fromOption]
    )

    public let title: String?
    public let lang: String?
    public let id: String?
    public let from: String?

    public init(_ arguments: ParsedArguments) throws {
        let words = arguments.positionals.joined(separator: " ").trimmingCharacters(in: .whitespaces)
        title = words.isEmpty ? nil : words
        lang = try arguments.choice(Self.langOption)
        id = arguments.value(Self.idOption)
        from = arguments.value(Self.fromOption)
        if let id, !Linter.isWellFormedID(id) {
            throw UsageError("'\(Self.idOption.key)' must match [a-z0-9]+(-[a-z0-9]+)*, got '\(id)'")
        }
        if from != nil && title != nil { throw UsageError("give a title or \(Self.fromOption.key), not both") }
        if from == nil && title == nil { throw UsageError("give the entry's title, like: kb new \"toolbarColorScheme has no effect\"") }
        if let title, title.contains(where: \.isNewline) { throw UsageError("the title is one line") }
    }

    public func run(_ context: CommandContext) throws -> Int32 {
        if let from {
            var arguments = [from, "--write"]
            if let lang { arguments += ["--lang", lang] }
            if let id { arguments += ["--id", id] }
            return try ImportCommand(ParsedArguments(arguments, configuration: ImportCommand.configuration)).run(context)
        }
        let language = lang ?? context.configuration.languages.first { DraftTemplate.languages.contains($0) } ?? "en"
        // kb.yaml's first language has no template (zh-Hant): say which one is used instead.
        if lang == nil, let first = context.configuration.languages.first, first != language {
            context.stderr.print("note: there is no \(first) template; the draft is in \(language) (--lang chooses one of \(DraftTemplate.languages.joined(separator: ", ")))")
        }
        guard let id = id ?? title.flatMap({ IdentifierExtractor.slug($0) }) else {
            throw KBError("cannot make an id from the title '\(title ?? "")': an id takes at least two ASCII words of the title (or an API name); pass one with --id, lower-case words joined by '-', like --id nav-bar-shadow-ios17")
        }
        let folder = (context.entriesDirectory as NSString).appendingPathComponent(id)
        let files = [(EntryLocator.entryFileName, ""), ("scenario.feature", "")].map { (folder as NSString).appendingPathComponent($0.0) }
        if FileManager.default.fileExists(atPath: folder) {
            throw KBError("\(ImportCommand.display(folder, context)) already exists; not overwriting it (choose another --id)")
        }
        let date = context.environment["KB_IMPORT_DATE"] ?? EntryImporter.today()
        let template = DraftTemplate(id: id, title: title!, language: language, date: date)
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data(template.entry.utf8).write(to: URL(fileURLWithPath: files[0]), options: .withoutOverwriting)
            try Data(template.scenario.utf8).write(to: URL(fileURLWithPath: files[1]), options: .withoutOverwriting)
        } catch {
            throw KBError("cannot write \(ImportCommand.display(folder, context)): \(error.localizedDescription)")
        }
        for file in files { context.stdout.print("created \(ImportCommand.display(file, context))") }
        context.stderr.print("draft \(id) (\(language)): fill in the TODO(kb-new) comments; 'kb lint' lists what is left")
        return ExitCode.success
    }
}
