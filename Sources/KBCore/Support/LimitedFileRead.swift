import Foundation

/// Reads a whole file, refusing one larger than a limit: entry, scenario and report files are read
/// through it, so an oversized or unreadable file is an error with a message, never a crash.
package enum LimitedFileRead {
    /// Why a file could not be read, in words for a diagnostic.
    package struct Failure: Error {
        package let message: String
    }

    package static func read(_ path: String, limit: Int) -> Result<Data, Failure> {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            return .failure(Failure(message: "cannot read the file"))
        }
        defer { try? handle.close() }
        do {
            let data = try handle.read(upToCount: limit + 1) ?? Data()
            if data.count > limit {
                return .failure(Failure(message: "the file is larger than \(limit >> 20) MiB"))
            }
            return .success(data)
        } catch {
            return .failure(Failure(message: "cannot read the file: \(error.localizedDescription)"))
        }
    }
}
