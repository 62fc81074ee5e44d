/// A YAML value read by libyaml, with the location it came from.
public enum YAMLValue: Sendable, Equatable {
    case scalar(String, plain: Bool)
    case sequence([YAMLNode])
    case mapping([(key: YAMLNode, value: YAMLNode)])
    case null

    public static func == (lhs: YAMLValue, rhs: YAMLValue) -> Bool {
        switch (lhs, rhs) {
        case let (.scalar(a, pa), .scalar(b, pb)): return a == b && pa == pb
        case let (.sequence(a), .sequence(b)): return a == b
        case let (.mapping(a), .mapping(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.null, .null): return true
        default: return false
        }
    }
}

/// A node of a YAML document.
public struct YAMLNode: Sendable, Equatable {
    public let value: YAMLValue
    public let location: SourceLocation

    public init(value: YAMLValue, location: SourceLocation) {
        self.value = value
        self.location = location
    }

    public var typeName: String {
        switch value {
        case .scalar: return "a string"
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        case .null: return "null"
        }
    }

    /// The scalar text, or nil for collections and null.
    public var string: String? {
        if case .scalar(let s, _) = value { return s }
        return nil
    }
}

/// A YAML syntax error with its 1-based location in the file.
public struct YAMLError: Error, Sendable, Equatable {
    public let message: String
    public let location: SourceLocation
}
