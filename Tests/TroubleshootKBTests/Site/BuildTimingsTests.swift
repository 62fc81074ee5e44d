import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

/// `kb build --timings`: one line per step, in the order the steps ran, on standard error only.
@Suite struct BuildTimingsTests {
    @Test func timingsListEveryStepInOrder() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(dir) }
        let result = SiteTestSupport.build(["--out", dir + "/site", "--timings"], in: TestSupport.repositoryRoot)
        #expect(result.code == 0, "\(result.stdout)\(result.stderr)")
        #expect(!result.stdout.contains(" s  "), "timings go to standard error: \(result.stdout)")
        let lines = result.stderr.split(separator: "\n").map(String.init).filter { $0.contains(" s  ") }
        var steps: [String] = []
        for line in lines {
            let parts = line.trimmingCharacters(in: .whitespaces).components(separatedBy: " s  ")
            #expect(parts.count == 2, "\(line)")
            let seconds = try #require(Double(parts[0]), "\(line)")
            #expect(seconds >= 0 && seconds < 600, "\(line)")
            steps.append(parts[1])
        }
        let sequential = steps.filter { SiteBuildStep(rawValue: $0) != nil }
        #expect(sequential == SiteBuildStep.allCases.map(\.rawValue), "\(steps)")
        #expect(steps.contains { $0.hasPrefix("search index") } && steps.contains { $0.hasPrefix("search files") }, "\(steps)")
    }

    @Test func noTimingsUnlessAsked() {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(dir) }
        let result = SiteTestSupport.build(["--out", dir + "/site"], in: TestSupport.repositoryRoot)
        #expect(result.code == 0, "\(result.stdout)\(result.stderr)")
        #expect(!result.stderr.contains(" s  parse"), "\(result.stderr)")
    }
}
