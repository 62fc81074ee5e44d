import Foundation
import KBCore
import KBSearch
import KBScenarios
import KBSite

/// `kb theme`: the built-in theme's files.
public struct ThemeCommand: KBCommand {
    public static let configuration = CommandConfiguration(
        name: "theme",
        abstract: "List the built-in theme's files, or write them out to start a custom theme.",
        discussion: """
        'kb build' uses the theme inside kb. A folder named by 'theme' in kb.yaml overrides any of \
        its files (same path) and may add others. 'kb theme eject theme' writes the built-in files \
        into theme/ to start from; it never overwrites.
        """,
        arguments: [
            .init("action", help: "list, or eject.", completion: .words(["list", "eject"])),
            .init("dir", help: "For eject: where to write the files (default: the theme folder of kb.yaml, else theme/ at the knowledge base root, else ./theme).", arity: .optional, completion: .directories),
        ]
    )

    public let action: String
    /// The folder eject writes to, nil for the default.
    public let directory: String?

    public init(_ arguments: ParsedArguments) throws {
        guard let action = arguments.positionals.first else { throw UsageError("expected list or eject") }
        guard action == "list" || action == "eject" else { throw UsageError("unknown action '\(action)'; expected list or eject") }
        guard arguments.positionals.count <= (action == "eject" ? 2 : 1) else {
            throw UsageError("unexpected argument '\(arguments.positionals.last!)'")
        }
        self.action = action
        directory = arguments.positionals.count > 1 ? arguments.positionals[1] : nil
    }

    public var knowledgeBase: KnowledgeBaseRequirement { .optional }

    public func run(_ context: CommandContext) throws -> Int32 {
        if action == "list" {
            let folder = context.root?.themeDirectory
            for path in BuiltInTheme.paths {
                let overridden = folder.map { FileManager.default.fileExists(atPath: ($0 as NSString).appendingPathComponent(path)) } ?? false
                context.stdout.print(path + (overridden ? "  (overridden by \(EntryLocator.displayPath(folder! + "/" + path, workingDirectory: context.workingDirectory)))" : ""))
            }
            return ExitCode.success
        }
        let target = directory.map { EntryLocator.absolute($0, workingDirectory: context.workingDirectory) }
            ?? context.root.map { $0.themeDirectory ?? $0.resolve("theme") }
            ?? EntryLocator.absolute("theme", workingDirectory: context.workingDirectory)
        let written = try BuiltInTheme.eject(into: target)
        for path in written { context.stdout.print("wrote " + EntryLocator.displayPath(path, workingDirectory: context.workingDirectory)) }
        if let root = context.root {
            let relative = EntryLocator.displayPath(target, workingDirectory: root.path)
            if root.themeDirectory == (target as NSString).standardizingPath {
                context.stdout.print("kb.yaml already names this folder ('theme: \(root.configuration.theme ?? relative)'); kb build uses these files.")
            } else {
                context.stdout.print("Set 'theme: \(relative)' in \(root.configurationFile.map { EntryLocator.displayPath($0, workingDirectory: context.workingDirectory) } ?? "kb.yaml") so kb build uses these files.")
            }
        } else {
            context.stdout.print("Set 'theme:' in your knowledge base's kb.yaml to this folder (relative to its root) so kb build uses these files.")
        }
        return ExitCode.success
    }
}
