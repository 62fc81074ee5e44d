import Foundation
import KBCore
#if canImport(Glibc)
import Glibc
#endif

/// Tells whether anything the search index depends on may have changed in an entries folder
/// since it was last asked, without looking at the files: Linux inotify watches on the folder
/// (entry folders coming, going or renamed; the glossary), on each entry folder (its
/// `entry.md` written, replaced, removed or its status changed) and on the folders that linked
/// entries point into. The kernel queues an event as part of the system call that makes the
/// change, so a change made before a question is asked is always in the queue when `changes()`
/// reads it (docs/search.md §12.1).
///
/// Only a sign to look again: the caller's own freshness check (`SearchIndexStore.open`) decides
/// what changed. Events that cannot matter (an editor's swap file beside `entry.md`, hidden
/// names in the entries folder) are let go; when in doubt (a queue overflow), it says changed.
public final class EntriesWatcher {
    /// What `changes()` found since it was last called.
    public enum Changes: Equatable, Sendable {
        case none
        /// Something the index depends on may have changed.
        case some
        /// The watcher can no longer tell (the entries folder was removed or moved, or a new
        /// folder could not be watched): it must not be relied on any more.
        case lost(String)
    }

    public let entriesDirectory: String
    /// The inotify descriptor: readable when events are queued (for `poll`).
    public let fileDescriptor: Int32
    /// Per watch: the folder and whether every name in it matters (a folder a linked entry
    /// points into), else only `entry.md` (an entry folder) or any visible name (the entries folder).
    private var watches: [Int32: (path: String, allNames: Bool)] = [:]
    private var rootWatch: Int32 = -1
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)

    #if os(Linux)
    private static let folderEvents = UInt32(IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO
                                             | IN_CREATE | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF)
    #endif

    /// Watches `entriesDirectory` and every folder in it. Throws when inotify is not available
    /// (not Linux) or a folder cannot be watched (`fs.inotify.max_user_watches` reached).
    public init(entriesDirectory: String) throws {
        self.entriesDirectory = entriesDirectory
        #if os(Linux)
        if let remote = Self.networkFileSystem(of: entriesDirectory) {
            throw KBError("cannot watch \(entriesDirectory): it is on a \(remote) file system, where inotify does not see every change")
        }
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw KBError("cannot watch \(entriesDirectory): inotify_init1: \(String(cString: strerror(errno)))") }
        fileDescriptor = fd
        rootWatch = try addWatch(entriesDirectory, allNames: false)
        try watchEveryEntryFolder()
        #else
        fileDescriptor = -1
        throw KBError("watching the entries folder needs Linux inotify")
        #endif
    }

    deinit {
        if fileDescriptor >= 0 { close(fileDescriptor) }
    }

    /// How many folders are watched.
    public var watchCount: Int { watches.count }

    /// Reads every queued event and says whether the index may need another look.
    public func changes() -> Changes {
        #if os(Linux)
        var changed = false
        while true {
            let count = read(fileDescriptor, &buffer, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { break }
                return .lost("reading inotify events: \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            var offset = 0
            while offset + 16 <= count {
                let wd = Int32(bitPattern: word(at: offset))
                let mask = word(at: offset + 4)
                let nameLength = Int(word(at: offset + 12))
                let name = eventName(from: offset + 16, length: min(nameLength, count - offset - 16))
                offset += 16 + nameLength
                switch event(wd: wd, mask: mask, name: name) {
                case .none: break
                case .some: changed = true
                case .lost(let reason): return .lost(reason)
                }
            }
        }
        return changed ? .some : .none
        #else
        return .lost("not watched")
        #endif
    }

    #if os(Linux)
    /// File systems whose files other machines (or another program behind them) change without
    /// the kernel sending an event: network file systems and FUSE ones.
    private static let unwatchableFileSystems: Set<String> = ["nfs", "nfs4", "cifs", "smb3", "smbfs", "9p", "ceph", "afs", "coda",
                                                               "gfs2", "ocfs2", "glusterfs", "lustre", "fuse", "fuseblk"]

    /// The type of the file system `path` is on when inotify cannot be trusted there
    /// (`/proc/self/mountinfo`: the mount with the longest mount point that holds the path).
    static func networkFileSystem(of path: String) -> String? {
        guard let table = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) else { return nil }
        return networkFileSystem(of: URL(fileURLWithPath: path).resolvingSymlinksInPath().path, mountTable: table)
    }

    /// The same, for a resolved path and the text of a `mountinfo` table.
    static func networkFileSystem(of resolved: String, mountTable table: String) -> String? {
        var best: (mountPoint: String, type: String)?
        for line in table.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count > 4, let dash = fields.firstIndex(of: "-"), dash + 1 < fields.count else { continue }
            // Spaces and other characters in mount points are written as octal escapes (\040).
            let mountPoint = String(fields[4]).replacingOccurrences(of: "\\040", with: " ")
            let inside = mountPoint == "/" || resolved == mountPoint || resolved.hasPrefix(mountPoint + "/")
            if inside, mountPoint.count >= (best?.mountPoint.count ?? -1) { best = (mountPoint, String(fields[dash + 1])) }
        }
        guard let type = best?.type else { return nil }
        let family = type.split(separator: ".").first.map(String.init) ?? type
        return unwatchableFileSystems.contains(family) ? type : nil
    }

    /// What one event means; adds the watches a new entry folder or link needs.
    private func event(wd: Int32, mask: UInt32, name: String) -> Changes {
        if mask & UInt32(IN_Q_OVERFLOW) != 0 {
            // Events were dropped: folders may have come that are not watched yet.
            do { try watchEveryEntryFolder() } catch { return .lost("\(error)") }
            return .some
        }
        if wd == rootWatch && mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED | IN_UNMOUNT) != 0 {
            return .lost("the entries folder \(entriesDirectory) was removed or moved")
        }
        if mask & UInt32(IN_IGNORED) != 0 {
            // A watched folder was removed; its entries folder reported the removal as well.
            watches[wd] = nil
            return .none
        }
        guard let watch = watches[wd] else { return .some }
        if wd == rootWatch {
            guard !name.isEmpty, !name.hasPrefix(".") else { return .none }
            if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
                do { try watchEntryFolder(named: name) } catch { return .lost("\(error)") }
            }
            return .some
        }
        if watch.allNames || name.isEmpty { return .some }
        guard name == EntryLocator.entryFileName else { return .none }
        if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
            // `entry.md` may now be a link into another folder.
            do { try watchLinkTarget(of: watch.path + "/" + name) } catch { return .lost("\(error)") }
        }
        return .some
    }

    private func watchEveryEntryFolder() throws {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: entriesDirectory)) ?? []
        for name in names where !name.hasPrefix(".") { try watchEntryFolder(named: name) }
    }

    /// Watches `<entries>/<name>` when it is a folder (or a link to one; the watch is then on
    /// the folder it points to) and the folder its `entry.md` points into when that is a link;
    /// for a linked file there (a linked glossary), the folder it points into.
    private func watchEntryFolder(named name: String) throws {
        let path = entriesDirectory + "/" + name
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            try watchLinkTarget(of: path)
            return
        }
        var linkInfo = stat()
        let linked = lstat(path, &linkInfo) == 0 && linkInfo.st_mode & S_IFMT == S_IFLNK
        _ = try addWatch(path, allNames: linked)
        try watchLinkTarget(of: path + "/" + EntryLocator.entryFileName)
    }

    /// When `file` is a symbolic link, watches the folder of the file it resolves to, every name in it.
    private func watchLinkTarget(of file: String) throws {
        var info = stat()
        guard lstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return }
        let target = URL(fileURLWithPath: file).resolvingSymlinksInPath().deletingLastPathComponent().path
        var targetInfo = stat()
        guard stat(target, &targetInfo) == 0, targetInfo.st_mode & S_IFMT == S_IFDIR else { return }
        _ = try addWatch(target, allNames: true)
    }

    private func addWatch(_ path: String, allNames: Bool) throws -> Int32 {
        let wd = inotify_add_watch(fileDescriptor, path, Self.folderEvents)
        guard wd >= 0 else {
            let reason = errno == ENOSPC
                ? "the limit of inotify watches is reached (sysctl fs.inotify.max_user_watches)"
                : String(cString: strerror(errno))
            throw KBError("cannot watch \(path): \(reason)")
        }
        // Two paths may lead to one folder (a link): it is watched once, with every name if either needs it.
        watches[wd] = (path, allNames || watches[wd]?.allNames == true)
        return wd
    }

    /// The little-endian 32-bit word of the event buffer at `offset` (inotify's fields are in the
    /// machine's order; Linux runs little-endian here, as `#if` below checks).
    private func word(at offset: Int) -> UInt32 {
        #if _endian(little)
        return UInt32(buffer[offset]) | UInt32(buffer[offset + 1]) << 8 | UInt32(buffer[offset + 2]) << 16 | UInt32(buffer[offset + 3]) << 24
        #else
        return UInt32(buffer[offset + 3]) | UInt32(buffer[offset + 2]) << 8 | UInt32(buffer[offset + 1]) << 16 | UInt32(buffer[offset]) << 24
        #endif
    }

    /// An event's name: its bytes up to the first NUL (the kernel pads names with NULs).
    private func eventName(from offset: Int, length: Int) -> String {
        guard length > 0 else { return "" }
        let bytes = buffer[offset..<(offset + length)]
        let end = bytes.firstIndex(of: 0) ?? bytes.endIndex
        return String(decoding: bytes[offset..<end], as: UTF8.self)
    }
    #endif
}
