import Foundation

/// The folder a knowledge base lives in, found as git and SwiftPM find theirs, with its
/// configuration. Order: `--root DIR`, then `KB_ROOT`, then the working directory and its
/// parents (the first with a `kb.yaml`, or an `entries/` folder), then `default_root:` of the
/// user's configuration (`$XDG_CONFIG_HOME/kb/config.yaml`, `~/.config/kb/config.yaml`).
public struct KnowledgeBaseRoot: Sendable {
    /// How the root was found (shown by `--verbose`).
    public enum Source: Sendable, Equatable {
        case option
        case environment
        /// Found from the working directory; the marker is `kb.yaml` or `entries/`.
        case discovered(marker: String)
        /// `default_root:` of the user's configuration file at this path.
        case userConfiguration(path: String)
    }

    /// Absolute, standardised.
    public let path: String
    public let source: Source
    public let configuration: KnowledgeBaseConfiguration
    /// `kb.yaml`'s path, nil when the root has none (defaults apply).
    public let configurationFile: String?
    /// What reading `kb.yaml` found (unknown keys, bad values), pointing into the file.
    public var diagnostics: [Diagnostic] = []

    public init(path: String, source: Source, configuration: KnowledgeBaseConfiguration = .init(), configurationFile: String? = nil) {
        self.path = path
        self.source = source
        self.configuration = configuration
        self.configurationFile = configurationFile
    }

    public var entriesDirectory: String { resolve(configuration.entries) }
    public var outputDirectory: String { resolve(configuration.output) }
    public var themeDirectory: String? { configuration.theme.map(resolve) }
    /// Derived data: the search index and the check report.
    public var cacheDirectory: String { resolve(".kb") }

    /// A path of the configuration, relative to the root.
    public func resolve(_ relative: String) -> String {
        EntryLocator.absolute(relative, workingDirectory: path)
    }

    /// One line for `--verbose`: which root, and why.
    public var explanation: String {
        switch source {
        case .option: return "knowledge base: \(path) (--root)"
        case .environment: return "knowledge base: \(path) (KB_ROOT)"
        case .discovered(let marker): return "knowledge base: \(path) (found \(marker) here or above the working directory)"
        case .userConfiguration(let file): return "knowledge base: \(path) (default_root in \(file))"
        }
    }

    public static let notFoundMessage = "no knowledge base here or above; run kb init, or set KB_ROOT"

    /// Finds the root. `explicit` is `--root`. Throws when a named root does not exist or
    /// nothing is found; configuration problems come back as diagnostics (errors among them
    /// stop the command).
    public static func discover(workingDirectory: String, environment: [String: String], explicit: String?) throws -> (KnowledgeBaseRoot, [Diagnostic]) {
        if let explicit {
            return try open(EntryLocator.absolute(explicit, workingDirectory: workingDirectory), source: .option, named: "--root", workingDirectory: workingDirectory)
        }
        if let fromEnvironment = environment["KB_ROOT"], !fromEnvironment.isEmpty {
            return try open(EntryLocator.absolute(fromEnvironment, workingDirectory: workingDirectory), source: .environment, named: "KB_ROOT", workingDirectory: workingDirectory)
        }
        var folder = (workingDirectory as NSString).standardizingPath
        while true {
            if isFile(folder + "/" + KnowledgeBaseConfiguration.fileName) {
                return try open(folder, source: .discovered(marker: KnowledgeBaseConfiguration.fileName), named: nil, workingDirectory: workingDirectory)
            }
            if isFolder(folder + "/entries") {
                return try open(folder, source: .discovered(marker: "entries/"), named: nil, workingDirectory: workingDirectory)
            }
            let parent = (folder as NSString).deletingLastPathComponent
            if parent == folder || parent.isEmpty { break }
            folder = parent
        }
        if let (file, root) = try userDefaultRoot(environment: environment) {
            return try open(root, source: .userConfiguration(path: file), named: "default_root in \(file)", workingDirectory: workingDirectory)
        }
        var message = notFoundMessage + " (looked in \((workingDirectory as NSString).standardizingPath) and every folder above it"
        if let file = userConfigurationFile(environment: environment), isFile(file) {
            message += "; \(file) has no default_root"
            let unknown = (try? userConfigurationKeys(file)).map { $0.filter { $0 != "default_root" } } ?? []
            if !unknown.isEmpty { message += ", only \(unknown.map { "'\($0)'" }.joined(separator: ", ")) (a typo?)" }
        }
        throw KBError(message + ")")
    }

