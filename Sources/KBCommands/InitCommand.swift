import Foundation
import KBCore
import KBSearch
import KBScenarios
import KBSite

/// `kb init [DIR]`: starts a knowledge base of one's own.
public struct InitCommand: KBCommand {
    public static let langOption = CommandOption(["--lang"], value: "langs", help: "Comma-separated languages of the example entries, in home-page order (default: zh-Hans,ko,ja,en).", choices: StarterKnowledgeBase.languages)
    public static let titleOption = CommandOption(["--title"], value: "title", help: "The site's title (default: the folder's name).")

    public static let configuration = CommandConfiguration(
        name: "init",
        abstract: "Start a new knowledge base: kb.yaml, an example entry per language, glossary, CI workflow.",
        discussion: """
        Writes kb.yaml, entries/ with one example entry (and its check scenario) per language, \
        entries/glossary.yaml, .gitignore and .github/workflows/kb.yml (lint --strict, check \
        --junit, build). The examples lint clean and reproduce with GNU sort, so 'kb lint', \
        'kb check' and 'kb build' work at once. Nothing is overwritten: if any of these files \
        exists, nothing is written (a .gitignore the folder has only gets the lines it lacks), \
        and a write that fails takes back the files and folders written before it.
        """,
        arguments: [.init("dir", help: "Where to create the knowledge base (default: the working directory); created if missing.", arity: .optional, completion: .directories)],
        options: [langOption, titleOption]
    )

    public let directory: String
    public let languages: [String]
    public let title: String?

