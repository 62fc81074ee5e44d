import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The on-disk search index of an entries folder (`.kb/index/`): built on first use, reused
/// while no entry changed, rebuilt when one did. A file's size and modification time are
/// compared first; when they differ its content hash decides. A corrupt, old or foreign index
/// is rebuilt, never trusted.
///
/// A rebuild is saved only when the entries lint without errors: otherwise the fresh index
/// answers this one command, the errors are returned, and the index on disk stays as it was
/// (the next command rebuilds again until the entries are fixed). Files over the entry size
/// limit are not indexed, and entry files that resolve outside the entries folder (symbolic
/// links) are neither read nor hashed.
public struct SearchIndexStore: Sendable {
    public let entriesDirectory: String
    public let cacheDirectory: String
    /// Paths in diagnostics are shown relative to this folder (default: the entries folder).
    public var workingDirectory: String

    /// How an `open` went, for `kb index` and `kb search --verbose`.
    public enum Freshness: String, Sendable {
        case reused, built, rebuiltChanged = "rebuilt (entries changed)", rebuiltInvalid = "rebuilt (index unreadable)"
        /// Built for this command only: the entries have lint errors, the index on disk was kept.
        case notSaved = "built in memory, not saved (the entries have errors; run kb lint)"
    }

    static let manifestName = "manifest.tsv"
    static let indexName = "search.bin"

    public init(entriesDirectory: String, cacheDirectory: String, workingDirectory: String? = nil) {
        self.entriesDirectory = entriesDirectory
        self.cacheDirectory = cacheDirectory
        self.workingDirectory = workingDirectory ?? entriesDirectory
    }

    struct FileState: Equatable {
        var path: String
        var size: Int64
        var mtime: Int64
        var hash: UInt64
    }

    /// Opens the index, rebuilding it if needed. `parseProblems` receives diagnostics of
    /// entries that could not be read during a rebuild.
    public func open(forceRebuild: Bool = false) throws -> (index: SearchIndex, freshness: Freshness, diagnostics: [Diagnostic]) {
        let files = try Self.entryFiles(in: entriesDirectory)
        let manifestPath = (cacheDirectory as NSString).appendingPathComponent(Self.manifestName)
        let indexPath = (cacheDirectory as NSString).appendingPathComponent(Self.indexName)
        let previous = forceRebuild ? [:] : Self.readManifest(manifestPath)
        var states: [FileState] = []
        states.reserveCapacity(files.count)
        var changed = forceRebuild || previous.count != files.count
        let resolvedRoot = URL(fileURLWithPath: entriesDirectory).resolvingSymlinksInPath().path
        for file in files {
            if URL(fileURLWithPath: file).resolvingSymlinksInPath().path.hasPrefix(resolvedRoot + "/") == false {
                // Outside the entries folder: not read; the rebuild reports it.
                let state = FileState(path: file, size: -1, mtime: 0, hash: 0)
                if previous[file] != state { changed = true }
                states.append(state)
                continue
            }
            var info = stat()
            guard stat(file, &info) == 0 else { changed = true; continue }
            let size = Int64(info.st_size)
            let mtime = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            if let old = previous[file], old.size == size, old.mtime == mtime {
                states.append(old)
                continue
            }
            let hash = Self.contentHash(path: file)
            if let old = previous[file], old.hash == hash {
                states.append(FileState(path: file, size: size, mtime: mtime, hash: hash))
                continue
            }
            changed = true
            states.append(FileState(path: file, size: size, mtime: mtime, hash: hash))
        }
        let glossaryHash = Self.contentHash(path: (entriesDirectory as NSString).appendingPathComponent(Glossary.fileName))
        let fingerprint = Self.fingerprint(states, extra: glossaryHash)
        if !changed {
            do {
                let index = try SearchIndex.read(from: URL(fileURLWithPath: indexPath), expectedFingerprint: fingerprint)
                if states != Array(previous.values).sorted(by: { $0.path < $1.path }) {
                    try? Self.writeManifest(states, to: manifestPath)
                }
                return (index, .reused, [])
            } catch {
                return try rebuild(states: states, fingerprint: fingerprint, freshness: .rebuiltInvalid,
                                   manifestPath: manifestPath, indexPath: indexPath)
            }
        }
        let freshness: Freshness = previous.isEmpty && !FileManager.default.fileExists(atPath: indexPath) ? .built : .rebuiltChanged
        return try rebuild(states: states, fingerprint: fingerprint, freshness: freshness, manifestPath: manifestPath, indexPath: indexPath)
    }

