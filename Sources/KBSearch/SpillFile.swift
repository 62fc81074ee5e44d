import Foundation
import KBCore
#if canImport(Glibc)
import Glibc
#endif

/// Bytes of an index build (its joined postings) written to a file as they are made
/// and mapped when the build is done, so that they are not held in memory (docs/search.md §12):
/// an unlinked temporary file in the index's folder, whose open descriptor the mapped region
/// takes over (and the index writer copies from, file to file, without touching the mapping).
final class SpillFile {
    private let handle: FileHandle
    private var length = 0
    private var failure: String? = nil
    /// Set once `region()` has given the file to a mapped region (which closes it).
    private var handedOver = false

    /// What the file holds, for its name and for errors.
    let content: String

    init(folder: String, content: String) throws {
        self.content = content
        let path = (folder as NSString).appendingPathComponent("search.bin.\(content)-\(getpid())-\(UUID().uuidString)")
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else { throw KBError("cannot write \(path): \(String(cString: strerror(errno)))") }
        unlink(path)
        handle = FileHandle(fileDescriptor: fd, closeOnDealloc: false)
    }

    deinit { if !handedOver { try? handle.close() } }

    /// Adds bytes at the end (a write error is kept and reported by `region()`).
    func append(_ bytes: some DataProtocol) {
        guard failure == nil, !bytes.isEmpty else { return }
        do {
            try handle.write(contentsOf: bytes)
            length += bytes.count
        } catch {
            failure = error.localizedDescription
        }
    }

    /// Everything written, mapped; the region takes the file over.
    func region() throws -> ByteRegion {
        if let failure { throw KBError("cannot write the search \(content): \(failure)") }
        handedOver = true
        guard let region = ByteRegion.map(descriptor: handle.fileDescriptor), region.count == length else {
            throw KBError("cannot read back the search \(content) (\(length) bytes written)")
        }
        return region
    }
}
