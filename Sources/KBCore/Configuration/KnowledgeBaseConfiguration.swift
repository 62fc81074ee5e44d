import Foundation

/// The settings of one knowledge base, read from `kb.yaml` at its root (docs/configuration.md).
/// Every key is optional; a missing file or key means the default. Paths are relative to the
/// root.
public struct KnowledgeBaseConfiguration: Sendable, Equatable {
    public static let fileName = "kb.yaml"

    /// The site's name: page titles, the header, the feed.
    public var title = "TroubleshootKB"
    /// The home page's meta description.
    public var description = "A multilingual troubleshooting knowledge base: what was tried, what failed, what worked."
    /// Where the site is served (`/kb/` or `https://example.com/kb/`); `--base-url` overrides.
    public var baseURL: String?
    /// Languages in the order the home page lists them; languages not named follow, by tag.
    /// Also the languages `kb init` writes examples for.
    public var languages: [String] = []
    /// The folder that holds `<id>/entry.md`.
    public var entries = "entries"
    /// Where `kb build` writes the site; `--out` overrides.
    public var output = "_site"
    /// A folder whose files override the built-in theme's (nil: the built-in theme only).
    public var theme: String?
    /// `kb check --jobs` when not given.
    public var checkJobs = 1
    /// `kb check --timeout` (seconds per command) when not given.
    public var checkTimeout = 60
    /// Where each key's value is in kb.yaml (`entries` → 3:10), for diagnostics about the value.
    public var locations: [String: SourceLocation] = [:]

    public init() {}

    /// Every key the file may hold, with what it means (for warnings and the docs).
    public static let keys: [(key: String, help: String)] = [
        ("title", "The site's name, shown in page titles, the header and the feed."),
        ("description", "The home page's meta description."),
        ("base_url", "Where the site is served: a path starting with / or an http(s) URL."),
        ("languages", "Language tags in the order the home page lists them."),
        ("entries", "The entries folder, relative to the root."),
        ("output", "Where kb build writes the site, relative to the root."),
        ("theme", "A folder whose files override the built-in theme, relative to the root."),
        ("check", "Defaults of kb check: jobs and timeout."),
    ]

    /// Reads `kb.yaml`. Errors leave the defaults in place for the values they concern and are
    /// returned with warnings (unknown keys) as diagnostics pointing into the file.
    public static func read(bytes: [UInt8], path: String) -> (KnowledgeBaseConfiguration, [Diagnostic]) {
        var configuration = KnowledgeBaseConfiguration()
        var diagnostics: [Diagnostic] = []
        func report(_ at: SourceLocation?, _ message: String, _ rule: LintRule = .config) {
            diagnostics.append(Diagnostic(path: path, location: at, message: message, rule: rule))
        }
        guard String(validating: bytes, as: UTF8.self) != nil else {
            report(nil, "kb.yaml is not valid UTF-8", .invalidUTF8)
            return (configuration, diagnostics)
        }
        // One document: a second one (after a `---` line) would be silently ignored.
        var sawContent = false
        for (number, line) in String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if (trimmed == "---" || trimmed.hasPrefix("--- ")) && sawContent {
                report(SourceLocation(line: number + 1, column: 1), "kb.yaml holds a second YAML document here; settings after it would be ignored, so put them all in one document")
                return (configuration, diagnostics)
            }
            if !trimmed.isEmpty && !trimmed.hasPrefix("#") && trimmed != "---" { sawContent = true }
        }
        let root: YAMLNode?
        do {
            root = try YAMLReader.read(bytes[...])
        } catch {
            report(error.location, "invalid YAML: \(error.message)")
            return (configuration, diagnostics)
        }
        guard let root else { return (configuration, diagnostics) } // an empty file: all defaults
        if case .null = root.value { return (configuration, diagnostics) }
        guard case .mapping(let pairs) = root.value else {
            report(root.location, "kb.yaml must be a mapping of settings (title: …, entries: …), found \(root.typeName)")
            return (configuration, diagnostics)
        }

