import Foundation
import KBCore

/// How an entry's records become search fields (docs/search.md, "Entries as documents").
extension SearchDocument {
    public init(entry: Entry, url: String? = nil) {
        let meta = entry.metadata
        // Each field's texts in order (a dictionary only at the end).
        var lists = [[FieldText]](repeating: [], count: SearchField.allCases.count)
        let attemptCount = entry.attempts.count
        lists[SearchField.attempts.rawValue].reserveCapacity(3 * attemptCount)
        lists[SearchField.body.rawValue].reserveCapacity(8 + 3 * attemptCount)
        lists[SearchField.code.rawValue].reserveCapacity(attemptCount)
        func add(_ field: SearchField, _ text: String, anchor: String? = nil, label: String? = nil) {
            guard !text.isEmpty else { return }
            lists[field.rawValue].append(FieldText(text, anchor: anchor, label: label))
        }
        add(.title, meta.title)
        if let heading = entry.titleHeading, heading != meta.title { add(.title, heading) }
        // Texts without a label of their writer are named in the entry's language (`증상`, `コード`).
        let names = Vocabulary.names(forLanguage: meta.lang)
        let symptomName = names[.symptom] ?? "symptom"
        for (k, symptom) in meta.symptoms.enumerated() { add(.symptoms, symptom, anchor: SectionAnchor.symptom(k), label: symptomName) }
        for api in meta.apis { add(.apis, api) }
        if let problem = entry.problem { add(.problem, problem.text, anchor: SectionAnchor.problem, label: problem.heading) }
        add(.body, meta.summary)
        // By index: attempts and parts are read in place, not copied.
        let attempts = entry.attempts
        for a in attempts.indices {
            let prefix = Self.headingPrefix(attempts[a])
            let labelStart = prefix + " — "
            let anchor = attempts[a].anchor.fragment
            let parts = attempts[a].parts
            for k in parts.indices where !parts[k].text.isEmpty {
                let label = labelStart + Self.labelAsWritten(parts[k], names: names)
                switch parts[k].role {
                case .result, .failure, .cause:
                    add(.attempts, parts[k].text, anchor: anchor, label: label)
                case .code:
                    add(.code, parts[k].text, anchor: anchor, label: label)
                case .idea, .detail:
                    add(.body, parts[k].text, anchor: anchor, label: label)
                }
            }
            add(.body, attempts[a].title, anchor: anchor, label: prefix)
        }
        if let fix = entry.fix { add(.fix, fix.text, anchor: RecordAnchor.fix.fragment, label: fix.heading) }
        if let section = entry.sideEffects { add(.body, section.text, anchor: SectionAnchor.sideEffects, label: section.heading) }
        if let section = entry.lessons { add(.body, section.text, anchor: SectionAnchor.lessons, label: section.heading) }
        let notes = entry.notes
        for k in notes.indices { add(.body, notes[k].text, anchor: SectionAnchor.notes(k), label: notes[k].heading) }
        var fields = [SearchField: [FieldText]](minimumCapacity: SearchField.allCases.count)
        for field in SearchField.allCases where !lists[field.rawValue].isEmpty { fields[field] = lists[field.rawValue] }
        self.init(id: entry.id, lang: meta.lang, tags: meta.tags, status: meta.status?.rawValue ?? "",
                  title: meta.title.isEmpty ? entry.id : meta.title, url: url, fields: fields)
    }

    /// `시도 2` of `시도 2: 제목`: the heading up to its title.
    static func headingPrefix(_ attempt: Attempt) -> String {
        guard !attempt.title.isEmpty else { return attempt.heading }
        var prefix: String
        let heading = attempt.heading.utf8, title = attempt.title.utf8
        if heading.count > title.count, heading.suffix(title.count).elementsEqual(title) {
            // The usual case: the heading ends with the title (its last occurrence).
            prefix = String(decoding: attempt.heading.utf8.dropLast(title.count), as: UTF8.self)
        } else {
            guard let range = attempt.heading.range(of: attempt.title, options: .backwards) else { return attempt.heading }
            prefix = String(attempt.heading[..<range.lowerBound])
        }
        while let last = prefix.unicodeScalars.last, VocabularyMatcher.isSeparator(last), last != ")" && last != "）" {
            prefix.unicodeScalars.removeLast()
        }
        return prefix.isEmpty ? attempt.heading : prefix
    }

    /// The label as the writer wrote it (`결과`, `原因`), or for an unlabelled block its role's
    /// name in the entry's language (`names`, `Vocabulary.names(forLanguage:)`: `코드`, `詳細`).
    static func labelAsWritten(_ part: borrowing AttemptPart, names: [Vocabulary.TextName: String]) -> String {
        let role = names[.part(part.role)] ?? part.role.rawValue
        // A code block's text is the block's text: nothing was taken off.
        if case .codeBlock = part.block.kind { return role }
        var text = part.block.plainText
        // A label was taken off when the part's text is shorter than the block's (the text is
        // a run of the block's scalars, so comparing UTF-8 lengths is comparing scalar counts).
        guard text.utf8.count > part.text.utf8.count else { return role }
        // The first colon (`:` or `：`, EF BC 9A) within the label window, in the UTF-8 bytes.
        let colon: Int? = text.withUTF8 { bytes in
            var i = 0, seen = 0
            while i < bytes.count && seen < VocabularyMatcher.labelWindow {
                let b = bytes[i]
                if b == 0x3A { return i }
                if b == 0xEF, i + 2 < bytes.count, bytes[i + 1] == 0xBC, bytes[i + 2] == 0x9A { return i }
                i += 1
                while i < bytes.count && bytes[i] & 0xC0 == 0x80 { i += 1 }
                seen += 1
            }
            return nil
        }
        guard let colon else { return role }
        return String(decoding: text.utf8.prefix(colon), as: UTF8.self).trimmingSpaces()
    }
}
