import Foundation
import Synchronization

/// Hands values to a short-lived thread that drops them, so that freeing large structures made
/// of many small allocations does not hold up the caller. A process that exits meanwhile simply
/// skips the work; a long-running one frees them a moment later.
package enum BackgroundRelease {
    /// The values on their way to the other thread: `sending` guarantees the caller keeps no
    /// reference to them, and the mutex makes the hand-over checked by the compiler.
    private final class Box: Sendable {
        let values: Mutex<[Any]>
        init(_ values: sending [Any]) { self.values = Mutex(values) }
    }

    /// Takes `values` (pass them with `consume` so the caller keeps no reference of its own).
    package static func release(_ values: sending [Any]) {
        let box = Box(values)
        let thread = Thread { box.values.withLock { $0.removeAll() } }
        thread.start()
    }
}