        func text(_ node: YAMLNode, _ key: String, allowEmpty: Bool = false) -> String? {
            guard let value = node.string, case .scalar(_, _) = node.value else {
                report(node.location, "'\(key)' must be a string, found \(node.typeName)")
                return nil
            }
            if !allowEmpty && value.trimmingCharacters(in: .whitespaces).isEmpty {
                report(node.location, "'\(key)' must not be empty")
                return nil
            }
            return value
        }
        func folder(_ node: YAMLNode, _ key: String) -> String? {
            guard let value = text(node, key) else { return nil }
            if value.contains("\0") {
                report(node.location, "'\(key)' is not a usable folder name")
                return nil
            }
            return value
        }
        func integer(_ node: YAMLNode, _ key: String, _ range: ClosedRange<Int>) -> Int? {
            guard let value = node.string, let number = Int(value), range.contains(number) else {
                report(node.location, "'\(key)' must be a whole number from \(range.lowerBound) to \(range.upperBound), found \(node.string.map { "'\($0)'" } ?? node.typeName)")
                return nil
            }
            return number
        }

        var seen: Set<String> = []
        for (keyNode, value) in pairs {
            guard let key = keyNode.string else {
                report(keyNode.location, "setting names must be strings")
                continue
            }
            if !seen.insert(key).inserted {
                report(keyNode.location, "'\(key)' is set twice")
                continue
            }
            configuration.locations[key] = value.location
            switch key {
            case "title":
                if let value = text(value, key) { configuration.title = value }
            case "description":
                if let value = text(value, key, allowEmpty: true) { configuration.description = value }
            case "base_url":
                if case .null = value.value { configuration.baseURL = nil; continue }
                guard let value = text(value, key).map({ ($0, value.location) }) else { continue }
                if BaseURL(parsing: value.0) == nil {
                    report(value.1, "'base_url' must be a path starting with / (like /kb/) or an http(s) URL, found '\(value.0)'")
                } else {
                    configuration.baseURL = value.0
                }
            case "languages":
                guard case .sequence(let items) = value.value else {
                    report(value.location, "'languages' must be a list of language tags ([zh-Hans, ko, ja, en]), found \(value.typeName)")
                    continue
                }
                var languages: [String] = []
                for item in items {
                    guard let tag = item.string, Self.isLanguageTag(tag) else {
                        report(item.location, "'\(item.string ?? item.typeName)' is not a language tag (like zh-Hans, ko, ja or en)")
                        continue
                    }
                    if languages.contains(tag) {
                        report(item.location, "'\(tag)' is listed twice", .configDuplicate)
                    } else {
                        languages.append(tag)
                    }
                }
                configuration.languages = languages
            case "entries":
                if let value = folder(value, key) { configuration.entries = value }
            case "output":
                if let value = folder(value, key) { configuration.output = value }
            case "theme":
                if case .null = value.value { configuration.theme = nil; continue }
                if let value = folder(value, key) { configuration.theme = value }
            case "check":
                guard case .mapping(let settings) = value.value else {
                    report(value.location, "'check' must be a mapping (jobs: 2, timeout: 60), found \(value.typeName)")
                    continue
                }
                for (name, setting) in settings {
                    switch name.string {
                    case "jobs": if let n = integer(setting, "check.jobs", 1...256) { configuration.checkJobs = n }
                    case "timeout": if let n = integer(setting, "check.timeout", 1...86_400) { configuration.checkTimeout = n }
                    default:
                        report(name.location, "unknown setting 'check.\(name.string ?? "?")' (known: jobs, timeout)", .configUnknownKey)
                    }
                }
            default:
                let known = keys.map(\.key).joined(separator: ", ")
                report(keyNode.location, "unknown setting '\(key)' (known: \(known))", .configUnknownKey)
            }
        }
        // The build replaces the output folder: it may not be, hold or lie in the entries or the theme.
        func standard(_ folder: String) -> String { ("/" + folder as NSString).standardizingPath }
        let output = standard(configuration.output)
        for (key, folder) in [("entries", configuration.entries), ("theme", configuration.theme)] {
            guard let folder else { continue }
            let other = standard(folder)
            if output == other || output.hasPrefix(other + "/") || other.hasPrefix(output + "/") || output == "/" {
                report(configuration.locations["output"] ?? root.location,
                       "'output' (\(configuration.output)) must be apart from '\(key)' (\(folder)): kb build replaces the output folder as a whole")
                configuration.output = KnowledgeBaseConfiguration().output
                break
            }
        }
        return (configuration, diagnostics)
    }

    /// A BCP 47-shaped tag: letters, then subtags of letters and digits (`zh-Hans`, `pt-BR`).
    static func isLanguageTag(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        return parts.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }
}
