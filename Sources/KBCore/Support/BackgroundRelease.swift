import Foundation

/// Hands values to a short-lived thread that drops them, so that freeing large structures made
/// of many small allocations does not hold up the caller. A process that exits meanwhile simply
/// skips the work; a long-running one frees them a moment later.
package enum BackgroundRelease {
    private final class Box: @unchecked Sendable {
        var values: [Any]
        init(_ values: [Any]) { self.values = values }
    }

    /// Takes `values` (pass them with `consume` so the caller keeps no reference of its own).
    package static func release(_ values: consuming [Any]) {
        let box = Box(values)
        let thread = Thread { box.values.removeAll() }
        thread.start()
    }
}
