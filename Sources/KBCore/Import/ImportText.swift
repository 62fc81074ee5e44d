import Foundation

/// Small text helpers of the importer: sentences, label colons, lengths.
enum ImportText {
    static let sentenceEnds: Set<Character> = ["。", "！", "？", "!", "?", "."]
    static let fullStops: Set<Character> = ["。", "！", "？"]

    /// Splits text into sentences, keeping each sentence's final punctuation. A full-width
    /// stop always ends a sentence; `.`, `!` and `?` only before a space or the end, so
    /// `.background()` and `UIColor.label` stay whole.
    static func sentences(_ text: String) -> [String] {
        var result: [String] = []
        var current = ""
        let characters = Array(text)
        for (index, c) in characters.enumerated() {
            current.append(c)
            let next: Character? = index + 1 < characters.count ? characters[index + 1] : nil
            let ends = fullStops.contains(c) || c == "\n"
                || ((c == "." || c == "!" || c == "?") && (next == nil || next == " " || next == "\n"))
            if ends, next.map({ !sentenceEnds.contains($0) && $0 != "”" && $0 != "」" && $0 != ")" && $0 != "）" }) ?? true {
                let trimmed = current.trimmingCharacters(in: .whitespacesAndNewlines)
                if !trimmed.isEmpty { result.append(trimmed) }
                current = ""
            }
        }
        let trimmed = current.trimmingCharacters(in: .whitespacesAndNewlines)
        if !trimmed.isEmpty { result.append(trimmed) }
        return result
    }

    static func endsLikeSentence(_ text: String) -> Bool {
        guard let last = text.last else { return false }
        return sentenceEnds.contains(last) || last == "…"
    }

    /// Splits `head: body` at the first colon outside brackets (ASCII `:` only before a space
    /// or the end, so `10:42`, `a::b` and URLs stay whole).
    static func splitAtLabelColon(_ text: String) -> (head: String, body: String)? {
        var depth = 0
        let characters = Array(text)
        for (index, c) in characters.enumerated() {
            switch c {
            case "(", "（", "[", "【", "「": depth += 1
            case ")", "）", "]", "】", "」": depth = max(0, depth - 1)
            case "：" where depth == 0, ":" where depth == 0 && (index + 1 == characters.count || characters[index + 1] == " "):
                let head = String(characters[..<index]).trimmingCharacters(in: .whitespaces)
                let body = String(characters[(index + 1)...]).trimmingCharacters(in: .whitespaces)
                guard !head.isEmpty else { return nil }
                return (head, body)
            default:
                break
            }
        }
        return nil
    }

    static func scalarCount(_ text: String) -> Int { text.unicodeScalars.count }

    /// Joins lines of a paragraph: no space between two CJK characters, a space otherwise.
    static func joinLines(_ lines: [String]) -> String {
        var out = ""
        for line in lines {
            if let last = out.unicodeScalars.last, let first = line.unicodeScalars.first,
               !(CJKCharacter.joinsWithoutSpace(last) && CJKCharacter.joinsWithoutSpace(first)) {
                out += " "
            }
            out += line
        }
        return out
    }

    /// `text` shortened to about `limit` scalars at a clause boundary.
    static func clause(_ text: String, limit: Int) -> String {
        var text = text.trimmingCharacters(in: .whitespaces)
        while let last = text.last, "。.！!；;，,：:".contains(last) { text.removeLast() }
        guard scalarCount(text) > limit else { return text }
        var best: String.Index? = nil
        var count = 0
        for index in text.indices {
            count += text[index].unicodeScalars.count
            if count > limit { break }
            if "，,；;、—".contains(text[index]) { best = index }
        }
        if let best { return String(text[..<best]).trimmingCharacters(in: .whitespaces) }
        let prefix = String(text.unicodeScalars.prefix(limit))
        // Latin text: cut at the last space rather than inside a word.
        if let space = prefix.lastIndex(of: " "), prefix.distance(from: prefix.startIndex, to: space) > limit / 2 {
            return String(prefix[..<space]) + "…"
        }
        return prefix.trimmingCharacters(in: .whitespaces) + "…"
    }

    static let urlPattern = try! NSRegularExpression(pattern: #"https?://[^\s<>()\[\]「」『』【】（）、，。]+"#)

    static func urls(in text: String) -> [String] {
        urlPattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range, in: text).map { String(text[$0]).trimmingCharacters(in: CharacterSet(charactersIn: ".,;:")) }
        }
    }
}

