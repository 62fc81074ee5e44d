import Foundation

/// Concepts of the knowledge base's domain with their terms in each language
/// (`entries/glossary.yaml`). Search adds a concept token wherever one of its terms occurs,
/// so a query in one language finds an entry written in another.
public struct Glossary: Sendable {
    /// One term of a concept, as written, with its language and where it is.
    public struct Term: Sendable, Hashable {
        public let text: String
        public let language: String
        public let location: SourceLocation
    }

    public struct Concept: Sendable {
        public let id: String
        public let terms: [Term]
        public let location: SourceLocation
    }

    public static let fileName = "glossary.yaml"
    public static let languages = ["en", "zh-Hans", "zh-Hant", "ko", "ja"]

    public let concepts: [Concept]
    public let path: String

    public init(concepts: [Concept], path: String = "") {
        self.concepts = concepts
        self.path = path
    }

    public static let empty = Glossary(concepts: [])

    /// Reads a glossary file. Structural problems are returned as diagnostics; what can be
    /// read is kept.
    public static func read(bytes: [UInt8], path: String) -> (Glossary, [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        func report(_ at: SourceLocation?, _ message: String, _ rule: LintRule) {
            diagnostics.append(Diagnostic(path: path, location: at, message: message, rule: rule))
        }
        guard String(validating: bytes, as: UTF8.self) != nil else {
            report(nil, "the glossary is not valid UTF-8", .invalidUTF8)
            return (.empty, diagnostics)
        }
        let root: YAMLNode?
        do {
            root = try YAMLReader.read(bytes[...])
        } catch {
            report(error.location, "invalid YAML: \(error.message)", .glossary)
            return (.empty, diagnostics)
        }
        guard let root, case .mapping(let top) = root.value,
              let conceptsNode = top.first(where: { $0.key.string == "concepts" })?.value,
              case .sequence(let items) = conceptsNode.value else {
            report(root?.location ?? .init(line: 1, column: 1), "the glossary must be a mapping with a 'concepts' list", .glossary)
            return (.empty, diagnostics)
        }
        var concepts: [Concept] = []
        for item in items {
            guard case .mapping(let pairs) = item.value else {
                report(item.location, "a concept must be a mapping with 'id' and terms per language", .glossary)
                continue
            }
            var id: String? = nil
            var terms: [Term] = []
            for (key, value) in pairs {
                guard let name = key.string else { continue }
                if name == "id" {
                    id = value.string
                    continue
                }
                guard languages.contains(name) else {
                    report(key.location, "unknown language '\(name)' (expected one of \(languages.joined(separator: ", ")))", .glossaryLanguage)
                    continue
                }
                let values: [YAMLNode]
                switch value.value {
                case .sequence(let list): values = list
                case .scalar: values = [value]
                default: values = []
                }
                for term in values {
                    guard let text = term.string, !text.trimmingSpaces().isEmpty else {
                        report(term.location, "a term must be a non-empty string", .glossary)
                        continue
                    }
                    terms.append(Term(text: text, language: name, location: term.location))
                }
            }
            guard let id, !id.isEmpty else {
                report(item.location, "a concept needs an 'id'", .glossary)
                continue
            }
            concepts.append(Concept(id: id, terms: terms, location: item.location))
        }
        let glossary = Glossary(concepts: concepts, path: path)
        diagnostics += glossary.validate()
        return (glossary, diagnostics)
    }

    /// Loads `glossary.yaml` from an entries folder; an absent file is an empty glossary.
    public static func load(entriesDirectory: String, displayPath: String? = nil) -> (Glossary, [Diagnostic]) {
        let file = (entriesDirectory as NSString).appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: file) else { return (.empty, []) }
        return read(bytes: [UInt8](data), path: displayPath ?? file)
    }

    /// The comparison form of a term: NFKC, lower-cased, spaces collapsed.
    public static func normalize(_ term: String) -> String {
        term.precomposedStringWithCompatibilityMapping.lowercased()
            .split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }

    /// Duplicate ids, a term listed twice, a term in two concepts.
    func validate() -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var ids: [String: SourceLocation] = [:]
        var owner: [String: String] = [:]
        for concept in concepts {
            if let first = ids[concept.id] {
                diagnostics.append(Diagnostic(path: path, location: concept.location, severity: .error,
                                              message: "concept '\(concept.id)' is defined twice (first at line \(first.line))", rule: .glossaryDuplicate))
            }
            ids[concept.id] = concept.location
            var seen: Set<String> = []
            for term in concept.terms {
                let key = Self.normalize(term.text)
                if let other = owner[key], other != concept.id {
                    diagnostics.append(Diagnostic(path: path, location: term.location, severity: .error,
                                                  message: "term '\(term.text)' is in two concepts: '\(other)' and '\(concept.id)'", rule: .glossaryTermConflict))
                } else if !seen.insert(key + "\u{0}" + term.language).inserted {
                    diagnostics.append(Diagnostic(path: path, location: term.location, severity: .warning,
                                                  message: "term '\(term.text)' is listed twice in '\(concept.id)'", rule: .glossaryDuplicate))
                }
                owner[key] = concept.id
            }
        }
        return diagnostics
    }
}
