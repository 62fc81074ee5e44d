/// How an attempt ended.
public enum Outcome: String, Sendable, Codable, CaseIterable {
    /// Tried and did not work.
    case failed
    /// Worked in part, or with an unacceptable cost.
    case partial
    /// Worked.
    case worked
    /// Dropped because it broke a requirement, not because it failed.
    case rejected
    /// No explicit outcome word after the result label.
    case unknown

    /// The mark `kb show` and the site use.
    public var symbol: String {
        switch self {
        case .failed: return "✗"
        case .partial: return "△"
        case .worked: return "✓"
        case .rejected: return "⊘"
        case .unknown: return "?"
        }
    }
}
