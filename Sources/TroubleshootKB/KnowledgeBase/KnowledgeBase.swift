import Foundation
import Dispatch

/// A set of parsed entries, read in parallel from disk.
public struct KnowledgeBase: Sendable {
    public struct Item: Sendable {
        public let location: EntryLocation
        public let entry: Entry?
        public let diagnostics: [Diagnostic]
        /// Size of the file in bytes.
        public let size: Int
        /// `SearchIndexStore.contentHash` of the bytes that were parsed (when the file was read).
        public internal(set) var contentHash: UInt64? = nil
    }

    public let items: [Item]
    /// Problems found while locating entries.
    public let locatorDiagnostics: [Diagnostic]

    public var entries: [Entry] { items.compactMap(\.entry) }

    public func entry(id: String) -> Entry? { entries.first { $0.id == id } }

    /// Files larger than this are not read (and reported by `kb lint`).
    public static let maximumReadSize = 64 << 20

    /// Parses every located entry, spread over the machine's cores.
    public static func load(_ locations: [EntryLocation], locatorDiagnostics: [Diagnostic] = [],
                            parser: EntryParser = EntryParser()) -> KnowledgeBase {
        let count = locations.count
        let results = UnsafeMutableBufferPointer<Item?>.allocate(capacity: count)
        results.initialize(repeating: nil)
        defer {
            results.deinitialize()
            results.deallocate()
        }
        nonisolated(unsafe) let output = results
        DispatchQueue.concurrentPerform(iterations: count) { index in
            output[index] = loadOne(locations[index], parser: parser)
        }
        return KnowledgeBase(items: results.map { $0! }, locatorDiagnostics: locatorDiagnostics)
    }

    /// Locates and loads entries from command-line paths.
    public static func load(paths: [String], workingDirectory: String, parser: EntryParser = EntryParser()) throws -> KnowledgeBase {
        let (locations, diagnostics) = try EntryLocator.locate(paths, workingDirectory: workingDirectory)
        return load(locations, locatorDiagnostics: diagnostics, parser: parser)
    }

    static func loadOne(_ location: EntryLocation, parser: EntryParser) -> Item {
        let path = location.displayPath
        guard let handle = FileHandle(forReadingAtPath: location.file) else {
            return Item(location: location, entry: nil, diagnostics: [
                Diagnostic(path: path, location: nil, severity: .error, message: "cannot read the file", rule: "io")
            ], size: 0)
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: maximumReadSize + 1) ?? Data()
        } catch {
            return Item(location: location, entry: nil, diagnostics: [
                Diagnostic(path: path, location: nil, severity: .error, message: "cannot read the file: \(error.localizedDescription)", rule: "io")
            ], size: 0)
        }
        if data.count > maximumReadSize {
            return Item(location: location, entry: nil, diagnostics: [
                Diagnostic(path: path, location: nil, severity: .error,
                           message: "the file is larger than \(maximumReadSize >> 20) MiB; not read", rule: "file-too-large")
            ], size: data.count)
        }
        let bytes = [UInt8](data)
        let hash = bytes.withUnsafeBytes { SearchIndexStore.contentHash(bytes: $0) }
        let result = parser.parse(bytes: bytes, path: path, folderName: location.folderName)
        return Item(location: location, entry: result.entry, diagnostics: result.diagnostics, size: data.count, contentHash: hash)
    }
}