    private func rebuild(states: [FileState], fingerprint: String, freshness: Freshness,
                         manifestPath: String, indexPath: String) throws -> (index: SearchIndex, freshness: Freshness, diagnostics: [Diagnostic]) {
        let (locations, locatorDiagnostics) = try EntryLocator.locate([entriesDirectory], workingDirectory: workingDirectory)
        // Oversized files are a lint error; they are not read into the index either.
        var oversized: [Diagnostic] = []
        let readable = locations.filter { location in
            var info = stat()
            guard stat(location.file, &info) == 0, Int(info.st_size) > Linter.maximumEntrySize else { return true }
            oversized.append(Diagnostic(path: location.displayPath, location: nil, severity: .error,
                                        message: "the file is \(info.st_size) bytes; entries must be at most 1 MiB (not indexed)",
                                        rule: "file-too-large"))
            return false
        }
        let kb = KnowledgeBase.load(readable, locatorDiagnostics: locatorDiagnostics)
        let documents = kb.entries.map { SearchDocument(entry: $0) }
        let (glossary, _) = Glossary.load(entriesDirectory: entriesDirectory)
        let index = SearchIndex.build(documents: documents, glossary: SearchGlossary(glossary))
        let problems = Linter.sorted(oversized + Linter().lint(kb, knownIDs: LintCommand.knownIDs(for: locations))
            .filter { $0.severity == .error })
        guard problems.isEmpty else { return (index, .notSaved, problems) }
        try FileManager.default.createDirectory(atPath: cacheDirectory, withIntermediateDirectories: true)
        try index.write(to: URL(fileURLWithPath: indexPath), fingerprint: fingerprint)
        try Self.writeManifest(states, to: manifestPath)
        return (index, freshness, [])
    }

    /// Absolute paths of every `<folder>/entry.md`, sorted.
    static func entryFiles(in directory: String) throws -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
            throw KBError("no entries folder at \(directory)")
        }
        var files: [String] = []
        for name in names where !name.hasPrefix(".") {
            let file = directory + "/" + name + "/" + EntryLocator.entryFileName
            if access(file, F_OK) == 0 { files.append(file) }
        }
        return files.sorted()
    }

    /// FNV-1a 64 of a file's bytes (0 for a missing file).
    static func contentHash(path: String) -> UInt64 {
        guard let data = FileManager.default.contents(atPath: path) else { return 0 }
        var hash: UInt64 = 0xcbf29ce484222325
        data.withUnsafeBytes { raw in
            for byte in raw.bindMemory(to: UInt8.self) {
                hash = (hash ^ UInt64(byte)) &* 0x100000001b3
            }
        }
        return hash
    }

    static func fingerprint(_ states: [FileState], extra: UInt64) -> String {
        var hash: UInt64 = 0xcbf29ce484222325
        func mix(_ value: UInt64) { hash = (hash ^ value) &* 0x100000001b3 }
        for byte in "\(TroubleshootKBVersion.string)/\(SearchIndex.binaryFormatVersion)".utf8 { mix(UInt64(byte)) }
        for state in states {
            for byte in state.path.utf8 { mix(UInt64(byte)) }
            mix(state.hash)
        }
        mix(extra)
        return String(hash, radix: 16)
    }

    static func readManifest(_ path: String) -> [String: FileState] {
        guard let data = FileManager.default.contents(atPath: path) else { return [:] }
        var result: [String: FileState] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 4, let size = Int64(fields[1]), let mtime = Int64(fields[2]),
                  let hash = UInt64(fields[3], radix: 16) else { return [:] }
            let path = String(fields[0])
            result[path] = FileState(path: path, size: size, mtime: mtime, hash: hash)
        }
        return result
    }

    static func writeManifest(_ states: [FileState], to path: String) throws {
        var text = ""
        for state in states.sorted(by: { $0.path < $1.path }) {
            text += "\(state.path)\t\(state.size)\t\(state.mtime)\t\(String(state.hash, radix: 16))\n"
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
