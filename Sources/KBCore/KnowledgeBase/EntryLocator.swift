import Foundation
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Finds entry files on disk: `entries/<id>/entry.md`.
public struct EntryLocation: Sendable, Hashable {
    /// Absolute path of `entry.md`.
    public let file: String
    /// The folder name (the id the entry must have).
    public let folderName: String
    /// Absolute path of the folder that holds the entry folders.
    public let root: String
    /// The path shown in diagnostics (relative to the working directory when inside it).
    public let displayPath: String

    package init(file: String, folderName: String, root: String, displayPath: String) {
        self.file = file
        self.folderName = folderName
        self.root = root
        self.displayPath = displayPath
    }
}

/// An error that stops a command before it starts (a path that does not exist, …).
public struct KBError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

public enum EntryLocator {
    public static let entryFileName = "entry.md"

    /// Resolves command-line paths (an entries folder, an entry folder or an `entry.md`)
    /// to entry locations, sorted by path. Symlinked entry folders or files that point outside
    /// their entries folder are reported and skipped.
    public static func locate(_ paths: [String], workingDirectory: String) throws -> (locations: [EntryLocation], diagnostics: [Diagnostic]) {
        let fm = FileManager.default
        var locations: [EntryLocation] = []
        var diagnostics: [Diagnostic] = []
        for raw in paths {
            let path = absolute(raw, workingDirectory: workingDirectory)
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw KBError("no such file or directory: \(raw)")
            }
            if !isDirectory.boolValue {
                let folder = (path as NSString).deletingLastPathComponent
                let root = (folder as NSString).deletingLastPathComponent
                locations.append(location(file: path, folder: folder, root: root, workingDirectory: workingDirectory))
            } else if fm.fileExists(atPath: (path as NSString).appendingPathComponent(entryFileName)) {
                let root = (path as NSString).deletingLastPathComponent
                locations.append(location(file: (path as NSString).appendingPathComponent(entryFileName), folder: path, root: root,
                                          workingDirectory: workingDirectory))
            } else {
                let names = ((try? fm.contentsOfDirectory(atPath: path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
                let found = folderEntries(names, in: path, workingDirectory: workingDirectory)
                for item in found {
                    switch item {
                    case .none: continue
                    case .entry(let location): locations.append(location)
                    case .problem(let diagnostic): diagnostics.append(diagnostic)
                    }
                }
            }
        }
        var seen = Set<String>()
        locations = locations.filter { seen.insert($0.file).inserted }
        return (locations, diagnostics)
    }

    private enum Found: Sendable {
        case none
        case entry(EntryLocation)
        case problem(Diagnostic)
    }

    /// The entry (or the problem) of each folder `names[i]` of the entries folder `root`, looked at on all
    /// cores. A plain folder with a plain `entry.md` is inside `root` by construction; only symbolic links
    /// are resolved to check where they lead.
    private static func folderEntries(_ names: [String], in root: String, workingDirectory: String) -> [Found] {
        guard !names.isEmpty else { return [] }
        let dir = Glibc.open(root, O_RDONLY | O_DIRECTORY)
        defer { if dir >= 0 { close(dir) } }
        let slices = min(max(1, ProcessInfo.processInfo.activeProcessorCount), 8, max(1, names.count / 256))
        // Paths joined as `appendingPathComponent` and shown as `displayPath` would, without their cost per entry.
        let base = (workingDirectory as NSString).standardizingPath + "/"
        let prefix = root.hasSuffix("/") ? root : root + "/"
        return Parallel.map(names.count, slices: slices) { i in
            folderEntry(names[i], in: root, prefix: prefix, dir: dir, base: base, workingDirectory: workingDirectory)
        }
    }

    private static func folderEntry(_ name: String, in path: String, prefix: String, dir: Int32, base: String,
                                    workingDirectory: String) -> Found {
        if dir >= 0 && !name.utf8.contains(UInt8(ascii: "/")) {
            let folder = prefix + name
            let file = folder + "/" + entryFileName
            let display = file.hasPrefix(base) ? String(file.dropFirst(base.count)) : file
            let candidate = EntryLocation(file: file, folderName: name, root: path, displayPath: display)
            // Fast path: no symbolic link on the way (one or two fstatat calls, no path resolution).
            var info = stat()
            guard fstatat(dir, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return .none }
            let folderMode = info.st_mode & S_IFMT
            if folderMode != S_IFLNK {
                guard folderMode == S_IFDIR else { return .none }
                if fstatat(dir, name + "/" + entryFileName, &info, AT_SYMLINK_NOFOLLOW) != 0 {
                    return .problem(Diagnostic(path: candidate.displayPath, location: nil, severity: .warning,
                                               message: "folder has no \(entryFileName); it is not an entry", rule: .missingEntryFile))
                }
                if info.st_mode & S_IFMT != S_IFLNK { return .entry(candidate) }
            }
        }
        // A symbolic link on the way: followed, and resolved to check that it stays inside the entries folder.
        let folder = (path as NSString).appendingPathComponent(name)
        let file = (folder as NSString).appendingPathComponent(entryFileName)
        let fm = FileManager.default
        var isFolder: ObjCBool = false
        guard fm.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else { return .none }
        let candidate = location(file: file, folder: folder, root: path, workingDirectory: workingDirectory)
        guard fm.fileExists(atPath: file) else {
            return .problem(Diagnostic(path: candidate.displayPath, location: nil, severity: .warning,
                                       message: "folder has no \(entryFileName); it is not an entry", rule: .missingEntryFile))
        }
        if let escape = escapes(file: file, root: path) {
            return .problem(Diagnostic(path: candidate.displayPath, location: nil, severity: .error,
                                       message: "symbolic link points outside the entries folder (\(escape)); not read",
                                       rule: .pathOutside))
        }
        return .entry(candidate)
    }

    /// If `file` resolves (through symbolic links) to a place outside `root`, returns where.
    package static func escapes(file: String, root: String) -> String? {
        let resolvedRoot = URL(fileURLWithPath: root).resolvingSymlinksInPath().path
        let resolved = URL(fileURLWithPath: file).resolvingSymlinksInPath().path
        return resolved.hasPrefix(resolvedRoot + "/") ? nil : resolved
    }

    static func location(file: String, folder: String, root: String, workingDirectory: String) -> EntryLocation {
        EntryLocation(file: file, folderName: (folder as NSString).lastPathComponent, root: root,
                      displayPath: displayPath(file, workingDirectory: workingDirectory))
    }

    public static func absolute(_ path: String, workingDirectory: String) -> String {
        let joined = path.hasPrefix("/") ? path : (workingDirectory as NSString).appendingPathComponent(path)
        return (joined as NSString).standardizingPath
    }

    public static func displayPath(_ path: String, workingDirectory: String) -> String {
        let base = (workingDirectory as NSString).standardizingPath
        if path.hasPrefix(base + "/") { return String(path.dropFirst(base.count + 1)) }
        return path
    }
}

extension EntryLocator {
    /// Ids that `related` may name: every entry folder beside the located ones (what
    /// `Linter` is given as `knownIDs` by kb lint, kb build and the search index).
    public static func knownIDs(for locations: [EntryLocation]) -> Set<String> {
        var ids = Set(locations.map(\.folderName))
        for root in Set(locations.map(\.root)) {
            // Folders already located are known; only the others are looked at.
            for name in (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [] where !ids.contains(name) &&
                FileManager.default.fileExists(atPath: (root as NSString).appendingPathComponent(name + "/" + EntryLocator.entryFileName)) {
                ids.insert(name)
            }
        }
        return ids
    }
}
