import Foundation
import Dispatch
import KBCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The on-disk search index of an entries folder (`.kb/index/`): built on first use, reused
/// while no entry changed, rebuilt when one did. A file's status (size, modification and change
/// times, inode) is compared first; when it differs, or when it was recorded so close to a change
/// that it cannot be trusted (a racy status), its content hash decides. A corrupt, old or
/// foreign index is rebuilt, never trusted.
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
    /// The rules of the lint gate: a rebuild with errors is not saved. The commands pass
    /// `Linter.standard` (the scenario layer's rules as well); the default is the core rules.
    public var linter: Linter
    /// Entries a rebuild reads, lints and indexes at a time: memory holds the index being built
    /// and one batch of entries, however many there are.
    public var rebuildBatchSize = 4096

    /// How an `open` went, for `kb index` and `kb search --verbose`.
    public enum Freshness: String, Sendable {
        case reused, built, rebuiltChanged = "rebuilt (entries changed)", rebuiltInvalid = "rebuilt (index unreadable)"
        /// Built for this command only: the entries have lint errors, the index on disk was kept.
        case notSaved = "built in memory, not saved (the entries have errors; run kb lint)"
        /// Built for this command only: the cache folder cannot be written (a read-only checkout
        /// without a writable home; `KB_CACHE` names another folder).
        case notWritable = "built in memory, not saved (it cannot be written; KB_CACHE names another folder)"
    }

    static let manifestName = "manifest.tsv"
    static let indexName = "search.bin"

    public init(entriesDirectory: String, cacheDirectory: String, workingDirectory: String? = nil, linter: Linter = Linter()) {
        self.entriesDirectory = entriesDirectory
        self.cacheDirectory = cacheDirectory
        self.workingDirectory = workingDirectory ?? entriesDirectory
        self.linter = linter
    }

    /// Opens the index, rebuilding it if needed. `parseProblems` receives diagnostics of
    /// entries that could not be read during a rebuild.
    public func open(forceRebuild: Bool = false, reason: Freshness? = nil) throws -> (index: SearchIndex, freshness: Freshness, diagnostics: [Diagnostic]) {
        // Taken before the first stat: a change after it stamps a later change time (§12).
        let scanTime = Self.now()
        let manifestPath = (cacheDirectory as NSString).appendingPathComponent(Self.manifestName)
        let indexPath = (cacheDirectory as NSString).appendingPathComponent(Self.indexName)
        // The index is read while the entry files are checked (the common case is that it is
        // current); it is used only if its fingerprint is the one the check makes.
        let entries = entriesDirectory
        let early = forceRebuild ? nil : BackgroundTask {
            try SearchIndex.read(from: URL(fileURLWithPath: indexPath), texts: .entries(in: entries))
        }
        func index(withFingerprint fingerprint: String) -> SearchIndex? {
            guard let index = try? early?.wait(), index.storedFingerprint == fingerprint else { return nil }
            return index
        }
        let scan = try Self.scan(in: entriesDirectory)
        // The common case: no file came, went or changed its status since the manifest was written.
        if !forceRebuild, let fingerprint = Self.unchangedFingerprint(scan, manifestPath: manifestPath, scanTime: scanTime, extra: glossaryHash()),
           let index = index(withFingerprint: fingerprint) {
            return (index, .reused, [])
        }
        let files = (0..<scan.count).map { (path: scan.path($0), status: scan.status[$0], outside: scan.outside[$0]) }
        let previous = forceRebuild ? nil : Manifest.read(manifestPath)
        let previousList = previous?.states ?? []
        // Both lists are sorted by path: compare them in step; look paths up only if they differ.
        var lookup: [String: FileState]? = nil
        if previousList.count != files.count || zip(previousList, files).contains(where: { $0.path != $1.path }) {
            lookup = Dictionary(previousList.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
        }
        var states: [FileState] = []
        states.reserveCapacity(files.count)
        var changed = forceRebuild || previousList.count != files.count
        // A file hashed because its status was racy that this scan's time no longer makes racy:
        // writing the manifest again spares the next command the hashing.
        var leftRacyWindow = false
        // States whose content hash is taken from the bytes the rebuild reads.
        var pending: [Int] = []
        for (i, file) in files.enumerated() {
            let old = lookup == nil ? previousList[i] : lookup![file.path]
            if file.outside {
                // Outside the entries folder: not read; the rebuild reports it.
                let state = FileState(path: file.path, status: .outside, hash: 0)
                if old != state { changed = true }
                states.append(state)
                continue
            }
            if let old, let previous, old.status == file.status {
                guard old.status.isRacy(scanTime: previous.scanTime) else {
                    states.append(old)
                    continue
                }
                if !file.status.isRacy(scanTime: scanTime) { leftRacyWindow = true }
            }
            if changed {
                // A rebuild is due anyway: it hashes the file as it reads it.
                pending.append(states.count)
                states.append(FileState(path: file.path, status: file.status, hash: 0))
                continue
            }
            let hash = Self.contentHash(path: file.path)
            states.append(FileState(path: file.path, status: file.status, hash: hash))
            if let old, old.hash == hash { continue }
            changed = true
        }
        if !changed {
            let fingerprint = fingerprint(of: states)
            do {
                let index = try index(withFingerprint: fingerprint)
                    ?? SearchIndex.read(from: URL(fileURLWithPath: indexPath), expectedFingerprint: fingerprint, texts: .entries(in: entriesDirectory))
                if states != previousList || leftRacyWindow {
                    try? Manifest(scanTime: scanTime, states: states).write(to: manifestPath)
                }
                return (index, .reused, [])
            } catch {
                // The rebuild reads every file: all hashes are taken from the bytes it parses.
                let all = states.indices.filter { states[$0].status != .outside }
                return try rebuild(states: states, pending: all, scanTime: scanTime, freshness: .rebuiltInvalid,
                                   manifestPath: manifestPath, indexPath: indexPath)
            }
        }
        let freshness: Freshness = reason ?? (previousList.isEmpty && !FileManager.default.fileExists(atPath: indexPath) ? .built : .rebuiltChanged)
        return try rebuild(states: states, pending: pending, scanTime: scanTime, freshness: freshness,
                           manifestPath: manifestPath, indexPath: indexPath)
    }

    /// The fingerprint stored in `search.bin`: the entry files' paths and hashes and the glossary's hash.
    private func fingerprint(of states: [FileState]) -> String {
        Self.fingerprint(states, extra: glossaryHash())
    }

    private func glossaryHash() -> UInt64 {
        Self.contentHash(path: (entriesDirectory as NSString).appendingPathComponent(Glossary.fileName))
    }

    /// Reads, parses and indexes every entry, and saves the index if the entries lint without
    /// errors. The states at `pending` get the content hash of the bytes that were parsed.
    private func rebuild(states: [FileState], pending: [Int], scanTime: Int64, freshness: Freshness,
                         manifestPath: String, indexPath: String) throws -> (index: SearchIndex, freshness: Freshness, diagnostics: [Diagnostic]) {
        let (locations, locatorDiagnostics) = try EntryLocator.locate([entriesDirectory], workingDirectory: workingDirectory)
        // Oversized files are a lint error; they are not read into the index either.
        var oversized: [Diagnostic] = []
        let readable = locations.filter { location in
            var info = stat()
            guard stat(location.file, &info) == 0, Int(info.st_size) > Linter.maximumEntrySize else { return true }
            oversized.append(Diagnostic(path: location.displayPath, location: nil, severity: .error,
                                        message: "the file is \(info.st_size) bytes; entries must be at most 1 MiB (not indexed)",
                                        rule: .fileTooLarge))
            return false
        }
        // Entries are read in batches: each entry is linted and made a search document as soon as
        // it is parsed, then let go, and each batch of documents is tokenized into the index
        // before the next batch is read, so memory holds the index and one batch, however many
        // entries there are. Documents go in by id; the folders come in that order when every
        // id is its folder's name (lint's id-mismatch), else the entries are loaded again below.
        let loader = KnowledgeBaseLoader(workingDirectory: workingDirectory, linter: linter)
        let toDocument = EntryHook<Void, SearchDocument?>(beforeReading: { _ in }, afterParsing: { item, _ in
            item.entry.map { SearchDocument(entry: $0) }
        })
        let glossary = SearchGlossary(Glossary.load(entriesDirectory: entriesDirectory).0)
        let knownIDs = EntryLocator.knownIDs(for: locations)
        let options = KnowledgeBaseLoader.Options(lints: true, hashesContent: true)
        // The index keeps only the checksums of the texts (it reads them from the entries), and
        // joins its postings into a file beside it.
        try? FileManager.default.createDirectory(atPath: cacheDirectory, withIntermediateDirectories: true)
        var builder = SearchIndexBuilder(glossary: glossary, keepsTexts: false, spillingInto: cacheDirectory)
        var inOrder = true
        // The files of ids that are not their folder's name (lint's id-mismatch: an index that is not saved).
        var otherFiles: [String: String] = [:]
        var kb = loader.load(readable, locatorDiagnostics: locatorDiagnostics, options: options, knownIDs: knownIDs,
                             hook: toDocument, batchSize: rebuildBatchSize) { extras, range in
            guard inOrder else { return }
            for (k, document) in zip(range, extras) where document != nil && document!.id != readable[k].folderName {
                otherFiles[document!.id] = readable[k].file
            }
            inOrder = builder.add(extras.compactMap { $0 })
        }
        var index: SearchIndex
        if inOrder {
            index = try builder.finish()
            index.textSource = .entries(in: entriesDirectory, files: otherFiles)
        } else {
            // Ids out of folder order (lint reports each as id-mismatch): the entries are loaded
            // again at once and their documents sorted by id.
            let (whole, documents) = loader.load(readable, locatorDiagnostics: locatorDiagnostics,
                                                 options: .init(lints: true, keepsEntries: false, hashesContent: true),
                                                 knownIDs: knownIDs, hook: toDocument)
            kb = whole
            index = SearchIndex.build(documents: documents.compactMap { $0 }, glossary: glossary)
        }
        var states = states
        if !pending.isEmpty {
            var parsedHash: [String: UInt64] = [:]
            parsedHash.reserveCapacity(kb.items.count)
            for item in kb.items { if let hash = item.contentHash { parsedHash[item.location.folderName] = hash } }
            for i in pending {
                // `<entries>/<folder>/entry.md`: the folder name is the component before the file name.
                let components = states[i].path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true)
                let folder = components.count >= 2 ? String(decoding: components[components.count - 2], as: UTF8.self) : ""
                states[i].hash = parsedHash[folder] ?? Self.contentHash(path: states[i].path)
            }
        }
        let fingerprint = fingerprint(of: states)
        let indexURL = URL(fileURLWithPath: indexPath)
        var temporary: String? = nil
        var writeError: Error? = nil
        do {
            try FileManager.default.createDirectory(atPath: cacheDirectory, withIntermediateDirectories: true)
            temporary = try index.writeTemporary(for: indexURL, fingerprint: fingerprint)
        } catch {
            writeError = error
        }
        // The lint gate (the entries were linted as they were loaded): the index is saved only without errors.
        let problems = Linter.sorted(oversized + (kb.lintDiagnostics ?? []).filter { $0.severity == .error })
        guard problems.isEmpty else {
            if let temporary { unlink(temporary) }
            return (index, .notSaved, problems)
        }
        // An index that cannot be kept still answers this command; a warning says why.
        func notWritable(_ error: Error, _ path: String) -> (index: SearchIndex, freshness: Freshness, diagnostics: [Diagnostic]) {
            let shown = EntryLocator.displayPath(path, workingDirectory: workingDirectory)
            return (index, .notWritable, [Diagnostic(path: shown, location: nil, severity: .warning,
                                                     message: "the search index cannot be saved: \(WriteFailure.reason(error, path: path))", rule: .io)])
        }
        if let writeError { return notWritable(writeError, indexPath) }
        guard let temporary else { return (index, .notWritable, []) }
        do {
            try SearchIndex.commitTemporary(temporary, to: indexURL)
        } catch {
            unlink(temporary)
            return notWritable(error, indexPath)
        }
        do {
            try Manifest(scanTime: scanTime, states: states).write(to: manifestPath)
        } catch {
            return notWritable(error, manifestPath)
        }
        return (index, freshness, [])
    }

    /// The entry files of an entries folder: `<folder>/entry.md` relative paths as bytes (no
    /// strings are made until needed), sorted by path bytes, with their status.
    struct EntryScan {
        let directory: String
        /// `relative[start(i) ..< ends[i]]` is `<folder>/entry.md` of file `i`.
        var relative: [UInt8] = []
        var ends: [Int] = []
        var status: [FileStatus] = []
        /// Reached through a symbolic link that resolves outside the entries folder (no size).
        var outside: [Bool] = []

        var count: Int { ends.count }
        func start(_ i: Int) -> Int { i == 0 ? 0 : ends[i - 1] }

        func path(_ i: Int) -> String {
            directory + "/" + String(decoding: relative[start(i)..<ends[i]], as: UTF8.self)
        }
    }

    /// Every `<folder>/entry.md`, sorted by path; one `fstatat` per folder, spread over the cores.
    /// An entry reached through a symbolic link (the folder or the file) that resolves outside the
    /// entries folder is listed with `outside` set and no size.
    static func scan(in directory: String) throws -> EntryScan {
        guard let dir = opendir(directory) else { throw KBError("no entries folder at \(directory)") }
        defer { closedir(dir) }
        let fd = dirfd(dir)
        // Relative paths `<name>/entry.md` NUL-terminated, in one buffer.
        var names: [UInt8] = []
        var nameStart: [Int] = []
        var isDirectory: [Bool] = []
        let suffix = Array(("/" + EntryLocator.entryFileName).utf8)
        while let item = readdir(dir) {
            let added = withUnsafeBytes(of: item.pointee.d_name) { raw -> Bool in
                let bytes = raw.bindMemory(to: UInt8.self)
                guard bytes[0] != 0x2E else { return false }  // hidden, "." and ".."
                nameStart.append(names.count)
                var k = 0
                while k < bytes.count && bytes[k] != 0 { names.append(bytes[k]); k += 1 }
                return true
            }
            guard added else { continue }
            names.append(contentsOf: suffix)
            names.append(0)
            isDirectory.append(Int32(item.pointee.d_type) == Int32(DT_DIR))
        }
        let n = nameStart.count
        // Sorted by the bytes of `<name>/entry.md` (the paths share the folder prefix).
        let order = names.withUnsafeBufferPointer { b in
            Self.byteOrder(count: n) { i in
                let a = nameStart[i]
                let e = (i + 1 < n ? nameStart[i + 1] : b.count) - 1  // without the NUL
                return UnsafeBufferPointer(rebasing: b[a..<e])
            }
        }
        // The stat calls (path lookups in the kernel) dominate a warm `kb search`: spread them.
        let resolvedRoot = URL(fileURLWithPath: directory).resolvingSymlinksInPath().path
        let slices = min(max(1, ProcessInfo.processInfo.activeProcessorCount), 8, max(1, n / 512))
        // Per sorted position: missing, found (its status) or outside.
        enum Found { case missing, file(FileStatus), outside }
        let found = names.withUnsafeBufferPointer { b in
            let base = UnsafeRawPointer(b.baseAddress!).assumingMemoryBound(to: CChar.self)
            return Parallel.map(n, slices: slices) { k -> Found in
                let i = order[k]
                let relative = base + nameStart[i]
                var info = stat()
                guard fstatat(fd, relative, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return .missing }
                if !isDirectory[i] || (info.st_mode & S_IFMT) == S_IFLNK {
                    // A symbolic link on the way: only followed when it stays inside the entries folder.
                    guard fstatat(fd, relative, &info, 0) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return .missing }
                    let path = directory + "/" + String(cString: relative)
                    if !URL(fileURLWithPath: path).resolvingSymlinksInPath().path.hasPrefix(resolvedRoot + "/") {
                        return .outside
                    }
                }
                guard (info.st_mode & S_IFMT) == S_IFREG else { return .missing }
                return .file(FileStatus(info))
            }
        }
        var result = EntryScan(directory: directory)
        result.relative.reserveCapacity(names.count)
        result.ends.reserveCapacity(n); result.status.reserveCapacity(n); result.outside.reserveCapacity(n)
        for (k, file) in found.enumerated() {
            let (status, outside): (FileStatus, Bool)
            switch file {
            case .missing: continue
            case .file(let s): (status, outside) = (s, false)
            case .outside: (status, outside) = (.outside, true)
            }
            let i = order[k]
            let e = (i + 1 < n ? nameStart[i + 1] : names.count) - 1
            result.relative.append(contentsOf: names[nameStart[i]..<e])
            result.ends.append(result.relative.count)
            result.outside.append(outside)
            result.status.append(status)
        }
        return result
    }

    /// The indexes `0..<count` in the order of the byte strings `bytes(i)` (a shorter string
    /// before the longer one it begins). Each string's first 16 bytes are compared as two
    /// big-endian integers, the rest only when those are equal: far fewer `memcmp` calls than a
    /// plain comparison, with the same order.
    static func byteOrder(count: Int, _ bytes: (Int) -> UnsafeBufferPointer<UInt8>) -> [Int] {
        struct Key { var high: UInt64; var low: UInt64; var index: Int }
        var keys = (0..<count).map { i -> Key in
            let p = bytes(i)
            var high: UInt64 = 0, low: UInt64 = 0
            for k in 0..<16 {
                let byte = k < p.count ? UInt64(p[k]) : 0
                if k < 8 { high |= byte << UInt64(56 - 8 * k) } else { low |= byte << UInt64(56 - 8 * (k - 8)) }
            }
            return Key(high: high, low: low, index: i)
        }
        keys.sort { x, y in
            if x.high != y.high { return x.high < y.high }
            if x.low != y.low { return x.low < y.low }
            let p = bytes(x.index), q = bytes(y.index)
            let common = min(p.count, q.count)
            let c = common == 0 ? 0 : memcmp(p.baseAddress!, q.baseAddress!, common)
            return c != 0 ? c < 0 : p.count < q.count
        }
        return keys.map(\.index)
    }

    /// Every `<folder>/entry.md` (absolute path, status), sorted by path.
    static func scanEntries(in directory: String) throws -> [(path: String, status: FileStatus, outside: Bool)] {
        let scan = try scan(in: directory)
        return (0..<scan.count).map { (scan.path($0), scan.status[$0], scan.outside[$0]) }
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

    /// The content hash of a file's bytes (0 for a missing file): the FNV-1a-style 64-bit checksum
    /// over 64-bit words of the index file (docs/search.md §7).
    static func contentHash(path: String) -> UInt64 {
        guard let data = FileManager.default.contents(atPath: path) else { return 0 }
        return data.withUnsafeBytes { ContentChecksum.of($0) }
    }

    /// FNV-1a 64 over the tool and format versions, each path's bytes and content hash, and `extra`.
    struct FingerprintHasher {
        var hash: UInt64 = 0xcbf29ce484222325
        init() {
            for byte in "\(TroubleshootKBVersion.string)/\(SearchIndex.binaryFormatVersion)".utf8 { mix(UInt64(byte)) }
        }
        @inline(__always) mutating func mix(_ value: UInt64) { hash = (hash ^ value) &* 0x100000001b3 }
        mutating func mix(bytes: ArraySlice<UInt8>) { for byte in bytes { mix(UInt64(byte)) } }
        var string: String { String(hash, radix: 16) }
    }

    static func fingerprint(_ states: [FileState], extra: UInt64) -> String {
        var hasher = FingerprintHasher()
        for state in states {
            for byte in state.path.utf8 { hasher.mix(UInt64(byte)) }
            hasher.mix(state.hash)
        }
        hasher.mix(extra)
        return hasher.string
    }

    /// The fingerprint of the manifest's states when the scan matches the manifest line for line
    /// (same paths and statuses, nothing outside the entries folder, and the same content hash
    /// for a file whose status is racy); nil otherwise, or when a racy file has left the racy
    /// window (the manifest is then written again). Works on the manifest's bytes, without
    /// making strings.
    static func unchangedFingerprint(_ scan: EntryScan, manifestPath: String, scanTime: Int64, extra: UInt64) -> String? {
        guard let b = LimitedFileRead.bytes(manifestPath, limit: 1 << 30), var lines = ManifestLines(b) else { return nil }
        let prefix = Array((scan.directory + "/").utf8)
        var hasher = FingerprintHasher()
        for k in 0..<scan.count {
            guard !scan.outside[k], let (p, status, hash) = lines.next(), status == scan.status[k] else { return nil }
            let name = scan.relative[scan.start(k)..<scan.ends[k]]
            guard p.count == prefix.count + name.count,
                  b[p].prefix(prefix.count).elementsEqual(prefix),
                  b[p].dropFirst(prefix.count).elementsEqual(name) else { return nil }
            if status.isRacy(scanTime: lines.scanTime) {
                guard status.isRacy(scanTime: scanTime), contentHash(path: scan.path(k)) == hash else { return nil }
            }
            hasher.mix(bytes: b[p])
            hasher.mix(hash)
        }
        guard lines.atEnd else { return nil }
        hasher.mix(extra)
        return hasher.string
    }
}
