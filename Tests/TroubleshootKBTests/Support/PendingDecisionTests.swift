import Foundation
import Testing
@testable import KBCore

/// `PendingDecision`: the first decision counts, and a waiter on another thread gets it however
/// the two threads interleave.
@Suite struct PendingDecisionTests {
    @Test(arguments: [true, false])
    func theFirstDecisionCounts(_ first: Bool) {
        let decision = PendingDecision()
        decision.decide(first)
        decision.decide(!first)
        #expect(decision.wait() == first)
        #expect(decision.wait() == first, "a second wait returns the same answer")
    }

    @Test(arguments: [true, false])
    func aWaiterOnAnotherThreadGetsTheDecision(_ answer: Bool) throws {
        for round in 0..<50 {
            let decision = PendingDecision()
            let waiter = BackgroundTask { decision.wait() }
            if round % 2 == 0 { usleep(100) }
            decision.decide(answer)
            #expect(try waiter.wait() == answer, "round \(round)")
        }
    }
}
