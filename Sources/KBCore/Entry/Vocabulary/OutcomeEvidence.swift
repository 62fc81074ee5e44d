/// What a phrase in an attempt's text says about its outcome without naming one. The importer
/// weighs the phrases it finds (`OutcomeEvidence.verdict`) to draft an outcome, and always asks
/// the author to confirm it.
public enum OutcomeEvidence: String, Sendable, CaseIterable {
    /// The attempt did not do what it was meant to (`基本失效`, `적용 안 됨`, `still stops`).
    case failure
    /// It worked but was turned down by a requirement or a person (`用户不接受`).
    case rejection
    /// Something it set out to do happened (`能看见了`, `변경되`, `fixed it`).
    case success
    /// A missing piece short of a failure (`不支持`, `존재하지 않`, `not supported`).
    case limitation

    /// The outcome the found kinds point to: any failure makes it failed; otherwise a rejection
    /// makes it rejected; success with a limitation is partial; success alone worked. Nothing
    /// (or a limitation alone) gives no outcome.
    public static func verdict(_ found: Set<OutcomeEvidence>) -> Outcome? {
        if found.contains(.failure) { return .failed }
        if found.contains(.rejection) { return .rejected }
        if found.contains(.success) { return found.contains(.limitation) ? .partial : .worked }
        return nil
    }

    /// The evidence an outcome word stands for when it appears outside the result's first
    /// clause (`部分` is a success with a limitation); also the kinds that decide that outcome.
    public static func kinds(forOutcomeWord outcome: Outcome) -> Set<OutcomeEvidence> {
        switch outcome {
        case .failed: return [.failure]
        case .rejected: return [.rejection]
        case .worked: return [.success]
        case .partial: return [.success, .limitation]
        case .unknown: return []
        }
    }
}
