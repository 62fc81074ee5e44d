import Foundation
import Synchronization
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

/// `Parallel.map` against a plain `map`: every index once, in order, whatever the split.
@Suite struct ParallelTests {
    struct Split: CustomTestStringConvertible, Sendable {
        let name: String
        let count: Int
        let slices: Int
        var testDescription: String { name }
    }

    static let splits: [Split] = [
        Split(name: "nothing", count: 0, slices: 4),
        Split(name: "one index", count: 1, slices: 8),
        Split(name: "an index per iteration", count: 1_000, slices: 1_000),
        Split(name: "uneven slices", count: 1_003, slices: 7),
        Split(name: "more slices than indexes", count: 5, slices: 64),
        Split(name: "one slice", count: 300, slices: 1),
    ]

    /// A value with heap storage inside, so that a slot skipped, written twice or filled with
    /// another index's value shows up as a wrong or damaged string.
    static func value(_ index: Int) -> [String] { ["item \(index)", String(repeating: "x", count: index % 17)] }

    @Test(arguments: splits)
    func slicedMapEqualsPlainMap(_ split: Split) {
        let calls = Counter()
        let made = Parallel.map(split.count, slices: split.slices) { index -> [String] in
            _ = calls.increment()
            return Self.value(index)
        }
        #expect(made == (0..<split.count).map(Self.value))
        #expect(calls.increment() - 1 == split.count, "each index is computed exactly once")
    }

    @Test(arguments: splits)
    func mapPerIndexEqualsPlainMap(_ split: Split) {
        #expect(Parallel.map(split.count, Self.value) == (0..<split.count).map(Self.value))
    }

    @Test(arguments: [1, 2, 3, 16])
    func workersTakeEveryIndexOnceAndReportEachInTurn(_ workers: Int) {
        let count = 257
        let reported = Mutex<[Int]>([])
        let seen = Mutex<Set<Int>>([])
        let made = Parallel.map(count, workers: workers, { index -> [String] in
            seen.withLock { _ = $0.insert(index) }
            return Self.value(index)
        }, finished: { finished, _ in reported.withLock { $0.append(finished) } })
        #expect(made == (0..<count).map(Self.value))
        #expect(seen.withLock { $0 } == Set(0..<count))
        #expect(reported.withLock { $0 } == Array(1...count), "finished counts go up by one, one call at a time")
    }
}
