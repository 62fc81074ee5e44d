import Foundation
import KBCore
import KBSearch
import KBScenarios
import KBSite

/// `kb import FILE|-`: drafts an entry from a pasted write-up.
public struct ImportCommand: KBCommand {
    public static let langOption = CommandOption(["--lang"], value: "lang", help: "The language: zh-Hans, zh-Hant, ko, ja or en (default: detected from the text).", choices: EntryMetadata.knownLanguages)
    public static let idOption = CommandOption(["--id"], value: "id", help: "The entry id (default: a slug of the title's ASCII words and API names).")
    public static let writeOption = CommandOption(["--write"], help: "Create entries/<id>/entry.md instead of printing the draft; never overwrites.")

    public static let configuration = CommandConfiguration(
        name: "import",
        abstract: "Draft an entry from a raw troubleshooting write-up (plain text from a blog, wiki or chat).",
        discussion: """
        Finds the title, sections, numbered attempts, labels and code in the text and prints a draft
        entry.md. Where the text does not say (an outcome, an unknown heading) the draft has a
        <!-- TODO(kb-import): ... --> comment, which 'kb lint' reports as a warning.
        """,
        arguments: [.init("file", help: "The write-up as UTF-8 text, or - to read standard input.", completion: .files)],
        options: [langOption, idOption, writeOption]
    )

    public let input: String
    public let lang: String?
    public let id: String?
    public let write: Bool

    public init(_ arguments: ParsedArguments) throws {
        guard arguments.positionals.count == 1 else { throw UsageError("expected one input file (or - for standard input)") }
        input = arguments.positionals[0]
        lang = try arguments.choice(Self.langOption)
        id = arguments.value(Self.idOption)
        if let id, !Linter.isWellFormedID(id) {
            throw UsageError("'\(Self.idOption.key)' must match [a-z0-9]+(-[a-z0-9]+)*, got '\(id)'")
        }
        write = arguments.flag(Self.writeOption)
    }

    /// Only `--write` puts the draft into a knowledge base: the one found, else entries/ of the working directory.
    public var knowledgeBase: KnowledgeBaseRequirement { write ? .optional : .none }

    public func run(_ context: CommandContext) throws -> Int32 {
        let bytes: [UInt8]
        if input == "-" {
            bytes = context.readStandardInput()
        } else {
            let path = EntryLocator.absolute(input, workingDirectory: context.workingDirectory)
            // A draft must fit in an entry (at most 1 MiB): larger inputs are refused unread.
            switch LimitedFileRead.read(path, limit: Linter.maximumEntrySize) {
            case .success(let data): bytes = [UInt8](data)
            case .failure(let failure):
                if failure.message.hasPrefix("the file is larger") {
                    throw KBError("'\(input)' is larger than \(Linter.maximumEntrySize >> 20) MiB, the limit of an entry; split the write-up")
                }
                throw KBError("'\(input)': \(failure.message)")
            }
        }
        if bytes.count > Linter.maximumEntrySize {
            throw KBError("'\(input)' is larger than \(Linter.maximumEntrySize >> 20) MiB, the limit of an entry; split the write-up")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            let offset = EntryParser.firstInvalidUTF8Offset(bytes) ?? 0
            let at = SourceText(bytes: Array(bytes[..<offset])).location(ofByteOffset: offset)
            throw KBError("\(input):\(at.line):\(at.column): not valid UTF-8 text (byte offset \(offset))")
        }
        if let offset = bytes.firstIndex(of: 0) {
            let at = SourceText(bytes: bytes).location(ofByteOffset: offset)
            throw KBError("\(input):\(at.line):\(at.column): the text contains a NUL byte")
        }
        guard text.contains(where: { !$0.isWhitespace }) else { throw KBError("'\(input)' is empty") }

        let today = context.environment["KB_IMPORT_DATE"] ?? EntryImporter.today()
        let draft = EntryImporter().draft(text, options: .init(lang: lang, id: id, today: today))
        guard let id = draft.id, let markdown = draft.markdown else {
            throw KBError("cannot make an id from the title '\(draft.title)' (it needs two ASCII words or an API name); pass --id <id>")
        }
        let attempts = draft.document.sections.filter { if case .attempt = $0.kind { return true }; return false }.count
        let summary = "\(draft.lang), \(attempts) \(attempts == 1 ? "attempt" : "attempts"), \(draft.todos.count) TODO(kb-import) \(draft.todos.count == 1 ? "question" : "questions")"
        guard write else {
            context.stdout.write(markdown)
            context.stderr.print("draft \(id): \(summary)")
            return ExitCode.success
        }
        let folder = (context.entriesDirectory as NSString).appendingPathComponent(id)
        let file = (folder as NSString).appendingPathComponent(EntryLocator.entryFileName)
        if FileManager.default.fileExists(atPath: file) {
            throw KBError("\(Self.display(file, context)) already exists; not overwriting it (choose another --id or edit the entry)")
        }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // `withoutOverwriting` makes the check and the write one step.
        do {
            try Data(markdown.utf8).write(to: URL(fileURLWithPath: file), options: .withoutOverwriting)
        } catch {
            if FileManager.default.fileExists(atPath: file) {
                throw KBError("\(Self.display(file, context)) already exists; not overwriting it")
            }
            throw KBError("cannot write \(Self.display(file, context)): \(error.localizedDescription)")
        }
        context.stdout.print("created \(Self.display(file, context))")
        if context.root == nil && context.environment["KB_ENTRIES"] == nil {
            context.stderr.print("note: no knowledge base here or above, so the draft went into entries/ of the working directory; run 'kb init' here to make it one")
        }
        context.stderr.print("draft \(id): \(summary); run 'kb lint' and answer the TODO(kb-import) comments")
        return ExitCode.success
    }

    static func display(_ path: String, _ context: CommandContext) -> String {
        let base = context.workingDirectory.hasSuffix("/") ? context.workingDirectory : context.workingDirectory + "/"
        return path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path
    }
}
