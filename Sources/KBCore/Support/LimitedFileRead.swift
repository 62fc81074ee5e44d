import Foundation

/// Reads a whole file, refusing one larger than a limit (or only its start, `head`): entry, scenario, report and site files are
/// read through it, so an oversized or unreadable file is an error with a message (`read`) or a
/// nil the caller handles (`bytes`), never a crash.
package enum LimitedFileRead {
    /// Why a file could not be read, in words for a diagnostic.
    package struct Failure: Error {
        package let message: String
    }

    /// Works on any readable file (a pipe, `/dev/stdin`, a process substitution); the failure
    /// says why (`No such file or directory`, `Is a directory`).
    package static func read(_ path: String, limit: Int) -> Result<Data, Failure> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            return .failure(Failure(message: "cannot read the file: \(String(cString: strerror(errno)))"))
        }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            return .failure(Failure(message: "cannot read the file: \(String(cString: strerror(EISDIR)))"))
        }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
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

    /// At most the first `count` bytes of a file; nil when it cannot be read.
    package static func head(_ file: String, count: Int) -> [UInt8]? {
        let fd = open(file, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return read(fd, upTo: count)
    }

    /// A regular file's bytes read straight into an array, when it is smaller than `limit`; nil on
    /// any failure or surprise (the caller then takes the path that reads and reports it).
    package static func bytes(_ file: String, limit: Int) -> [UInt8]? {
        let fd = open(file, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size >= 0, Int(info.st_size) < limit else { return nil }
        let expected = Int(info.st_size)
        // A file that grew while it was read is left to the general path.
        guard let bytes = read(fd, upTo: expected + 1), bytes.count <= expected else { return nil }
        return bytes
    }

    /// Up to `count` bytes from `fd`, read straight into an array (fewer at the end of the file);
    /// nil on a read error.
    private static func read(_ fd: Int32, upTo count: Int) -> [UInt8]? {
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var total = 0
            while total < count {
                let r = Glibc.read(fd, buffer.baseAddress! + total, count - total)
                if r < 0 { if errno == EINTR { continue }; failed = true; break }
                if r == 0 { break }
                total += r
            }
            initialized = total
        }
        return failed ? nil : bytes
    }
}
