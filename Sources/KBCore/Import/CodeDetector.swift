import Foundation

/// Decides whether a line of a pasted write-up is source code (Swift, Objective-C, shell, JSON)
/// and which language a run of code lines is in. Pasted text has lost its fences, so this works
/// from the shape of each line: keywords, braces, leading-dot modifiers, comments, prompts.
public enum CodeDetector {
    /// How a single line looks on its own.
    public enum Signal: Equatable, Sendable {
        /// Looks like code by itself (a declaration, a modifier, a brace, a comment, a prompt).
        case code
        /// Prose: CJK text outside comments and strings, a bullet, or an English sentence.
        case prose
        /// Could be either (an indented identifier list, `backgroundStyle: Foo,`): code only
        /// when it continues a run of code.
        case neutral
    }

    private static func regex(_ pattern: String) -> NSRegularExpression {
        try! NSRegularExpression(pattern: pattern)
    }

    static let declaration = regex(#"^(@[A-Za-z]\w*(\([^)]*\))?\s+)*((public|private|fileprivate|internal|open|final|static|class|override|mutating|nonmutating|nonisolated|lazy|weak|unowned|required|convenience|dynamic|indirect)\s+)*(func\s+[A-Za-z_]\w*\s*[(<]|(let|var)\s+[A-Za-z_]\w*\s*(:\s*[A-Za-z_(\[]|=)|(let|var)\s+\(|(let|var)\s+[A-Za-z_]\w*\s*$|(class|struct|enum|protocol|extension|actor)\s+[A-Z]\w*(\.\w+)*\s*([:{<]|where\b|$)|typealias\s+\w+\s*=|(convenience\s+)?init[?!]?\s*[(<]|deinit\s*\{|case\s+\.?[A-Za-z_]\w*.*:\s*$|default\s*:\s*$)"#)
    static let controlFlow = regex(#"^(\}\s*)?(guard|if|else|while|for|switch|repeat|do|catch|defer)\b.*\{|^guard\s.+\belse\b|^(return|throw|break|continue|fallthrough)(\s+[^\s]+)?$|^(return|throw)\s+\S.*[)\]}]$"#)
    static let attribute = regex(#"^@(objc|MainActor|State|StateObject|ObservedObject|Published|Environment|EnvironmentObject|Binding|available|ViewBuilder|escaping|discardableResult|testable|main|Observable|Bindable|Query|Model|unknown|frozen|inlinable|usableFromInline|propertyWrapper|resultBuilder|dynamicMemberLookup|IBOutlet|IBAction|IBDesignable|IBInspectable|NSManaged|autoclosure|Sendable|preconcurrency|retroactive)\b"#)
    static let importLine = regex(#"^(import\s+(class\s+|struct\s+|func\s+)?[A-Z_]\w*(\.\w+)*\s*;?\s*$|@import\s+\w+|#import\s*[<"]|#include\s*[<"]|#if\b|#else\b|#elseif\b|#endif\b|#available\s*\(|#Preview\b|#selector\s*\()"#)
    static let modifier = regex(#"^\.[a-z_]\w*(\s*\(|\s*\{|\s*$|\s*=)"#)
    static let brace = regex(#"^[}\])]|[{(\[]\s*$"#)
    static let assignment = regex(#"^[A-Za-z_]\w*(\??\.[A-Za-z_]\w*|\[[^\]]*\]|\([^)]*\))*\s*([-+*/|&]?=)\s*\S"#)
    static let call = regex(#"^(try\s+|await\s+|try\?\s+|try!\s+)*[A-Za-z_]\w*(\??\.[A-Za-z_]\w*)*(\([^)]*\)|\s*\{)"#)
    static let objcMethod = regex(#"^[-+]\s*\([A-Za-z_][\w\s*<>]*\)\s*\w|^@(interface|implementation|end|property|protocol|synthesize|dynamic|class)\b|^\[+[A-Za-z_][\w.]*\s+[A-Za-z_]\w*.*\]\s*;\s*$"#)
    static let shellPrompt = regex(#"^(\$|%|❯|➜)\s+\S"#)
    static let shellCommand = regex(#"^(sudo\s+)?(swift|swiftc|xcodebuild|xcrun|xcode-select|brew|git|pod|carthage|npm|npx|yarn|make|cd|ls|cat|echo|export|rm|mkdir|cp|mv|defaults|killall|apt|apt-get|curl|wget|chmod|chown|open|plutil|security|codesign|simctl|docker|ssh|scp|tail|grep|find|sed|awk)\s+\S"#)
    static let jsonLine = regex(#"^"[^"]*"\s*:\s*(\{|\[|"|-?\d|true\b|false\b|null\b)|^[{\[]\s*$|^[}\]],?\s*$"#)
    static let sentence = regex(#"[A-Za-z]+ [a-z]+ [a-z]+ [a-z]+.*[.!?]$|^[A-Z][a-z]+ [a-z]+ [a-z]+ [a-z]+"#)

    static func matches(_ regex: NSRegularExpression, _ text: String) -> Bool {
        regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    static let bulletMarkers: Set<Character> = ["•", "·", "・", "◦", "‣", "▪", "●", "○", "■", "□", "※", "→", "⁃"]
    /// A chat timestamp (`[10:42]`, `10:42 AM`) starts a message, never code.
    static let chatTimestamp = regex(#"^\[?\d{1,2}:\d{2}(:\d{2})?\s*([AaPp][Mm])?\]?\s"#)

    /// Whether the (trimmed) line starts with a list bullet of pasted text (`• `, `- `, `* `).
    static func isBullet(_ trimmed: String) -> Bool {
        guard let first = trimmed.first else { return false }
        if bulletMarkers.contains(first) { return true }
        if first == "-" || first == "*" || first == "+" {
            let rest = trimmed.dropFirst()
            return rest.first == " " && !(first != "*" && matches(objcMethod, trimmed))
        }
        return false
    }

    /// The line with string literals and a trailing `//` comment removed, for the CJK test.
    static func codePart(_ line: String) -> String {
        var out = ""
        var inString = false
        var previous: Character = " "
        var iterator = line.makeIterator()
        while let c = iterator.next() {
            if inString {
                if c == "\"" && previous != "\\" { inString = false }
                previous = c
                continue
            }
            if c == "\"" { inString = true; previous = c; continue }
            if c == "/" && previous == "/" {
                out.removeLast()
                return out
            }
            out.append(c)
            previous = c
        }
        return out
    }

    static func hasCJK(_ text: String) -> Bool {
        text.unicodeScalars.contains { CJKCharacter.isLetter($0) }
    }

    public static func isComment(_ trimmed: String) -> Bool {
        trimmed.hasPrefix("//") || trimmed.hasPrefix("/*") || trimmed.hasPrefix("*/") || trimmed == "*"
    }

    /// Classifies one line on its own.
    public static func signal(_ line: String) -> Signal {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return .neutral }
        if isComment(trimmed) { return .code }
        if bulletMarkers.contains(trimmed.first!) || matches(chatTimestamp, trimmed) { return .prose }
        if hasCJK(codePart(trimmed)) { return .prose }
        if matches(shellPrompt, trimmed) { return .code }
        if matches(importLine, trimmed) || matches(attribute, trimmed) || matches(objcMethod, trimmed) { return .code }
        if isBullet(trimmed) { return .prose }
        let endsLikeSentence = matches(sentence, trimmed) && !trimmed.hasSuffix("{") && !trimmed.hasSuffix(";")
        if matches(declaration, trimmed) || matches(modifier, trimmed) { return endsLikeSentence ? .prose : .code }
        if matches(controlFlow, trimmed) { return endsLikeSentence ? .prose : .code }
        if matches(jsonLine, trimmed) { return .code }
        if matches(brace, trimmed) { return endsLikeSentence ? .prose : .code }
        if matches(assignment, trimmed) || matches(call, trimmed) {
            if endsLikeSentence || trimmed.hasSuffix(".") || trimmed.hasSuffix("。") { return .prose }
            // `configureWithTransparentBackground()` alone or `foo.bar(x)`: code-like enough.
            return .code
        }
        if matches(shellCommand, trimmed), !endsLikeSentence, !trimmed.hasSuffix("."),
           trimmed.contains(" -") || trimmed.contains("/") || trimmed.contains("|") || trimmed.contains("&&") || trimmed.contains("=") || trimmed.contains("~") {
            return .code
        }
        if trimmed.hasSuffix(";") && (trimmed.contains("(") || trimmed.contains("=")) && !endsLikeSentence { return .code }
        // Lines made of identifiers and code punctuation only (`image: UIImage?,`) can continue code.
        if !trimmed.contains(" ") || trimmed.hasSuffix(",") || trimmed.hasPrefix("\"") || line.hasPrefix("    ") || line.hasPrefix("\t") {
            return endsLikeSentence ? .prose : .neutral
        }
        return .prose
    }

    /// Net change of bracket depth over the line, ignoring strings and comments.
    static func depthChange(_ line: String) -> Int {
        var depth = 0
        for c in codePart(line) {
            switch c {
            case "{", "(", "[": depth += 1
            case "}", ")", "]": depth -= 1
            default: break
            }
        }
        return depth
    }

    /// The fence language for a run of code lines: `swift`, `objc`, `sh`, `json`, or `text`.
    public static func language(of lines: [String]) -> String {
        let trimmed = lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        // A file-name comment (`// Foo.swift`) names the language.
        if let first = trimmed.first, first.hasPrefix("//") {
            let name = first.dropFirst(2).trimmingCharacters(in: .whitespaces)
            if !name.contains(" ") {
                for (suffix, language) in [(".swift", "swift"), (".m", "objc"), (".mm", "objc"), (".h", "objc"),
                                           (".sh", "sh"), (".json", "json")] where name.hasSuffix(suffix) {
                    return language
                }
                if let dot = name.lastIndex(of: "."), name.index(after: dot) < name.endIndex,
                   name[name.index(after: dot)...].allSatisfy({ $0.isLetter }), !name.hasSuffix("..") {
                    return "text"
                }
            }
        }
        let body = trimmed.filter { !isComment($0) }
        if body.isEmpty { return "text" }
        let prompts = body.filter { matches(shellPrompt, $0) || matches(shellCommand, $0) }.count
        if prompts * 2 >= body.count || matches(shellPrompt, body[0]) { return "sh" }
        if let first = body.first, first.hasPrefix("{") || first.hasPrefix("["),
           body.contains(where: { $0.hasPrefix("\"") }), !body.contains(where: { matches(declaration, $0) }) {
            return "json"
        }
        let objc = body.filter { matches(objcMethod, $0) || $0.hasSuffix(";") || $0.contains("[[") || $0.contains("NSString *") || $0.hasPrefix("#import") }.count
        let swift = body.filter { matches(declaration, $0) || matches(modifier, $0) || matches(controlFlow, $0) || matches(attribute, $0)
            || $0.contains("?.") || $0.contains("->") || $0.hasPrefix("import ") }.count
        if objc > swift { return "objc" }
        if swift > 0 { return "swift" }
        if body.allSatisfy({ matches(jsonLine, $0) || $0.hasPrefix("\"") }) { return "json" }
        if body.contains(where: { matches(call, $0) || matches(assignment, $0) || matches(brace, $0) }) { return "swift" }
        return "text"
    }
}