/// Words that mark a heading as the implementation that came before the attempts ("what we
/// did before"): the importer numbers such a section attempt 0. These are the importer's own
/// cues, not structure words, so they are not part of the parser's vocabulary.
enum ImportCues {
    static let earlierImplementation: [String: [String]] = [
        "zh": ["之前", "以前", "原来", "原先", "早期", "旧的", "旧方案", "原有"],
        "ko": ["기존", "이전", "예전", "원래"],
        "ja": ["以前", "従来", "元の", "旧", "これまで", "当初"],
        "en": ["previously", "earlier", "original", "before", "old approach", "initial implementation", "how it used to work"],
    ]

    /// Headings of blog-style write-ups that carry the author's solution after the problem
    /// (`使い方`, `実装`): drafted as the fix.
    static let implementation: [String: [String]] = [
        "zh": ["实现方式", "实现方法", "实现", "用法", "使用方法", "使用方式", "做法"],
        "ko": ["구현 방법", "구현", "사용법", "사용 방법", "적용 방법"],
        "ja": ["実装方法", "実装", "使い方", "使用方法", "作り方"],
        "en": ["implementation", "usage", "how to use", "how it works", "the code"],
    ]

    /// Words that open a paragraph saying the code just shown did not fit (`だが、この方法は…`):
    /// with that code, drafted as an attempt.
    static let contrast: [String: [String]] = [
        "zh": ["但是", "可是", "不过", "然而", "但"],
        "ko": ["하지만", "그런데", "그러나", "다만"],
        "ja": ["だが", "しかし", "ところが", "けれど", "ただ、", "でも"],
        "en": ["however", "but", "unfortunately", "the problem is"],
    ]

    /// What the drafted attempt is called: the way the write-up shows first.
    static let commonWay: [String: String] = [
        "zh": "常见的做法", "ko": "흔히 쓰는 방법", "ja": "よく紹介される方法", "en": "The commonly recommended way",
    ]

    static func isImplementationHeading(_ heading: String, lang: String) -> Bool {
        let lowered = heading.lowercased().trimmingCharacters(in: .whitespaces)
        return (implementation[String(lang.prefix(2))] ?? []).contains { lowered == $0 || lowered.hasPrefix($0 + " ") || lowered.hasPrefix($0 + "：") }
    }

    /// The contrast word a paragraph opens with, if any.
    static func contrastWord(_ paragraph: String, lang: String) -> String? {
        let lowered = paragraph.lowercased()
        return (contrast[String(lang.prefix(2))] ?? []).first { cue in
            guard lowered.hasPrefix(cue) else { return false }
            guard cue.unicodeScalars.first!.isASCII else { return true }
            // English cues are whole words.
            let after = lowered.dropFirst(cue.count).first
            return !(after?.isLetter ?? false)
        }
    }

    static func isEarlierImplementation(_ heading: String, lang: String) -> Bool {
        let key = String(lang.prefix(2))
        let lowered = heading.lowercased()
        return (earlierImplementation[key] ?? []).contains { cue in
            guard let range = lowered.range(of: cue) else { return false }
            guard cue.unicodeScalars.first!.isASCII else { return true }
            // English cues are whole words.
            let before = range.lowerBound == lowered.startIndex ? nil : lowered[lowered.index(before: range.lowerBound)]
            let after = range.upperBound == lowered.endIndex ? nil : lowered[range.upperBound]
            return !(before?.isLetter ?? false) && !(after?.isLetter ?? false)
        }
    }
}

extension Vocabulary {
    /// The vocabulary of a language tag (`zh-Hans` → Chinese).
    static func forLanguage(_ lang: String) -> Vocabulary {
        let key = String(lang.prefix(2))
        return all.first { $0.language == key } ?? .english
    }

    /// The word the importer writes for a section it adds (the shortest one: `参考`, `참고`).
    func headingWord(_ kind: SectionKind) -> String {
        let words = sections[kind] ?? []
        if language == "en" { return words.first ?? kind.rawValue }
        return words.min { $0.unicodeScalars.count < $1.unicodeScalars.count } ?? kind.rawValue
    }

    /// The colon the language writes after a label.
    var colon: String { language == "zh" || language == "ja" ? "：" : ":" }
}
