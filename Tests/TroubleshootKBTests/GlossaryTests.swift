import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

@Suite struct GlossaryTests {
    @Test func repositoryGlossaryIsValid() throws {
        let (glossary, diagnostics) = Glossary.load(entriesDirectory: TestSupport.entriesDirectory)
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.formatted))")
        #expect(glossary.concepts.count >= 20)
        let navigationBar = try #require(glossary.concepts.first { $0.id == "navigation-bar" })
        #expect(Set(navigationBar.terms.map(\.language)) == Set(Glossary.languages))
    }

    @Test func conflictsDuplicatesAndUnknownLanguagesAreReported() {
        let text = """
        concepts:
          - id: a
            en: [bar, bar]
            fr: [barre]
          - id: b
            ko: [바]
            en: [Bar]
          - id: a
            ja: [バー]
        """
        let (_, diagnostics) = Glossary.read(bytes: Array(text.utf8), path: "glossary.yaml")
        let rules = diagnostics.map { "\($0.rule.id)@\($0.location!.line)" }
        #expect(rules.contains("glossary-duplicate@3"))       // bar twice in a
        #expect(rules.contains("glossary-language@4"))        // fr
        #expect(rules.contains("glossary-term-conflict@7"))   // Bar in a and b
        #expect(rules.contains("glossary-duplicate@8"))       // id a twice
    }
}
