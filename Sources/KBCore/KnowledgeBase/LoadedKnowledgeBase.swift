import Foundation

/// What `KnowledgeBaseLoader` produced: the entries (or, for `kb lint`, only what lint found),
/// the ids `related` may name, the glossary and every diagnostic of locating, parsing and linting.
public struct LoadedKnowledgeBase: Sendable {
    /// The parsed files, in location order.
    public let base: KnowledgeBase
    /// Ids that `related` may name: every entry folder beside the located ones.
    public let knownIDs: Set<String>
    /// The glossary of the first entries folder loaded as a whole that has one (else empty).
    public internal(set) var glossary: Glossary = .empty
    /// Problems of the glossary files of the entries folders loaded as a whole.
    public internal(set) var glossaryDiagnostics: [Diagnostic] = []
    /// Locator, parse and lint diagnostics sorted by path (nil when the load did not lint).
    public internal(set) var lintDiagnostics: [Diagnostic]? = nil

    init(base: KnowledgeBase, knownIDs: Set<String>) {
        self.base = base
        self.knownIDs = knownIDs
    }

    public var items: [KnowledgeBase.Item] { base.items }
    public var locatorDiagnostics: [Diagnostic] { base.locatorDiagnostics }
    public var entries: [Entry] { base.entries }
    public func entry(id: String) -> Entry? { base.entry(id: id) }

    /// Lints the loaded entries (for a load that did not): the same rules and order as a linted load.
    public func lint(with linter: Linter, progress: @Sendable (Int, Int) -> Void = { _, _ in }) -> [Diagnostic] {
        linter.lint(items, locatorDiagnostics: locatorDiagnostics, knownIDs: knownIDs, progress: progress)
    }

    /// Reads `glossary.yaml` of each folder in `folders` that has one.
    package mutating func attachGlossaries(of folders: [String], workingDirectory: String) {
        var first = true
        for folder in folders {
            let file = (folder as NSString).appendingPathComponent(Glossary.fileName)
            guard FileManager.default.fileExists(atPath: file) else { continue }
            let (glossary, problems) = Glossary.load(entriesDirectory: folder,
                                                     displayPath: EntryLocator.displayPath(file, workingDirectory: workingDirectory))
            if first { self.glossary = glossary; first = false }
            glossaryDiagnostics += problems
        }
    }
}
