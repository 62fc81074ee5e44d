import Foundation

/// `kb init [DIR]`: starts a knowledge base of one's own.
public struct InitCommand: KBCommand {
    public static let configuration = CommandConfiguration(
        name: "init",
        abstract: "Start a new knowledge base: kb.yaml, an example entry per language, glossary, CI workflow.",
        usage: "kb init [<dir>] [--lang <langs>] [--title <title>]",
        discussion: """
        Writes kb.yaml, entries/ with one example entry (and its check scenario) per language, \
        entries/glossary.yaml, .gitignore and .github/workflows/kb.yml (lint --strict, check \
        --junit, build). The examples lint clean and reproduce with GNU sort, so 'kb lint', \
        'kb check' and 'kb build' work at once. Nothing is overwritten: if any of these files \
        exists, nothing is written.
        """,
        arguments: [.init("dir", help: "Where to create the knowledge base (default: the working directory); created if missing.", completion: .directories)],
        options: [
            .init(["--lang"], value: "langs", help: "Comma-separated languages of the example entries, in home-page order (default: zh-Hans,ko,ja,en)."),
            .init(["--title"], value: "title", help: "The site's title (default: the folder's name)."),
        ]
    )

    public let directory: String
    public let languages: [String]
    public let title: String?

    public init(_ arguments: ParsedArguments) throws {
        guard arguments.positionals.count <= 1 else { throw UsageError("unexpected argument '\(arguments.positionals[1])'") }
        directory = arguments.positionals.first ?? "."
        let list = arguments.value("--lang").map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
            ?? StarterKnowledgeBase.languages
        for language in list where !StarterKnowledgeBase.languages.contains(language) {
            throw UsageError("'--lang' takes languages from \(StarterKnowledgeBase.languages.joined(separator: ", ")), got '\(language)'")
        }
        guard !list.isEmpty, Set(list).count == list.count else { throw UsageError("'--lang' needs distinct languages, like zh-Hans,en") }
        languages = list
        title = arguments.value("--title")
        if let title, title.trimmingCharacters(in: .whitespaces).isEmpty { throw UsageError("'--title' must not be empty") }
    }

    public var knowledgeBase: KnowledgeBaseRequirement { .none }

    public func run(_ context: CommandContext) throws -> Int32 {
        let fm = FileManager.default
        let root = EntryLocator.absolute(directory, workingDirectory: context.workingDirectory)
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: root, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw KBError("\(directory) exists and is not a folder")
        }
        let name = (root as NSString).lastPathComponent
        let starter = StarterKnowledgeBase(title: title ?? (name.isEmpty || name == "/" ? "Knowledge base" : name), languages: languages)
        let files = starter.files
        // Check everything first, so a refusal writes nothing.
        let existing = files.map(\.path).filter { fm.fileExists(atPath: (root as NSString).appendingPathComponent($0)) }
        guard existing.isEmpty else {
            throw KBError("\(directory) already has \(existing.joined(separator: ", ")); nothing was written")
        }
        for file in files {
            let target = (root as NSString).appendingPathComponent(file.path)
            do {
                try fm.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try Data(file.content.utf8).write(to: URL(fileURLWithPath: target), options: .withoutOverwriting)
            } catch {
                throw KBError("cannot write \(target): \(error.localizedDescription)")
            }
        }
        let shown = EntryLocator.displayPath(root, workingDirectory: context.workingDirectory)
        context.stdout.print("Created a knowledge base in \(shown == root && root == (context.workingDirectory as NSString).standardizingPath ? "." : shown) (\(files.count) files):")
        for file in files { context.stdout.print("  " + file.path) }
        context.stdout.print("""

        Next:
          cd \(directory == "." ? "." : directory)
          kb lint            check the entries
          kb check           run their scenarios
          kb build           build the site into \(KnowledgeBaseConfiguration().output)/
        Write a new entry by copying an example's folder; docs/writing-entries.md of kb explains the format.
        """)
        return ExitCode.success
    }
}

/// `kb theme`: the built-in theme's files.
public struct ThemeCommand: KBCommand {
    public static let configuration = CommandConfiguration(
        name: "theme",
        abstract: "List the built-in theme's files, or write them out to start a custom theme.",
        usage: "kb theme list | kb theme eject [<dir>]",
        discussion: """
        'kb build' uses the theme inside kb. A folder named by 'theme' in kb.yaml overrides any of \
        its files (same path) and may add others. 'kb theme eject theme' writes the built-in files \
        into theme/ to start from; it never overwrites.
        """,
        arguments: [
            .init("action", help: "list, or eject.", completion: .words(["list", "eject"])),
            .init("dir", help: "For eject: where to write the files (default: theme)."),
        ]
    )

    public let action: String
    public let directory: String

    public init(_ arguments: ParsedArguments) throws {
        guard let action = arguments.positionals.first else { throw UsageError("expected list or eject") }
        guard action == "list" || action == "eject" else { throw UsageError("unknown action '\(action)'; expected list or eject") }
        guard arguments.positionals.count <= (action == "eject" ? 2 : 1) else {
            throw UsageError("unexpected argument '\(arguments.positionals.last!)'")
        }
        self.action = action
        directory = arguments.positionals.count > 1 ? arguments.positionals[1] : "theme"
    }

    public var knowledgeBase: KnowledgeBaseRequirement { action == "list" ? .optional : .none }

    public func run(_ context: CommandContext) throws -> Int32 {
        if action == "list" {
            let folder = context.root?.themeDirectory
            for path in BuiltInTheme.paths {
                let overridden = folder.map { FileManager.default.fileExists(atPath: ($0 as NSString).appendingPathComponent(path)) } ?? false
                context.stdout.print(path + (overridden ? "  (overridden by \(EntryLocator.displayPath(folder! + "/" + path, workingDirectory: context.workingDirectory)))" : ""))
            }
            return ExitCode.success
        }
        let target = EntryLocator.absolute(directory, workingDirectory: context.workingDirectory)
        let written = try BuiltInTheme.eject(into: target)
        for path in written { context.stdout.print("wrote " + EntryLocator.displayPath(path, workingDirectory: context.workingDirectory)) }
        context.stdout.print("Set 'theme: \(directory)' in kb.yaml (relative to the knowledge base root) so kb build uses these files.")
        return ExitCode.success
    }
}
