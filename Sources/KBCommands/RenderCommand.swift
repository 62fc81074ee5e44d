import Foundation
import KBCore
import KBSearch
import KBScenarios
import KBSite

/// `kb render FILE|-`: Markdown to HTML the way the site renders entry bodies.
public struct RenderCommand: KBCommand {
    public static let unsafeHTMLOption = CommandOption(["--unsafe-html"], help: "Pass raw HTML and dangerous URLs through (trusted input only).")
    public static let keepSoftBreaksOption = CommandOption(["--keep-soft-breaks"], help: "Keep every soft break (plain cmark output).")

    public static let configuration = CommandConfiguration(
        name: "render",
        abstract: "Render Markdown to HTML as the site does (cmark, CJK soft breaks joined).",
        discussion: """
        Soft line breaks between Chinese or Japanese characters (Han, kana, full-width punctuation) are \
        removed, so no space appears where the source wraps; breaks next to Hangul, Latin letters or \
        digits are kept. Raw HTML is replaced by a comment unless --unsafe-html is given.
        """,
        arguments: [.init("file", help: "A Markdown file, or - for standard input.", completion: .files)],
        options: [unsafeHTMLOption, keepSoftBreaksOption]
    )

    public let file: String
    public let unsafeHTML: Bool
    public let keepSoftBreaks: Bool

    public init(_ arguments: ParsedArguments) throws {
        guard arguments.positionals.count == 1 else { throw UsageError("expected exactly one file (or - for standard input)") }
        file = arguments.positionals[0]
        unsafeHTML = arguments.flag(Self.unsafeHTMLOption)
        keepSoftBreaks = arguments.flag(Self.keepSoftBreaksOption)
    }

    public var knowledgeBase: KnowledgeBaseRequirement { .none }

    /// The largest Markdown file rendered (64 MiB): more is refused, not read.
    static let maximumInput = 64 << 20

    public func run(_ context: CommandContext) throws -> Int32 {
        let data: Data
        if file == "-" {
            data = Data(context.readStandardInput())
        } else {
            let path = EntryLocator.absolute(file, workingDirectory: context.workingDirectory)
            switch LimitedFileRead.read(path, limit: Self.maximumInput) {
            case .success(let contents): data = contents
            case .failure(let failure): throw KBError("\(file): \(failure.message)")
            }
        }
        guard let markdown = String(data: data, encoding: .utf8) else { throw KBError("\(file) is not valid UTF-8") }
        context.stdout.write(MarkdownParser.renderHTML(markdown, unsafe: unsafeHTML, joinCJKSoftBreaks: !keepSoftBreaks))
        return ExitCode.success
    }
}
