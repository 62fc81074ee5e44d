/// A problem found in a file, reported like a compiler does:
/// `path:line:col: error|warning: message [rule-id]`.
public struct Diagnostic: Sendable, Equatable, Codable {
    public enum Severity: String, Sendable, Codable, Comparable {
        case warning
        case error

        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs == .warning && rhs == .error }
    }

    public var path: String
    public var location: SourceLocation?
    public var severity: Severity
    public var message: String
    public var rule: LintRule

    /// A diagnostic of `rule`, with the rule's severity unless `severity` says otherwise.
    public init(path: String, location: SourceLocation?, severity: Severity? = nil, message: String, rule: LintRule) {
        self.path = path
        self.location = location
        self.severity = severity ?? rule.severity
        self.message = message
        self.rule = rule
    }

    /// The compiler-style one-line form, without colour.
    public var formatted: String {
        let position = location.map { ":\($0.line):\($0.column)" } ?? ""
        return "\(path)\(position): \(severity.rawValue): \(message) [\(rule.id)]"
    }
}
