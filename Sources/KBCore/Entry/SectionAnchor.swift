/// The fragments entry pages give an entry's sections besides its records (`RecordAnchor`): the
/// one spelling that the page's ids, its table of contents, the symptom index and search results
/// link to.
public enum SectionAnchor {
    /// The list of symptoms.
    public static let symptoms = "symptoms"
    /// The problem section.
    public static let problem = "problem"
    public static let sideEffects = "side-effects"
    public static let lessons = "lessons"
    public static let references = "references"

    /// Symptom `index` (0-based) of the front matter's list: `symptom-1` for the first.
    public static func symptom(_ index: Int) -> String { "symptom-\(index + 1)" }

    /// Notes section `index` (0-based), in order: `notes-1` for the first.
    public static func notes(_ index: Int) -> String { "notes-\(index + 1)" }
}
