import Dispatch
import Synchronization

/// A yes-or-no decision taken once on one thread and awaited on another: work started early
/// waits for it before doing something it may only do when the decision is yes.
package final class PendingDecision: Sendable {
    private let taken = DispatchSemaphore(value: 0)
    private let answer = Mutex<Bool?>(nil)

    package init() {}

    /// Takes the decision; only the first call counts.
    package func decide(_ yes: Bool) {
        let first = answer.withLock { answer -> Bool in
            guard answer == nil else { return false }
            answer = yes
            return true
        }
        if first { taken.signal() }
    }

    /// Waits until the decision is taken and returns it; may be called more than once.
    package func wait() -> Bool {
        taken.wait()
        taken.signal() // for later calls
        return answer.withLock { $0 }!
    }
}
