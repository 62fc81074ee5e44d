import Foundation
import Dispatch
import Synchronization

/// Work started on a thread of its own; `wait()` returns its value when it is done, or rethrows its error.
package final class BackgroundTask<Value: Sendable>: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let result = Mutex<Result<Value, Error>?>(nil)

    package init(_ work: @escaping @Sendable () throws -> Value) {
        let thread = Thread { [self] in
            let outcome = Result { try work() }
            result.withLock { $0 = outcome }
            done.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Waits for the work and returns its value (or rethrows its error); may be called more than once.
    package func wait() throws -> Value {
        if let finished = result.withLock({ $0 }) { return try finished.get() }
        done.wait()
        done.signal() // for later calls
        return try result.withLock { $0 }!.get()
    }
}
