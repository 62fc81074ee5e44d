extension Vocabulary {
    /// English.
    static let english = Vocabulary(
        language: "en",
        sections: [
            .problem: ["Problem", "Background", "Symptoms", "Symptom", "Context"],
            .attempts: ["Attempts", "What we tried", "What I tried"],
            .fix: ["Fix", "Solution", "Resolution", "The fix", "Final fix"],
            .sideEffects: ["Side effects", "Side effect", "Trade-offs", "Limitations"],
            .lessons: ["Lessons learned", "Lessons", "Takeaways"],
            .references: ["References", "See also", "Links"],
        ],
        attemptWords: ["Attempt", "Approach", "Try"],
        labels: [
            .idea: ["Idea", "Approach"],
            .result: ["Result", "Outcome"],
            .failure: ["Problem", "Failure", "Symptom"],
            .cause: ["Cause", "Why", "Root cause"],
            .fixStep: ["Fix"],
            .code: ["Code"],
        ],
        outcomes: [
            .failed: ["failed", "failure", "did not work", "didn't work", "unsuccessful", "fails"],
            .partial: ["partially", "partial"],
            .worked: ["worked", "works", "success", "succeeded", "successful"],
            .rejected: ["rejected"],
        ],
        evidence: [
            .failure: ["no effect", "does not work", "doesn't work", "not working", "still stops", "still fails", "still broken",
                       "still crashes", "still happens", "same error", "is nil", "always nil", "returns nil", "crashes", "stale",
                       "out of sync", "is ignored", "gets overwritten", "is overwritten", "not applied", "was not the cause", "not the cause"],
            .rejection: ["not accepted", "does not meet the requirement", "against the requirement", "vetoed", "abandoned",
                         "dropped the idea", "ruled out by"],
            .success: ["fixed it", "fixes it", "solved", "passed", "is visible now", "now shows", "went away", "is gone"],
            .limitation: ["not supported", "unsupported", "there is no", "no modifier", "no api for", "only applies"],
        ],
        names: [
            .symptom: "symptom", .part(.idea): "idea", .part(.code): "code", .part(.result): "result",
            .part(.failure): "failure", .part(.cause): "cause", .part(.detail): "detail",
        ]
    )
}
