import Foundation
import KBCore
import KBSearch
import KBScenarios

/// The theme a site is dressed in: the built-in files (CSS and scripts, inside the binary), and
/// optionally a theme folder whose files take the place of built-in files of the same path or
/// add new ones, as mdBook's `theme/` does.
public enum BuiltInTheme {
    /// Site-relative path → bytes, decoded once.
    public static let files: [String: [UInt8]] = {
        var files: [String: [UInt8]] = [:]
        for (path, base64) in encodedFiles {
            guard let data = Data(base64Encoded: base64, options: .ignoreUnknownCharacters) else {
                preconditionFailure("BuiltInTheme+Files.swift holds invalid base64 for \(path); run make theme")
            }
            files[path] = [UInt8](data)
        }
        return files
    }()

    /// Site-relative paths, sorted.
    public static var paths: [String] { files.keys.sorted() }

    /// Writes the built-in files under `folder` (`kb theme eject`). Refuses before writing
    /// anything when one of them exists. Returns the paths written.
    public static func eject(into folder: String) throws -> [String] {
        let fm = FileManager.default
        let existing = paths.filter { fm.fileExists(atPath: (folder as NSString).appendingPathComponent($0)) }
        guard existing.isEmpty else {
            throw KBError("\(folder) already has \(existing.joined(separator: ", ")); nothing was written (remove them, or eject into another folder)")
        }
        var written: [String] = []
        for path in paths {
            let target = (folder as NSString).appendingPathComponent(path)
            do {
                try fm.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try Data(files[path]!).write(to: URL(fileURLWithPath: target), options: .withoutOverwriting)
            } catch {
                throw KBError("cannot write \(target): \(error.localizedDescription)")
            }
            written.append(target)
        }
        return written
    }
}

/// One file of the site's theme: its site-relative path and where its bytes come from.
struct ThemeFile: Sendable, Equatable {
    let path: String
    /// The file in the theme folder, or nil for the built-in file.
    let override: String?
}
