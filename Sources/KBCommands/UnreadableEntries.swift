import KBCore

/// Entries with nothing sound to show, list or export: a file that cannot be read, or front
/// matter that does not parse. `kb show` prints their errors; `kb list` and `kb export` leave
/// them out and say which (and fail), rather than showing empty records. (A value of the wrong
/// type, such as `tags: ios`, leaves a sound entry: lint reports it.)
enum UnreadableEntries {
    /// The parse errors after which an entry is left out.
    static let rules: Set<LintRule> = [.invalidUTF8, .nulByte, .fileTooLarge, .io, .frontMatter]

    /// Whether `item` is such an entry.
    static func contains(_ item: KnowledgeBase.Item) -> Bool {
        item.entry == nil || item.diagnostics.contains { $0.severity == .error && rules.contains($0.rule) }
    }

    /// The readable entries of `items`, and the paths of the others.
    static func split(_ items: [KnowledgeBase.Item]) -> (entries: [Entry], unreadable: [String]) {
        var entries: [Entry] = [], unreadable: [String] = []
        for item in items {
            if contains(item) { unreadable.append(item.location.displayPath) } else if let entry = item.entry { entries.append(entry) }
        }
        return (entries, unreadable)
    }

    /// `note: …` on standard error for the entries left out (nothing when there are none).
    static func report(_ unreadable: [String], leftOutOf what: String, context: CommandContext) {
        guard !unreadable.isEmpty else { return }
        let count = unreadable.count == 1 ? "1 entry cannot be read and is" : "\(unreadable.count) entries cannot be read and are"
        context.stderr.print("note: \(count) not \(what) (kb lint shows why): \(unreadable.sorted().joined(separator: ", "))")
    }
}
