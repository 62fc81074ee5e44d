// The TroubleshootKB library: one import for every layer (ARCHITECTURE.md).
//
//   KBCore       Markdown, front matter, entries and records, lint, the knowledge-base loader,
//                configuration, import
//   KBSearch     the search index (`.kb/index`), the query engine, the web export
//   KBScenarios  Gherkin, steps, worlds (shell, the navigation-bar model), kb check
//   KBSite       the static site, the incremental build, the preview server
//   KBCommands   the kb commands
@_exported import KBCore
@_exported import KBSearch
@_exported import KBScenarios
@_exported import KBSite
@_exported import KBCommands
