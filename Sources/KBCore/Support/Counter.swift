import Synchronization

/// A thread-safe counter: progress, and work handed out one piece at a time.
package final class Counter: Sendable {
    private let value = Atomic<Int>(0)

    package init() {}

    /// Adds one and returns the new value.
    package func increment() -> Int {
        value.add(1, ordering: .relaxed).newValue
    }
}
