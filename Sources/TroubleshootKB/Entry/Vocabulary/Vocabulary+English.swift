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
        ]
    )
}