    /// The root at `folder`: its `kb.yaml` read when there is one. A folder named by the user
    /// must exist and hold a `kb.yaml` or an entries folder.
    static func open(_ folder: String, source: Source, named: String?, workingDirectory: String) throws -> (KnowledgeBaseRoot, [Diagnostic]) {
        let folder = (folder as NSString).standardizingPath
        let file = folder + "/" + KnowledgeBaseConfiguration.fileName
        if let named {
            guard isFolder(folder) else { throw KBError("\(named) names \(folder), which is not a folder") }
            guard isFile(file) || isFolder(folder + "/entries") else {
                throw KBError("\(named) names \(folder), which has no \(KnowledgeBaseConfiguration.fileName) and no entries folder; run kb init there first")
            }
        }
        guard isFile(file) else { return (KnowledgeBaseRoot(path: folder, source: source), []) }
        guard let data = FileManager.default.contents(atPath: file) else {
            throw KBError("cannot read \(file)")
        }
        let display = EntryLocator.displayPath(file, workingDirectory: workingDirectory)
        var (configuration, diagnostics) = KnowledgeBaseConfiguration.read(bytes: [UInt8](data), path: display)
        // Folders kb.yaml names must exist (the output folder is made by kb build).
        for key in ["entries", "theme"] {
            guard let at = configuration.locations[key],
                  let value = key == "entries" ? configuration.entries : configuration.theme else { continue }
            let path = EntryLocator.absolute(value, workingDirectory: folder)
            if !isFolder(path) {
                diagnostics.append(Diagnostic(path: display, location: at, severity: .error,
                                              message: "'\(key)' names \(value), which is not a folder under \(folder)", rule: .config))
            }
        }
        var root = KnowledgeBaseRoot(path: folder, source: source, configuration: configuration, configurationFile: file)
        root.diagnostics = diagnostics
        return (root, diagnostics)
    }

    /// The user's configuration file: `$XDG_CONFIG_HOME/kb/config.yaml`, else `$HOME/.config/kb/config.yaml`.
    public static func userConfigurationFile(environment: [String: String]) -> String? {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") { return xdg + "/kb/config.yaml" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.config/kb/config.yaml" }
        return nil
    }

    /// `default_root:` of the user's configuration, `~` expanded; nil when there is no file or key.
    static func userDefaultRoot(environment: [String: String]) throws -> (file: String, root: String)? {
        guard let file = userConfigurationFile(environment: environment), isFile(file) else { return nil }
        guard let data = FileManager.default.contents(atPath: file) else { throw KBError("cannot read \(file)") }
        let node: YAMLNode?
        do { node = try YAMLReader.read([UInt8](data)[...]) } catch {
            throw KBError("\(file):\(error.location.line):\(error.location.column): invalid YAML: \(error.message)")
        }
        guard let node, case .mapping(let pairs) = node.value else { return nil }
        guard let entry = pairs.first(where: { $0.key.string == "default_root" }) else { return nil }
        guard var root = entry.value.string, !root.isEmpty else {
            throw KBError("\(file):\(entry.value.location.line):\(entry.value.location.column): 'default_root' must be a folder path (like ~/src/team-kb)")
        }
        if root == "~" || root.hasPrefix("~/"), let home = environment["HOME"] { root = home + root.dropFirst() }
        guard root.hasPrefix("/") else {
            throw KBError("\(file):\(entry.value.location.line):\(entry.value.location.column): 'default_root' must be an absolute path (or start with ~/), found '\(root)'")
        }
        return (file, root)
    }

    /// The keys of the user's configuration file, in order.
    static func userConfigurationKeys(_ file: String) throws -> [String] {
        guard let data = FileManager.default.contents(atPath: file),
              let node = try? YAMLReader.read([UInt8](data)[...]), case .mapping(let pairs) = node.value else { return [] }
        return pairs.compactMap { $0.key.string }
    }

    static func isFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }

    static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
