import Synchronization

/// A thread-safe counter: progress, and work handed out one piece at a time.
final class Counter: Sendable {
    private let value = Atomic<Int>(0)

    /// Adds one and returns the new value.
    func increment() -> Int {
        value.add(1, ordering: .relaxed).newValue
    }
}
