import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

/// Cucumber's gherkin testdata: every good file must compile to the expected
/// pickles, every bad file must fail with the expected errors. The data is read
/// from shared/conformance/gherkin in place; without it these tests are
/// disabled and `conformanceSummary` prints why.
@Suite struct GherkinConformanceTests {
    // Disabled, not failed, on machines without the shared conformance data.
    @Test(.enabled(if: GherkinConformance.isAvailable), arguments: GherkinConformance.goodFiles)
    func goodFileCompilesToExpectedPickles(name: String) throws {
        let dialects = try GherkinConformance.fullDialects.get()
        let mismatch = GherkinConformance.checkGood(
            directory: GherkinConformance.directory! + "/good", name: name, dialects: dialects
        )
        #expect(mismatch == nil, "\(mismatch ?? "")")
    }

    // Disabled, not failed, on machines without the shared conformance data.
    @Test(.enabled(if: GherkinConformance.isAvailable), arguments: GherkinConformance.badFiles)
    func badFileFailsWithExpectedErrors(name: String) throws {
        let dialects = try GherkinConformance.fullDialects.get()
        let mismatch = GherkinConformance.checkBad(
            directory: GherkinConformance.directory! + "/bad", name: name, dialects: dialects
        )
        #expect(mismatch == nil, "\(mismatch ?? "")")
    }

    /// The project's own zh-CN, ko and ja features, checked against hand-verified pickles.
    @Test(arguments: GherkinConformance.fixtureFiles)
    func fixtureCompilesToExpectedPickles(name: String) {
        let mismatch = GherkinConformance.checkGood(
            directory: GherkinConformance.fixturesDirectory, name: name, dialects: .builtIn
        )
        #expect(mismatch == nil, "\(mismatch ?? "")")
    }

    @Test func fixturesArePresent() {
        let names = GherkinConformance.fixtureFiles
        #expect(names.count >= 3)
    }

    /// Prints how many conformance files pass (disabled, with the reason, without the data).
    @Test(.enabled(if: GherkinConformance.isAvailable, Comment(rawValue: GherkinConformance.skipReason)))
    func conformanceSummary() throws {
        let directory = try #require(GherkinConformance.directory)
        let dialects = try GherkinConformance.fullDialects.get()
        let good = GherkinConformance.goodFiles
        let bad = GherkinConformance.badFiles
        let goodPassed = good.filter {
            GherkinConformance.checkGood(directory: directory + "/good", name: $0, dialects: dialects) == nil
        }
        let badPassed = bad.filter {
            GherkinConformance.checkBad(directory: directory + "/bad", name: $0, dialects: dialects) == nil
        }
        // Ids are not required to match, but the parser numbers nodes as cucumber does.
        let sameIDs = good.filter {
            GherkinConformance.checkGood(
                directory: directory + "/good", name: $0, dialects: dialects, ignoring: ["uri"]
            ) == nil
        }
        print("gherkin conformance: \(goodPassed.count)/\(good.count) good, \(badPassed.count)/\(bad.count) bad"
            + " (ids identical too in \(sameIDs.count)/\(good.count))")
        #expect(!good.isEmpty && !bad.isEmpty)
        #expect(goodPassed.count == good.count)
        #expect(badPassed.count == bad.count)
    }
}
