import Foundation
import Dispatch
import Synchronization
import KBCore
import KBSearch
import KBScenarios
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes the site into a staging folder next to the output (same file system) and swaps it
/// in only when everything is written: a failed or interrupted build leaves the previous
/// site as it was.
///
/// The swap exchanges the two folders atomically with `renameat2(RENAME_EXCHANGE)` where the
/// system has it; elsewhere it renames old → backup, new → output, and removes the backup
/// (putting the old one back if the second rename fails).
package final class SiteWriter: Sendable {
    /// Absolute path of the output folder.
    let output: String
    /// Absolute path of the staging folder.
    let staging: String
    /// What was written so far, and whether the staging folder became the output.
    private let state = Mutex<(bytes: Int, files: Int, committed: Bool)>((0, 0, false))
    /// Open descriptors of the staging folder's folders, by site-relative path.
    private let folders = Mutex<[String: Int32]>([:])

    static let markerText = "This folder is written by `kb build` and replaced on every build.\n"

    /// Checks `output` may be replaced and creates the staging folder.
    /// `protected` are folders the output must neither be nor contain (the entries, the assets,
    /// the working directory); `sources` are folders it must not be inside of either (the
    /// entries and the assets: the next build would read it).
    init(output rawOutput: String, protected: [String], sources: [String]) throws {
        let fm = FileManager.default
        let output = URL(fileURLWithPath: rawOutput).standardizedFileURL.resolvingSymlinksInPath().path
        self.output = output
        func fail(_ message: String) -> SiteBuildError { SiteBuildError(step: .write, path: rawOutput, message: message) }
        guard output != "/" else { throw fail("refusing to write the site over /") }
        for folder in protected {
            let resolved = URL(fileURLWithPath: folder).standardizedFileURL.resolvingSymlinksInPath().path
            if resolved == output || resolved.hasPrefix(output + "/") {
                throw fail("the output folder would replace \(folder); choose another --out")
            }
        }
        for folder in sources {
            let resolved = URL(fileURLWithPath: folder).standardizedFileURL.resolvingSymlinksInPath().path
            if output.hasPrefix(resolved + "/") {
                throw fail("the output folder is inside \(folder); choose another --out")
            }
        }
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: output, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw fail("exists and is not a folder") }
            let contents = (try? fm.contentsOfDirectory(atPath: output)) ?? []
            if !contents.isEmpty && !contents.contains(SitePaths.marker) {
                throw fail("exists and was not written by kb build (no \(SitePaths.marker) file); remove it or choose another --out")
            }
        }
        let parent = (output as NSString).deletingLastPathComponent
        let name = (output as NSString).lastPathComponent
        do {
            try fm.createDirectory(atPath: parent, withIntermediateDirectories: true)
        } catch {
            throw fail("cannot create \(parent): \(error.localizedDescription)")
        }
        Self.removeStale(in: parent, name: name)
        let suffix = UUID().uuidString.prefix(8).lowercased()
        staging = (parent as NSString).appendingPathComponent(".\(name).tmp-\(getpid())-\(suffix)")
        do {
            try fm.createDirectory(atPath: staging, withIntermediateDirectories: false)
        } catch {
            throw fail("cannot create the staging folder \(staging): \(error.localizedDescription)")
        }
        Interruption.register(staging)
    }

    /// Removes staging and backup folders (`.<name>.tmp-<pid>-…`, `.<name>.old-<pid>-…`) left
    /// by builds that were killed: those whose process is gone. A build still running keeps its own.
    static func removeStale(in parent: String, name: String) {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: parent) else { return }
        for candidate in names {
            var rest: Substring
            if candidate.hasPrefix(".\(name).tmp-") {
                rest = candidate.dropFirst(name.count + 6)
            } else if candidate.hasPrefix(".\(name).old-") {
                rest = candidate.dropFirst(name.count + 6)
            } else {
                continue
            }
            guard let dash = rest.firstIndex(of: "-"), let pid = Int32(rest[..<dash]), pid > 0 else { continue }
            rest = rest[rest.index(after: dash)...]
            guard !rest.isEmpty, rest.allSatisfy({ $0.isHexDigit }) else { continue }
            // This process's own (another build running in it) and live processes' are kept.
            if pid == getpid() || kill(pid, 0) == 0 || errno == EPERM { continue }
            let path = (parent as NSString).appendingPathComponent(candidate)
            var info = stat()
            // Only folders (not symbolic links) are removed.
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { continue }
            try? fm.removeItem(atPath: path)
        }
    }

    /// A descriptor of a folder of the staging folder (kept open until the commit), or nil.
    private func folderDescriptor(_ folder: String) -> Int32? {
        folders.withLock { folders in
            if let fd = folders[folder] { return fd }
            let fd = open(staging + "/" + folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard fd >= 0 else { return nil }
            folders[folder] = fd
            return fd
        }
    }

    private func closeFolders() {
        folders.withLock { folders in
            for fd in folders.values { close(fd) }
            folders.removeAll()
        }
    }

    deinit {
        if !state.withLock({ $0.committed }) { discard() }
    }

    var writtenBytes: Int { state.withLock { $0.bytes } }
    var writtenFiles: Int { state.withLock { $0.files } }

    /// Creates the folders of `paths` (site-relative file paths) ahead of parallel writes.
    func prepareFolders(for paths: [String]) throws {
        var folders = Set<String>()
        for path in paths {
            let folder = (path as NSString).deletingLastPathComponent
            if !folder.isEmpty { folders.insert(folder) }
        }
        try createFolders(folders)
    }

    /// Creates folders (site-relative) and their parents.
    func createFolders(_ folders: Set<String>) throws {
        for folder in folders.sorted() {
            let full = staging + "/" + folder
            // Sorted, so parents come first: usually one mkdir per folder.
            if mkdir(full, 0o755) == 0 || errno == EEXIST { continue }
            do {
                try FileManager.default.createDirectory(atPath: full, withIntermediateDirectories: true)
            } catch {
                throw SiteBuildError(step: .write, path: folder, message: "cannot create the folder: \(error.localizedDescription)")
            }
        }
    }

    /// Writes one file (its folder must exist); safe to call from several threads.
    func write(_ path: String, _ data: Data) throws {
        try data.withUnsafeBytes { try write(path, bytes: $0) }
    }

    /// Writes one file from bytes (its folder must exist); safe to call from several threads.
    func write(_ path: String, _ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write(path, bytes: $0) }
    }

    func write(_ path: String, bytes raw: UnsafeRawBufferPointer) throws {
        try write(path, pieces: [raw])
    }

    /// Writes one file made of `pieces`, in order, with as few system calls as they allow
    /// (`writev`); safe to call from several threads.
    func write(_ path: String, pieces: [UnsafeRawBufferPointer]) throws {
        // Plain writes: the staging folder is swapped in as a whole, so files need no atomic
        // replacement or flushing of their own. Files are created relative to their folder's
        // descriptor, so the kernel looks up only the file name.
        let fd: Int32
        if let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")), let folder = folderDescriptor(String(path[..<slash])) {
            fd = openat(folder, String(path[path.index(after: slash)...]), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        } else {
            fd = open(staging + "/" + path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        }
        guard fd >= 0 else {
            throw SiteBuildError(step: .write, path: path, message: "cannot write the file: \(String(cString: strerror(errno)))")
        }
        var failure: Int32 = 0
        var total = 0
        var vectors: [iovec] = []
        vectors.reserveCapacity(pieces.count)
        for piece in pieces where piece.count > 0 {
            vectors.append(iovec(iov_base: UnsafeMutableRawPointer(mutating: piece.baseAddress!), iov_len: piece.count))
        }
        // At most IOV_MAX (1024 on Linux) vectors a call.
        var next = 0
        vectors.withUnsafeMutableBufferPointer { v in
            while next < v.count {
                let k = writev(fd, v.baseAddress! + next, Int32(min(v.count - next, 1024)))
                if k < 0 { if errno == EINTR { continue }; failure = errno; break }
                total += k
                // Past the pieces written whole, into the one written in part.
                var left = k
                while next < v.count && left >= v[next].iov_len { left -= v[next].iov_len; next += 1 }
                if left > 0 {
                    v[next].iov_base += left
                    v[next].iov_len -= left
                }
            }
        }
        if close(fd) != 0 && failure == 0 { failure = errno }
        if failure != 0 {
            throw SiteBuildError(step: .write, path: path, message: "cannot write the file: \(String(cString: strerror(failure)))")
        }
        state.withLock { state in
            state.bytes += total
            state.files += 1
        }
    }

    /// Items handed over one at a time by several threads and passed on in batches of `size`.
    final class Batcher<Item: Sendable>: Sendable {
        private let items = Mutex<[Item]>([])
        let size: Int

        init(size: Int) { self.size = size }

        /// Adds `item`; returns the batch it completes, to pass on, or nil.
        func add(_ item: Item) -> [Item]? {
            items.withLock { items in
                items.append(item)
                guard items.count >= size else { return nil }
                defer { items = [] }
                return items
            }
        }

        /// The items of the batch not yet complete.
        func drain() -> [Item] {
            items.withLock { items in
                defer { items = [] }
                return items
            }
        }
    }

    /// A queue that writes files one at a time on a thread of its own, for threads that render
    /// in parallel. Creating a file locks its folder while the file system finds a free inode
    /// (slow on ext4 without a journal shortly after many files were deleted, as when the previous
    /// site was just replaced); threads creating files in one folder at once only wait on each
    /// other, so the rendering threads hand their files over and go on rendering.
    final class Queue: Sendable {
        private let writer: SiteWriter
        private let queue: DispatchQueue
        private let slots: DispatchSemaphore
        private let group = DispatchGroup()
        private let failures = FirstFailure()

        /// At most `pending` files wait in memory; `add` blocks while the queue is full.
        init(_ writer: SiteWriter, label: String, pending: Int = 512) {
            self.writer = writer
            queue = DispatchQueue(label: "kb.site.write." + label)
            slots = DispatchSemaphore(value: pending)
        }

        /// Files go to the writing thread in batches, so that it is woken once per batch rather
        /// than once per file.
        private let batch = Batcher<(path: String, data: Data, position: Int)>(size: 16)

        /// Queues a file; `position` orders errors (the first position's error is the one reported).
        func add(_ path: String, _ data: Data, position: Int) {
            slots.wait()
            if let full = batch.add((path, data, position)) { submit(full) }
        }

        private func submit(_ files: [(path: String, data: Data, position: Int)]) {
            queue.async(group: group) { [self] in
                for file in files {
                    do {
                        try writer.write(file.path, file.data)
                    } catch {
                        failures.record(file.position,
                                        error as? SiteBuildError ?? SiteBuildError(step: .write, path: file.path, message: "\(error)"))
                    }
                    slots.signal()
                }
            }
        }

        /// Waits for every queued file; throws the error of the first position that failed.
        func finish() throws {
            let rest = batch.drain()
            if !rest.isEmpty { submit(rest) }
            group.wait()
            if let failure = failures.first { throw failure }
        }
    }

    /// The page buffers of the rendering threads and the one thread that writes them (for the
    /// reason `Queue` gives): a rendering thread takes a buffer, fills it and hands it over; the
    /// writing thread writes its bytes and puts it back for the next page. Pages are never
    /// copied, and at most `buffers` wait in memory (`take` blocks while all are in use).
    final class Pages: Sendable {
        /// A page's bytes, passed between threads by reference. Unchecked because the compiler
        /// cannot see the hand-over: a buffer has one owner at a time (a rendering thread fills
        /// it, gives it to `add` and no longer touches it; the writing thread writes it and puts
        /// it on the free list, from which `take` hands it to the next owner under the lock).
        final class Buffer: @unchecked Sendable {
            var html = HTMLBuffer(capacity: 1 << 16)
        }

        private let writer: SiteWriter
        private let queue: DispatchQueue
        private let slots: DispatchSemaphore
        private let group = DispatchGroup()
        private let free = Mutex<[Buffer]>([])
        private let failures = FirstFailure()

        init(_ writer: SiteWriter, label: String, buffers: Int = 64) {
            self.writer = writer
            queue = DispatchQueue(label: "kb.site.write." + label)
            slots = DispatchSemaphore(value: buffers)
        }

        /// An empty buffer; blocks while every buffer waits to be written.
        func take() -> Buffer {
            slots.wait()
            let buffer = free.withLock { $0.popLast() }
            guard let buffer else { return Buffer() }
            buffer.html.reset()
            return buffer
        }

        /// Pages go to the writing thread in batches (see `Queue`).
        private let batch = Batcher<(path: String, buffer: Buffer, position: Int)>(size: 8)

        /// Queues the page in `buffer` (the caller lets go of it); `position` orders errors.
        func add(_ path: String, _ buffer: Buffer, position: Int) {
            if let full = batch.add((path, buffer, position)) { submit(full) }
        }

        private func submit(_ pages: [(path: String, buffer: Buffer, position: Int)]) {
            queue.async(group: group) { [self] in
                for page in pages {
                    do {
                        try writer.write(page.path, page.buffer.html.bytes)
                    } catch {
                        failures.record(page.position,
                                        error as? SiteBuildError ?? SiteBuildError(step: .write, path: page.path, message: "\(error)"))
                    }
                    free.withLock { $0.append(page.buffer) }
                    slots.signal()
                }
            }
        }

        /// Waits for every queued page; throws the error of the first position that failed.
        func finish() throws {
            let rest = batch.drain()
            if !rest.isEmpty { submit(rest) }
            group.wait()
            if let failure = failures.first { throw failure }
        }
    }

    /// Writes the marker and swaps the staging folder in as the output.
    func commit() throws {
        closeFolders()
        try write(SitePaths.marker, Data(Self.markerText.utf8))
        defer { Interruption.unregister(staging) }
        let fm = FileManager.default
        func fail(_ message: String) -> SiteBuildError { SiteBuildError(step: .write, path: output, message: message) }
        var isDirectory: ObjCBool = false
        if !fm.fileExists(atPath: output, isDirectory: &isDirectory) {
            guard rename(staging, output) == 0 else { throw fail("cannot move the new site in place: \(String(cString: strerror(errno)))") }
            state.withLock { $0.committed = true }
            return
        }
        if Self.exchange(staging, output) {
            state.withLock { $0.committed = true }
            // `staging` now holds the previous site.
            Self.removeTree(staging)
            return
        }
        let parent = (output as NSString).deletingLastPathComponent
        let backup = (parent as NSString).appendingPathComponent(".\((output as NSString).lastPathComponent).old-\(getpid())-\(UUID().uuidString.prefix(8).lowercased())")
        guard rename(output, backup) == 0 else {
            throw fail("cannot move the previous site aside: \(String(cString: strerror(errno)))")
        }
        guard rename(staging, output) == 0 else {
            let reason = String(cString: strerror(errno))
            _ = rename(backup, output)
            throw fail("cannot move the new site in place: \(reason)")
        }
        state.withLock { $0.committed = true }
        Self.removeTree(backup)
    }

    /// Removes a folder and everything in it (the previous site, after the swap). Deleting a
    /// file waits on the disk (more so on file systems that discard freed blocks at once), so
    /// the files are unlinked by several threads together; folders go last, deepest first.
    /// Symbolic links are removed, never followed. Whatever is left (a failure) is handed to
    /// FileManager.
    static func removeTree(_ root: String) {
        var files: [String] = []
        var folders: [String] = [root]
        var next = 0
        while next < folders.count {
            let folder = folders[next]
            next += 1
            guard let dir = opendir(folder) else { continue }
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
                }
                if name == "." || name == ".." { continue }
                let path = folder + "/" + name
                var isFolder = entry.pointee.d_type == UInt8(DT_DIR)
                if entry.pointee.d_type == UInt8(DT_UNKNOWN) {
                    var info = stat()
                    isFolder = lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
                }
                if isFolder { folders.append(path) } else { files.append(path) }
            }
            closedir(dir)
        }
        let work = files
        let batches = Counter()
        let batch = 64
        let threads = min(16, max(1, work.count / batch))
        let group = DispatchGroup()
        for _ in 0..<threads {
            group.enter()
            let thread = Thread {
                while true {
                    let start = (batches.increment() - 1) * batch
                    if start >= work.count { break }
                    for path in work[start..<min(start + batch, work.count)] { _ = unlink(path) }
                }
                group.leave()
            }
            thread.start()
        }
        group.wait()
        for folder in folders.reversed() { _ = rmdir(folder) }
        if FileManager.default.fileExists(atPath: root) { try? FileManager.default.removeItem(atPath: root) }
    }

    /// Removes the staging folder (after a failure).
    func discard() {
        closeFolders()
        Interruption.unregister(staging)
        try? FileManager.default.removeItem(atPath: staging)
    }

    /// SIGINT, SIGTERM or SIGHUP during a build: the staging folders (and the folders registered
    /// for cleanup, such as `kb serve`'s workspace) are removed and the process exits with 128 +
    /// the signal (the previous site was never touched). Between builds the signal goes to the
    /// command's handler (`whenIdle`: `kb serve` stops cleanly). SIGKILL cannot be caught; the
    /// next build removes what it leaves (`removeStale`).
    ///
    /// These are the process's only handlers of the three signals: on Linux a later
    /// `signal(…, SIG_IGN)` would replace the one Dispatch installs for its sources, and the
    /// signals would then be dropped.
    package enum Interruption {
        /// The staging folders of builds in progress, and the other folders to remove.
        private static let folders = Mutex<(building: Set<String>, cleanup: Set<String>)>(([], []))
        /// What a signal does between builds (nil: nothing).
        private static let idleHandler = Mutex<(@Sendable (Int32) -> Void)?>(nil)
        /// The signal sources, made on first use and kept, unchanged, for the life of the process
        /// (a registry: dispatch sources are thread-safe, but Dispatch does not mark them Sendable).
        nonisolated(unsafe) private static let installOnce: [DispatchSourceSignal] = {
            var sources: [DispatchSourceSignal] = []
            for number in [SIGINT, SIGTERM, SIGHUP] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler {
                    let (pending, extra) = folders.withLock { $0 }
                    guard !pending.isEmpty else {
                        idleHandler.withLock { $0 }?(number)
                        return
                    }
                    for folder in pending.union(extra) { try? FileManager.default.removeItem(atPath: folder) }
                    exit(128 + number)
                }
                source.resume()
                sources.append(source)
            }
            return sources
        }()

        static func register(_ folder: String) {
            _ = installOnce
            _ = folders.withLock { $0.building.insert(folder) }
        }

        static func unregister(_ folder: String) {
            _ = folders.withLock { $0.building.remove(folder) }
        }

        /// Calls `handler` with the signal when SIGINT, SIGTERM or SIGHUP comes while no build is
        /// in progress (a signal during a build still removes its folders and exits).
        /// `nil` takes the handler away (the signal then does nothing between builds).
        package static func whenIdle(_ handler: (@Sendable (Int32) -> Void)?) {
            _ = installOnce
            idleHandler.withLock { $0 = handler }
        }

        /// Removes every registered folder now (the process is about to exit for another
        /// reason, such as standard output that cannot be written).
        package static func removeRegisteredFolders() {
            let (pending, extra) = folders.withLock { $0 }
            for folder in pending.union(extra) { try? FileManager.default.removeItem(atPath: folder) }
        }

        /// A folder also removed when a build is interrupted (it does not mark a build in progress).
        package static func removeOnInterruption(_ folder: String) {
            _ = installOnce
            _ = folders.withLock { $0.cleanup.insert(folder) }
        }
    }

    #if os(Linux)
    private typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
    /// glibc's `renameat2`, looked up at run time (Swift's Glibc module does not declare it).
    private static let renameat2: RenameAt2? = {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "renameat2") else { return nil }
        return unsafeBitCast(symbol, to: RenameAt2.self)
    }()
    #endif

    /// Atomically exchanges two paths; false when the system or file system cannot.
    static func exchange(_ a: String, _ b: String) -> Bool {
        #if os(Linux)
        guard let renameat2 else { return false }
        let RENAME_EXCHANGE: UInt32 = 1 << 1
        return renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) == 0
        #else
        return false
        #endif
    }
}
