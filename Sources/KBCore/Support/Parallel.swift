import Dispatch
import Synchronization

/// Work spread over the machine's cores, with one result per index, in index order.
///
/// This is the one place where threads write into shared memory without a lock, and why that is
/// safe: the result array is allocated uninitialized with room for every index; iteration `i`
/// initializes slot `i` and no other, so no two threads ever touch the same slot; and the array
/// is handed back only after `DispatchQueue.concurrentPerform` has returned, which waits for
/// every iteration. The compiler cannot see that discipline, hence the `nonisolated(unsafe)`
/// bindings below; code elsewhere calls these functions instead of keeping buffers of its own
/// (`ParallelTests` compares every variant with a plain `map`).
package enum Parallel {
    /// `transform(0) ... transform(count - 1)`, computed on all cores.
    package static func map<T>(_ count: Int, _ transform: (Int) -> T) -> [T] {
        map(count, slices: count, transform)
    }

    /// The same, with the indexes cut into `slices` contiguous ranges, one iteration each: fewer,
    /// larger pieces of work when each index is cheap (a `stat`, a line of HTML).
    package static func map<T>(_ count: Int, slices: Int, _ transform: (Int) -> T) -> [T] {
        guard count > 0 else { return [] }
        let slices = min(max(1, slices), count)
        return withoutActuallyEscaping(transform) { transform in
            nonisolated(unsafe) let work = transform
            return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
                nonisolated(unsafe) let slots = buffer
                DispatchQueue.concurrentPerform(iterations: slices) { slice in
                    for index in (count * slice / slices)..<(count * (slice + 1) / slices) {
                        (slots.baseAddress! + index).initialize(to: work(index))
                    }
                }
                initialized = count
            }
        }
    }

    /// The same, on at most `workers` threads that take the next index as they become free (for
    /// long work of uneven length, such as running check scenarios). `finished` is called after
    /// each index, one call at a time, with the number finished so far and the result.
    package static func map<T>(_ count: Int, workers: Int, _ transform: (Int) -> T, finished: (Int, T) -> Void) -> [T] {
        guard count > 0 else { return [] }
        let next = Counter(), done = SerialCalls()
        return withoutActuallyEscaping(transform) { transform in
            withoutActuallyEscaping(finished) { finished in
                nonisolated(unsafe) let (work, report) = (transform, finished)
                return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
                    nonisolated(unsafe) let slots = buffer
                    DispatchQueue.concurrentPerform(iterations: min(max(1, workers), count)) { _ in
                        while case let index = next.increment() - 1, index < count {
                            let result = work(index)
                            done.run { report($0, result) }
                            (slots.baseAddress! + index).initialize(to: result)
                        }
                    }
                    initialized = count
                }
            }
        }
    }
}

/// Calls made one at a time from any thread, each told how many calls came before it plus one.
final class SerialCalls: Sendable {
    private let count = Mutex(0)

    func run(_ body: (Int) -> Void) {
        count.withLock { count in
            count += 1
            body(count)
        }
    }
}