    public init(_ arguments: ParsedArguments) throws {
        guard arguments.positionals.count <= 1 else { throw UsageError("unexpected argument '\(arguments.positionals[1])'") }
        directory = arguments.positionals.first ?? "."
        let list = arguments.value(Self.langOption).map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
            ?? StarterKnowledgeBase.languages
        for language in list where !StarterKnowledgeBase.languages.contains(language) {
            throw UsageError("'\(Self.langOption.key)' takes languages from \(StarterKnowledgeBase.languages.joined(separator: ", ")), got '\(language)'")
        }
        guard !list.isEmpty, !list.contains("") else { throw UsageError("'\(Self.langOption.key)' needs at least one language, like \(Self.langOption.key) zh-Hans,en") }
        guard Set(list).count == list.count else { throw UsageError("'\(Self.langOption.key)' names a language twice") }
        languages = list
        title = arguments.value(Self.titleOption)
        if let title, title.trimmingCharacters(in: .whitespaces).isEmpty { throw UsageError("'\(Self.titleOption.key)' must not be empty") }
        if let title, title.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw UsageError("'\(Self.titleOption.key)' must be one line of text without control characters")
        }
    }

    public var knowledgeBase: KnowledgeBaseRequirement { .none }

    public func run(_ context: CommandContext) throws -> Int32 {
        let fm = FileManager.default
        let root = EntryLocator.absolute(directory, workingDirectory: context.workingDirectory)
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: root, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw KBError("\(directory) exists and is not a folder")
        }
        // Inside another knowledge base: refused in its entries folder (the new one would be read as
        // an entry), said plainly anywhere else.
        let parent = (root as NSString).deletingLastPathComponent
        if let (outer, _) = try? KnowledgeBaseRoot.discover(workingDirectory: parent, environment: [:], explicit: nil), outer.path != root {
            let entries = outer.entriesDirectory
            if root == entries || root.hasPrefix(entries + "/") {
                throw KBError("\(directory) is inside the entries folder of the knowledge base at \(outer.path), where it would be read as an entry; choose a folder outside it")
            }
            context.stderr.print("note: \(directory) is inside the knowledge base at \(outer.path); kb commands run in \(directory) will use the new one")
        }
        let name = (root as NSString).lastPathComponent
        let date = context.environment["KB_IMPORT_DATE"] ?? EntryImporter.today()
        let starter = StarterKnowledgeBase(title: title ?? (name.isEmpty || name == "/" ? "Knowledge base" : name), languages: languages, date: date)
        let files = starter.files
        // Check everything first, so a refusal writes nothing.
        let existing = files.map(\.path).filter { fm.fileExists(atPath: (root as NSString).appendingPathComponent($0)) }
        guard existing.isEmpty else {
            throw KBError("\(directory) already has \(existing.joined(separator: ", ")); nothing was written")
        }
        // What this run made, taken back if a later write fails (a knowledge base is made whole
        // or not at all, so that kb init can simply be run again).
        var madeFiles: [String] = [], madeFolders: [String] = []
        func takeBack() {
            for file in madeFiles.reversed() { try? fm.removeItem(atPath: file) }
            for folder in madeFolders.reversed() { _ = rmdir(folder) }
        }
        /// Makes the missing folders of `folder` one by one, so that each can be taken back.
        func makeFolders(_ folder: String) throws {
            var missing: [String] = []
            var path = folder
            while !path.isEmpty && path != "/" && !fm.fileExists(atPath: path) {
                missing.append(path)
                path = (path as NSString).deletingLastPathComponent
            }
            for folder in missing.reversed() {
                try fm.createDirectory(atPath: folder, withIntermediateDirectories: false)
                madeFolders.append(folder)
            }
        }
        for file in files {
            let target = (root as NSString).appendingPathComponent(file.path)
            do {
                try makeFolders((target as NSString).deletingLastPathComponent)
                try Data(file.content.utf8).write(to: URL(fileURLWithPath: target), options: .withoutOverwriting)
                madeFiles.append(target)
            } catch {
                takeBack()
                // WriteFailure names a file in the way of the target's folders.
                throw KBError("cannot write \(target): \(WriteFailure.reason(error, path: target)); nothing was written")
            }
        }
        // .gitignore: created, or the missing lines added to the one the folder has.
        let gitignore = (root as NSString).appendingPathComponent(".gitignore")
        var written = files.map(\.path)
        if let data = fm.contents(atPath: gitignore), let text = String(data: data, encoding: .utf8) {
            let present = Set(text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) })
            let missing = StarterKnowledgeBase.ignoredLines.filter { !present.contains($0) && !present.contains("/" + $0) }
            if !missing.isEmpty {
                let addition = (text.hasSuffix("\n") || text.isEmpty ? "" : "\n") + StarterKnowledgeBase.gitignoreHeader + "\n" + missing.joined(separator: "\n") + "\n"
                do {
                    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: gitignore))
                    defer { try? handle.close() }
                    let length = try handle.seekToEnd()
                    do {
                        try handle.write(contentsOf: Data(addition.utf8))
                    } catch {
                        // A part written is taken back: the file is as it was.
                        try? handle.truncate(atOffset: length)
                        throw error
                    }
                } catch {
                    takeBack()
                    throw KBError("cannot add to \(gitignore): \(WriteFailure.reason(error)); nothing else was written")
                }
                written.append(".gitignore (added \(missing.joined(separator: ", ")))")
            }
        } else {
            let text = StarterKnowledgeBase.gitignoreHeader + "\n" + StarterKnowledgeBase.ignoredLines.joined(separator: "\n") + "\n"
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: gitignore), options: .withoutOverwriting)
            } catch {
                takeBack()
                throw KBError("cannot write \(gitignore): \(WriteFailure.reason(error)); nothing was written")
            }
            written.append(".gitignore")
        }
        let here = root == (context.workingDirectory as NSString).standardizingPath
        let shown = here ? "." : EntryLocator.displayPath(root, workingDirectory: context.workingDirectory)
        context.stdout.print("Created a knowledge base in \(shown) (\(written.count) files):")
        for file in written { context.stdout.print("  " + file) }
        context.stdout.print("\nNext:")
        if !here { context.stdout.print("  cd \(directory)") }
        context.stdout.print("""
          kb lint            check the entries
          kb check           run their scenarios
          kb build           build the site into \(KnowledgeBaseConfiguration().output)/
          kb new "a title"   start an entry of your own (kb help new)
        """)
        return ExitCode.success
    }
}
