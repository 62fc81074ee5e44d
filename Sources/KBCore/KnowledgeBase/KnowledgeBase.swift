import Foundation
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// A set of parsed entry files, in location order (made by `KnowledgeBaseLoader`).
public struct KnowledgeBase: Sendable {
    public struct Item: Sendable {
        public let location: EntryLocation
        public let entry: Entry?
        public let diagnostics: [Diagnostic]
        /// Size of the file in bytes.
        public let size: Int
        /// `ContentChecksum` of the bytes that were parsed (when the file was read and
        /// the load asked for it).
        public internal(set) var contentHash: UInt64? = nil

        package init(location: EntryLocation, entry: Entry?, diagnostics: [Diagnostic], size: Int, contentHash: UInt64? = nil) {
            self.location = location
            self.entry = entry
            self.diagnostics = diagnostics
            self.size = size
            self.contentHash = contentHash
        }
    }

    public let items: [Item]
    /// Problems found while locating entries.
    public let locatorDiagnostics: [Diagnostic]

    public var entries: [Entry] { items.compactMap(\.entry) }

    public func entry(id: String) -> Entry? { entries.first { $0.id == id } }

    /// Files larger than this are not read (and reported by `kb lint`).
    public static let maximumReadSize = 64 << 20

    /// Reads and parses one located entry (`KnowledgeBaseLoader` does this for each, on all cores).
    /// An unreadable or oversized file is an item without an entry, with a diagnostic that says why.
    static func readItem(_ location: EntryLocation, parser: EntryParser, hashesContent: Bool) -> Item {
        let path = location.displayPath
        if let bytes = LimitedFileRead.bytes(location.file, limit: maximumReadSize + 1), bytes.count <= maximumReadSize {
            let hash = hashesContent ? ContentChecksum.of(bytes[...]) : nil
            let result = parser.parse(bytes: bytes, path: path, folderName: location.folderName)
            return Item(location: location, entry: result.entry, diagnostics: result.diagnostics, size: bytes.count, contentHash: hash)
        }
        // Unreadable or too large: the reporting path below.
        guard let handle = FileHandle(forReadingAtPath: location.file) else {
            return Item(location: location, entry: nil, diagnostics: [
                Diagnostic(path: path, location: nil, message: "cannot read the file", rule: .io)
            ], size: 0)
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: maximumReadSize + 1) ?? Data()
        } catch {
            return Item(location: location, entry: nil, diagnostics: [
                Diagnostic(path: path, location: nil, message: "cannot read the file: \(error.localizedDescription)", rule: .io)
            ], size: 0)
        }
        if data.count > maximumReadSize {
            return Item(location: location, entry: nil, diagnostics: [
                Diagnostic(path: path, location: nil, severity: .error,
                           message: "the file is larger than \(maximumReadSize >> 20) MiB; not read", rule: .fileTooLarge)
            ], size: data.count)
        }
        let bytes = [UInt8](data)
        let hash = hashesContent ? ContentChecksum.of(bytes[...]) : nil
        let result = parser.parse(bytes: bytes, path: path, folderName: location.folderName)
        return Item(location: location, entry: result.entry, diagnostics: result.diagnostics, size: data.count, contentHash: hash)
    }
}
