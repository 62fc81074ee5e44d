import Foundation
import KBCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SearchIndexStore {
    /// What `stat` says of an entry file: any change to the file's bytes changes its change time
    /// (`ctime`, which nothing but the kernel's clock sets), and a file replaced by rename has
    /// another inode, whatever size and modification time it was given.
    struct FileStatus: Equatable, Sendable {
        var size: Int64
        /// Modification and change times in ns since 1970.
        var modificationTime: Int64
        var changeTime: Int64
        var inode: UInt64

        /// An entry reached through a symbolic link that resolves outside the entries folder.
        static let outside = FileStatus(size: -1, modificationTime: 0, changeTime: 0, inode: 0)

        init(size: Int64, modificationTime: Int64, changeTime: Int64, inode: UInt64) {
            self.size = size
            self.modificationTime = modificationTime
            self.changeTime = changeTime
            self.inode = inode
        }

        init(_ info: stat) {
            #if canImport(Darwin)
            let (m, c) = (info.st_mtimespec, info.st_ctimespec)
            #else
            let (m, c) = (info.st_mtim, info.st_ctim)
            #endif
            self.init(size: Int64(info.st_size),
                      modificationTime: Int64(m.tv_sec) * 1_000_000_000 + Int64(m.tv_nsec),
                      changeTime: Int64(c.tv_sec) * 1_000_000_000 + Int64(c.tv_nsec),
                      inode: UInt64(info.st_ino))
        }

        /// The status of the file at `path` (symbolic links followed); nil if there is none.
        init?(path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            self.init(info)
        }

        /// Whether the file changed so close to `scanTime` (or after it) that a later change
        /// could leave the same status behind: a file system stamps times with a coarse clock
        /// (a tick of a few ms, whole seconds on some), so a change within the tick of the
        /// stat that recorded this status may not change it. Such a file is hashed again.
        func isRacy(scanTime: Int64) -> Bool {
            changeTime >= scanTime - SearchIndexStore.racyWindow
        }
    }

    /// How close to a scan a change time must be for the status not to be trusted (ns): more
    /// than the coarsest timestamp tick of the file systems entries live on (2 s on FAT).
    static let racyWindow: Int64 = 3_000_000_000

    /// The current time in ns since 1970, as file systems stamp it (or slightly later).
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// One entry file of the manifest: its path, status and content hash.
    struct FileState: Equatable {
        var path: String
        var status: FileStatus
        var hash: UInt64
    }

    /// `.kb/index/manifest.tsv`: the entry files an index was built from, as they were when the
    /// scan that started at `scanTime` stat'ed them (docs/search.md §12).
    struct Manifest {
        var scanTime: Int64
        var states: [FileState]

        /// The manifest at `path`; nil if it is missing, of another format or malformed.
        static func read(_ path: String) -> Manifest? {
            guard let bytes = LimitedFileRead.bytes(path, limit: 1 << 30), var lines = ManifestLines(bytes) else { return nil }
            var states: [FileState] = []
            while !lines.atEnd {
                guard let row = lines.next() else { return nil }
                states.append(FileState(path: String(decoding: bytes[row.path], as: UTF8.self), status: row.status, hash: row.hash))
            }
            // Written sorted; anything else is not our manifest.
            for k in states.indices.dropFirst() where !SearchIndexStore.pathPrecedes(states[k - 1].path, states[k].path) { return nil }
            return Manifest(scanTime: lines.scanTime, states: states)
        }

        func write(to path: String) throws {
            var text = manifestHeader + "\(scanTimePrefix)\(scanTime)\n"
            for state in states.sorted(by: { SearchIndexStore.pathPrecedes($0.path, $1.path) }) {
                let s = state.status
                text += "\(state.path)\t\(s.size)\t\(s.modificationTime)\t\(s.changeTime)\t\(s.inode)\t\(String(state.hash, radix: 16))\n"
            }
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        }
    }

    /// First line of the manifest; a manifest without it (an older one) is not used.
    static let manifestHeader = "#kb-manifest 3\n"
    /// The second line: `#scan-time <ns>`.
    static let scanTimePrefix = "#scan-time "

    /// Reads the manifest's lines (`path\tsize\tmtime\tctime\tinode\thash`) from its bytes after
    /// checking the two header lines, without making strings.
    struct ManifestLines {
        let b: [UInt8]
        var i: Int
        private(set) var scanTime: Int64

        init?(_ b: [UInt8]) {
            let header = Array((SearchIndexStore.manifestHeader + SearchIndexStore.scanTimePrefix).utf8)
            guard b.count >= header.count, b.prefix(header.count).elementsEqual(header) else { return nil }
            self.b = b
            self.i = header.count
            self.scanTime = 0
            guard let time = field(0x0A).flatMap({ Self.number(b, $0, radix: 10) }), time <= UInt64(Int64.max) else { return nil }
            self.scanTime = Int64(time)
        }

        var atEnd: Bool { i == b.count }

        private mutating func field(_ end: UInt8) -> Range<Int>? {
            let start = i
            while i < b.count && b[i] != end && b[i] != 0x0A { i += 1 }
            guard i < b.count, b[i] == end else { return nil }
            defer { i += 1 }
            return start..<i
        }

        private mutating func signed(_ end: UInt8) -> Int64? {
            guard var r = field(end) else { return nil }
            let negative = !r.isEmpty && b[r.lowerBound] == 0x2D
            if negative { r = (r.lowerBound + 1)..<r.upperBound }
            guard let v = Self.number(b, r, radix: 10), v <= UInt64(Int64.max) else { return nil }
            return negative ? -Int64(v) : Int64(v)
        }

        /// The next line's path bytes, status and hash; nil if the line is malformed.
        mutating func next() -> (path: Range<Int>, status: FileStatus, hash: UInt64)? {
            guard let p = field(0x09), let size = signed(0x09), let mtime = signed(0x09), let ctime = signed(0x09),
                  let inode = field(0x09).flatMap({ Self.number(b, $0, radix: 10) }),
                  let hash = field(0x0A).flatMap({ Self.number(b, $0, radix: 16) }) else { return nil }
            return (p, FileStatus(size: size, modificationTime: mtime, changeTime: ctime, inode: inode), hash)
        }

        /// A decimal or hexadecimal number (nil if empty, malformed or too large).
        static func number(_ b: [UInt8], _ r: Range<Int>, radix: UInt64) -> UInt64? {
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
    }
}
