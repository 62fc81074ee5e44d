import KBCore
/// A syntax error in a feature file, located at a 1-based line and column
/// (column 0 for "unexpected end of file", as cucumber reports it).
public struct GherkinError: Error, Hashable, Sendable, CustomStringConvertible {
    public var uri: String
    public var line: Int
    public var column: Int
    /// The bare reason, such as `inconsistent cell count within the table`.
    public var reason: String

    public init(uri: String = "", line: Int, column: Int, reason: String) {
        self.uri = uri
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// The message in cucumber's format: `(line:column): reason`.
    public var message: String { "(\(line):\(column)): \(reason)" }

    /// `path:line:col: reason`, as compiler diagnostics and `kb lint` give it: columns start at
    /// 1, so cucumber's column 0 (end of file) is column 1 here.
    public var description: String { "\(uri):\(line):\(max(1, column)): \(reason)" }
}

/// All the errors of one parse; the parser recovers after each error and
/// reports every one it found (at most 11, as cucumber does).
public struct GherkinParseErrors: Error, Hashable, Sendable, CustomStringConvertible {
    public var errors: [GherkinError]

    public init(_ errors: [GherkinError]) {
        self.errors = errors
    }

    public var description: String {
        errors.map(\.description).joined(separator: "\n")
    }
}
