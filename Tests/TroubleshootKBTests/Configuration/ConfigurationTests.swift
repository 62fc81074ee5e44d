import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

/// kb.yaml: every key read, unknown keys warned about, bad values reported at their line and column.
@Suite struct ConfigurationTests {
    @Test func readsEveryKey() {
        let text = """
        title: Team KB
        description: Notes of the mobile team.
        base_url: https://example.com/kb/
        languages: [ko, en]
        entries: notes
        output: public
        theme: theme
        check:
          jobs: 4
          timeout: 30
        """
        let (configuration, diagnostics) = KnowledgeBaseConfiguration.read(bytes: Array(text.utf8), path: "kb.yaml")
        #expect(diagnostics.isEmpty)
        #expect(configuration.title == "Team KB")
        #expect(configuration.description == "Notes of the mobile team.")
        #expect(configuration.baseURL == "https://example.com/kb/")
        #expect(configuration.languages == ["ko", "en"])
        #expect(configuration.entries == "notes")
        #expect(configuration.output == "public")
        #expect(configuration.theme == "theme")
        #expect(configuration.checkJobs == 4)
        #expect(configuration.checkTimeout == 30)
    }

    @Test func emptyFileMeansDefaults() {
        let (configuration, diagnostics) = KnowledgeBaseConfiguration.read(bytes: Array("# nothing yet\n".utf8), path: "kb.yaml")
        #expect(diagnostics.isEmpty)
        #expect(configuration == KnowledgeBaseConfiguration())
    }

    struct BadValue: CustomTestStringConvertible, Sendable {
        let name: String
        let yaml: String
        let severity: Diagnostic.Severity
        let location: String
        let message: String
        let rule: LintRule
        var testDescription: String { name }
    }

    static let badValues: [BadValue] = [
        .init(name: "unknown key", yaml: "title: A\nsite_name: B\n", severity: .warning, location: "2:1", message: "unknown setting 'site_name'", rule: .configUnknownKey),
        .init(name: "unknown check key", yaml: "check:\n  parallel: 2\n", severity: .warning, location: "2:3", message: "unknown setting 'check.parallel'", rule: .configUnknownKey),
        .init(name: "base URL not http", yaml: "base_url: ftp://example.com/\n", severity: .error, location: "1:11", message: "'base_url' must be a path starting with /", rule: .config),
        .init(name: "title a list", yaml: "title: [a, b]\n", severity: .error, location: "1:8", message: "'title' must be a string, found a list", rule: .config),
        .init(name: "empty title", yaml: "title: \"\"\n", severity: .error, location: "1:8", message: "'title' must not be empty", rule: .config),
        .init(name: "languages not a list", yaml: "languages: ko\n", severity: .error, location: "1:12", message: "'languages' must be a list", rule: .config),
        .init(name: "bad language tag", yaml: "languages: [ko, 'korean language']\n", severity: .error, location: "1:17", message: "'korean language' is not a language tag", rule: .config),
        .init(name: "zero jobs", yaml: "check:\n  jobs: 0\n", severity: .error, location: "2:9", message: "'check.jobs' must be a whole number from 1 to 256, found '0'", rule: .config),
        .init(name: "timeout not a number", yaml: "check:\n  timeout: soon\n", severity: .error, location: "2:12", message: "'check.timeout' must be a whole number", rule: .config),
        .init(name: "key twice", yaml: "title: A\ntitle: B\n", severity: .error, location: "2:1", message: "'title' is set twice", rule: .config),
        .init(name: "not a mapping", yaml: "- title\n", severity: .error, location: "1:1", message: "kb.yaml must be a mapping of settings", rule: .config),
        .init(name: "YAML syntax", yaml: "title: [unclosed\n", severity: .error, location: "2:1", message: "invalid YAML", rule: .config),
        .init(name: "two documents", yaml: "title: A\n---\ntitle: B\n", severity: .error, location: "2:1", message: "holds a second YAML document", rule: .config),
        .init(name: "output is the entries folder", yaml: "entries: notes\noutput: notes\n", severity: .error, location: "2:9", message: "'output' (notes) must be apart from 'entries'", rule: .config),
        .init(name: "output inside the theme", yaml: "theme: site\noutput: ./site/out\n", severity: .error, location: "2:9", message: "must be apart from 'theme' (site)", rule: .config),
    ]

    @Test(arguments: badValues)
    func reportsBadValues(_ bad: BadValue) throws {
        let (_, diagnostics) = KnowledgeBaseConfiguration.read(bytes: Array(bad.yaml.utf8), path: "kb.yaml")
        let diagnostic = try #require(diagnostics.first, "no diagnostic for \(bad.name)")
        #expect(diagnostic.severity == bad.severity)
        #expect(diagnostic.location?.description == bad.location, "\(diagnostic.formatted)")
        #expect(diagnostic.message.contains(bad.message), "\(diagnostic.formatted)")
        #expect(diagnostic.rule == bad.rule)
        #expect(diagnostic.formatted.hasPrefix("kb.yaml:\(bad.location): \(bad.severity.rawValue): "))
    }

    @Test func badValueKeepsTheDefault() {
        let (configuration, _) = KnowledgeBaseConfiguration.read(bytes: Array("check:\n  jobs: many\n".utf8), path: "kb.yaml")
        #expect(configuration.checkJobs == KnowledgeBaseConfiguration().checkJobs)
    }

    /// docs/configuration.md names every key kb.yaml takes.
    @Test func documentationListsEveryKey() throws {
        let docs = try String(contentsOfFile: TestSupport.repositoryRoot + "/docs/configuration.md", encoding: .utf8)
        for (key, _) in KnowledgeBaseConfiguration.keys {
            #expect(docs.contains("`\(key)`"), "docs/configuration.md does not describe '\(key)'")
        }
        for key in ["check.jobs", "check.timeout", "default_root"] {
            #expect(docs.contains("`\(key)`"), "docs/configuration.md does not describe '\(key)'")
        }
    }

    /// This repository's own kb.yaml reads without a diagnostic.
    @Test func repositoryConfigurationIsClean() throws {
        let data = try #require(FileManager.default.contents(atPath: TestSupport.repositoryRoot + "/kb.yaml"))
        let (configuration, diagnostics) = KnowledgeBaseConfiguration.read(bytes: [UInt8](data), path: "kb.yaml")
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.formatted))")
        #expect(configuration.theme == "site")
    }
}
