import Foundation
import Dispatch
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
    public func open(forceRebuild: Bool = false, reason: Freshness? = nil) throws -> (index: SearchIndex, freshness: Freshness, diagnostics: [Diagnostic]) {
        let files = try Self.scanEntries(in: entriesDirectory)
        let manifestPath = (cacheDirectory as NSString).appendingPathComponent(Self.manifestName)
        let indexPath = (cacheDirectory as NSString).appendingPathComponent(Self.indexName)
        let previousList = forceRebuild ? [] : Self.readManifest(manifestPath)
        // Both lists are sorted by path: compare them in step; look paths up only if they differ.
        var lookup: [String: FileState]? = nil
        if previousList.count != files.count || zip(previousList, files).contains(where: { $0.path != $1.path }) {
            lookup = Dictionary(previousList.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
        }
        var states: [FileState] = []
        states.reserveCapacity(files.count)
        var changed = forceRebuild || previousList.count != files.count
        for (i, file) in files.enumerated() {
            let old = lookup == nil ? previousList[i] : lookup![file.path]
            if file.outside {
                // Outside the entries folder: not read; the rebuild reports it.
                let state = FileState(path: file.path, size: -1, mtime: 0, hash: 0)
                if old != state { changed = true }
                states.append(state)
                continue
            }
            if let old, old.size == file.size, old.mtime == file.mtime {
                states.append(old)
                continue
            }
            let hash = Self.contentHash(path: file.path)
            states.append(FileState(path: file.path, size: file.size, mtime: file.mtime, hash: hash))
            if let old, old.hash == hash { continue }
            changed = true
        }
        let glossaryHash = Self.contentHash(path: (entriesDirectory as NSString).appendingPathComponent(Glossary.fileName))
        let fingerprint = Self.fingerprint(states, extra: glossaryHash)
        if !changed {
            do {
                let index = try SearchIndex.read(from: URL(fileURLWithPath: indexPath), expectedFingerprint: fingerprint)
                if states != previousList {
                    try? Self.writeManifest(states, to: manifestPath)
                }
                return (index, .reused, [])
            } catch {
                return try rebuild(states: states, fingerprint: fingerprint, freshness: .rebuiltInvalid,
                                   manifestPath: manifestPath, indexPath: indexPath)
            }
        }
        let freshness: Freshness = reason ?? (previousList.isEmpty && !FileManager.default.fileExists(atPath: indexPath) ? .built : .rebuiltChanged)
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

    /// Every `<folder>/entry.md` (absolute path, size, modification time in ns), sorted by path;
    /// one `fstatat` per folder. An entry reached through a symbolic link (the folder or the
    /// file) that resolves outside the entries folder is listed with `outside` set and no size.
    static func scanEntries(in directory: String) throws -> [(path: String, size: Int64, mtime: Int64, outside: Bool)] {
        guard let dir = opendir(directory) else { throw KBError("no entries folder at \(directory)") }
        defer { closedir(dir) }
        let fd = dirfd(dir)
        var names: [(name: String, isDirectory: Bool)] = []
        while let item = readdir(dir) {
            let name = withUnsafeBytes(of: item.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            guard !name.hasPrefix(".") else { continue }
            names.append((name, Int32(item.pointee.d_type) == Int32(DT_DIR)))
        }
        // The stat calls (path lookups in the kernel) dominate a warm `kb search`: spread them.
        typealias Found = (path: String, size: Int64, mtime: Int64, outside: Bool)
        let resolvedRoot = URL(fileURLWithPath: directory).resolvingSymlinksInPath().path
        let slices = min(max(1, ProcessInfo.processInfo.activeProcessorCount), 8, max(1, names.count / 512))
        let results = UnsafeMutableBufferPointer<[Found]>.allocate(capacity: slices)
        results.initialize(repeating: [])
        defer { results.deinitialize(); results.deallocate() }
        nonisolated(unsafe) let output = results
        let items = names
        DispatchQueue.concurrentPerform(iterations: slices) { slice in
            var found: [Found] = []
            let lower = items.count * slice / slices, upper = items.count * (slice + 1) / slices
            for (name, isDirectory) in items[lower..<upper] {
                let relative = name + "/" + EntryLocator.entryFileName
                let path = directory + "/" + relative
                var info = stat()
                guard fstatat(fd, relative, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
                if !isDirectory || (info.st_mode & S_IFMT) == S_IFLNK {
                    // A symbolic link on the way: only followed when it stays inside the entries folder.
                    guard fstatat(fd, relative, &info, 0) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
                    if !URL(fileURLWithPath: path).resolvingSymlinksInPath().path.hasPrefix(resolvedRoot + "/") {
                        found.append((path, -1, 0, true))
                        continue
                    }
                }
                guard (info.st_mode & S_IFMT) == S_IFREG else { continue }
                found.append((path, Int64(info.st_size),
                              Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec), false))
            }
            output[slice] = found
        }
        var found = results.flatMap { $0 }
        found.sort { Self.pathPrecedes($0.path, $1.path) }
        return found
    }

    /// The order of paths in the scan and the manifest: by UTF-8 bytes (cheaper than String's
    /// Unicode-aware comparison, and the same for the ASCII ids entries have).
    static func pathPrecedes(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                let common = min(x.count, y.count)
                let order = common == 0 ? 0 : memcmp(x.baseAddress!, y.baseAddress!, common)
                return order != 0 ? order < 0 : x.count < y.count
            }
        }
    }

    /// Absolute paths of every `<folder>/entry.md`, sorted.
    static func entryFiles(in directory: String) throws -> [String] {
        try scanEntries(in: directory).map(\.path)
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

    /// The manifest's lines (path, size, mtime, hash in hex), in file order; empty if unreadable.
    static func readManifest(_ path: String) -> [FileState] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return data.withUnsafeBytes { raw -> [FileState] in
            let b = raw.bindMemory(to: UInt8.self)
            var result: [FileState] = []
            var i = 0
            let n = b.count
            func field(_ end: UInt8) -> Range<Int>? {
                let start = i
                while i < n && b[i] != end && b[i] != 0x0A { i += 1 }
                guard i < n, b[i] == end else { return nil }
                defer { i += 1 }
                return start..<i
            }
            func number(_ r: Range<Int>, radix: UInt64) -> UInt64? {
                guard !r.isEmpty, r.count <= 20 else { return nil }
                var v: UInt64 = 0
                for k in r {
                    let c = b[k]
                    let digit: UInt64
                    switch c {
                    case 0x30...0x39: digit = UInt64(c - 0x30)
                    case 0x61...0x66 where radix == 16: digit = UInt64(c - 0x61 + 10)
                    default: return nil
                    }
                    let (m, o1) = v.multipliedReportingOverflow(by: radix)
                    let (s, o2) = m.addingReportingOverflow(digit)
                    if o1 || o2 { return nil }
                    v = s
                }
                return v
            }
            while i < n {
                guard let p = field(0x09), let sz = field(0x09), let mt = field(0x09), let h = field(0x0A),
                      let size = number(sz, radix: 10), let mtime = number(mt, radix: 10), let hash = number(h, radix: 16),
                      size <= UInt64(Int64.max), mtime <= UInt64(Int64.max) else { return [] }
                let path = String(decoding: UnsafeBufferPointer(rebasing: b[p]), as: UTF8.self)
                result.append(FileState(path: path, size: Int64(size), mtime: Int64(mtime), hash: hash))
            }
            // Written sorted; anything else is not our manifest.
            for k in result.indices.dropFirst() where !Self.pathPrecedes(result[k - 1].path, result[k].path) { return [] }
            return result
        }
    }

    static func writeManifest(_ states: [FileState], to path: String) throws {
        var text = ""
        for state in states.sorted(by: { Self.pathPrecedes($0.path, $1.path) }) {
            text += "\(state.path)\t\(state.size)\t\(state.mtime)\t\(String(state.hash, radix: 16))\n"
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
