/// A per-entry lint rule that a layer above the core adds to `Linter` (the scenario layer's
/// `ScenarioLinkRule`), so the core does not depend on that layer. It runs for every entry that
/// was found in a folder, after the core rules.
public protocol EntryLintRule: Sendable {
    func check(_ entry: Entry, location: EntryLocation) -> [Diagnostic]
}
