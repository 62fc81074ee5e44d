/// A record of an entry that can be linked to: an attempt (`attempt-4-1`) or the fix (`fix`).
/// The one spelling of the fragment that entry pages give the record's heading, that search
/// results, the table of contents and the check report link to, and of the scenario tag
/// (`@attempt-4-1`, `@fix`) that links a check scenario to the record.
public enum RecordAnchor: Hashable, Sendable, CustomStringConvertible {
    case attempt(AttemptNumber)
    case fix

    package static let attemptPrefix = "attempt-"
    package static let fixName = "fix"
    static let tagMark = "@"

    /// `attempt-4-1`, `fix`: the heading's `id` and the `#…` of links to it.
    public var fragment: String {
        switch self {
        case .attempt(let number): Self.attemptPrefix + number.description
        case .fix: Self.fixName
        }
    }

    /// `@attempt-4-1`, `@fix`: the scenario tag that links a scenario to this record.
    public var tag: String { Self.tagMark + fragment }

    public var description: String { fragment }

    /// Reads a fragment: `attempt-4-1` (also `attempt-4.1`) or `fix`; nil for anything else.
    public init?(fragment: Substring) {
        if fragment == Self.fixName {
            self = .fix
        } else if fragment.hasPrefix(Self.attemptPrefix), let number = AttemptNumber(fragment.dropFirst(Self.attemptPrefix.count)) {
            self = .attempt(number)
        } else {
            return nil
        }
    }

    /// What a scenario tag says about records.
    public enum TagReading: Sendable, Equatable {
        /// `@fix`, `@attempt-4-1`: a link to that record.
        case record(RecordAnchor)
        /// `@attempt-…` whose number cannot be read; `text` is the tag without its `@`.
        case unreadable(text: String)
    }

    /// Reads a scenario tag: nil for tags that are not record tags (`@world:…`, `@slow`).
    public static func reading(tag: String) -> TagReading? {
        guard tag.hasPrefix(tagMark) else { return nil }
        let name = tag.dropFirst(tagMark.count)
        if name == fixName { return .record(.fix) }
        guard name.hasPrefix(attemptPrefix) else { return nil }
        guard let number = AttemptNumber(name.dropFirst(attemptPrefix.count)) else { return .unreadable(text: String(name)) }
        return .record(.attempt(number))
    }

    /// The records an entry has: each attempt's, in order, then the fix when it has one.
    public static func records(of entry: Entry) -> [RecordAnchor] {
        entry.attempts.map(\.anchor) + (entry.fix != nil ? [.fix] : [])
    }
}
