/// The front matter of an entry, typed.
public struct EntryMetadata: Sendable {
    public static let knownLanguages = ["zh-Hans", "zh-Hant", "ko", "ja", "en"]
    public static let knownKeys: Set<String> = ["id", "title", "lang", "summary", "symptoms", "platforms", "apis",
                                                "tags", "status", "related", "updated", "scenario"]

    public enum Status: String, Sendable, Codable, CaseIterable {
        case resolved, workaround, open
    }

    public var id: String = ""
    public var title: String = ""
    public var lang: String = ""
    public var summary: String = ""
    public var symptoms: [String] = []
    public var platforms: [String] = []
    public var apis: [String] = []
    public var tags: [String] = []
    public var status: Status? = nil
    public var related: [String] = []
    public var updated: String = ""
    public var scenario: String? = nil
    /// Keys the format does not know, kept as read.
    public var extra: [(key: String, value: YAMLNode)] = []
    /// Where each key's value is, for diagnostics.
    public var locations: [String: SourceLocation] = [:]
    /// Where each item of a list value is (`symptoms`, `related`, …), by key.
    public var itemLocations: [String: [SourceLocation]] = [:]

    public init() {}

    /// Reads typed metadata from a YAML mapping, reporting problems as diagnostics.
    static func read(_ root: YAMLNode?, path: String, at fallback: SourceLocation) -> (EntryMetadata, [Diagnostic]) {
        var metadata = EntryMetadata()
        var diagnostics: [Diagnostic] = []
        func report(_ location: SourceLocation?, _ message: String, _ rule: LintRule) {
            diagnostics.append(Diagnostic(path: path, location: location, message: message, rule: rule))
        }
        guard let root, case .mapping(let pairs) = root.value else {
            report(root?.location ?? fallback, "front matter must be a mapping of keys to values", .frontMatter)
            return (metadata, diagnostics)
        }
        metadata.locations.reserveCapacity(pairs.count)
        for (keyNode, value) in pairs {
            guard let key = keyNode.string else {
                report(keyNode.location, "front matter keys must be strings", .frontMatter)
                continue
            }
            // Every key read so far has its location recorded.
            if metadata.locations[key] != nil {
                report(keyNode.location, "duplicate key '\(key)'", .duplicateKey)
                continue
            }
            metadata.locations[key] = value.location
            func string() -> String? {
                switch value.value {
                case .scalar(let s, _): return s
                case .null: return ""
                default:
                    report(value.location, "'\(key)' must be a string, not \(value.typeName)", .frontMatterType)
                    return nil
                }
            }
            func list() -> [String]? {
                switch value.value {
                case .null: return []
                case .sequence(let items):
                    var result: [String] = []
                    var locations: [SourceLocation] = []
                    result.reserveCapacity(items.count)
                    locations.reserveCapacity(items.count)
                    for item in items {
                        guard let s = item.string else {
                            report(item.location, "'\(key)' must be a list of strings; this item is \(item.typeName)", .frontMatterType)
                            continue
                        }
                        result.append(s)
                        locations.append(item.location)
                    }
                    if !locations.isEmpty { metadata.itemLocations[key] = locations }
                    return result
                default:
                    report(value.location, "'\(key)' must be a list, not \(value.typeName)", .frontMatterType)
                    return nil
                }
            }
            switch key {
            case "id": metadata.id = string() ?? ""
            case "title": metadata.title = string() ?? ""
            case "lang": metadata.lang = string() ?? ""
            case "summary": metadata.summary = string() ?? ""
            case "symptoms": metadata.symptoms = list() ?? []
            case "platforms": metadata.platforms = list() ?? []
            case "apis": metadata.apis = list() ?? []
            case "tags": metadata.tags = list() ?? []
            case "related": metadata.related = list() ?? []
            case "updated": metadata.updated = string() ?? ""
            case "scenario": metadata.scenario = string()
            case "status":
                if let text = string() {
                    if let status = Status(rawValue: text) {
                        metadata.status = status
                    } else {
                        report(value.location, "status '\(text)' is not one of resolved, workaround, open", .invalidStatus)
                    }
                }
            default:
                metadata.extra.append((key, value))
                report(keyNode.location, "unknown key '\(key)' (kept)", .unknownKey)
            }
        }
        return (metadata, diagnostics)
    }
}
