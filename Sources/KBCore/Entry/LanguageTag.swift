/// BCP 47 language tags as kb compares them: without case, and a range covers its subtags
/// (`zh` covers `zh-Hans` and `zh-Hant`; `ZH-hans` is `zh-Hans`), as RFC 4647's basic filtering.
public enum LanguageTag {
    /// Whether `tag` is `range` or one of its subtags.
    public static func matches(_ tag: String, range: String) -> Bool {
        let tag = tag.lowercased(), range = range.lowercased()
        return tag == range || tag.hasPrefix(range + "-")
    }
}
