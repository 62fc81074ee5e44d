import Foundation

/// Finds API names in prose and code (for `apis`), and makes an id slug from a title.
package enum IdentifierExtractor {
    /// Identifiers with optional dotted members and an optional call or signature:
    /// `UINavigationBarAppearance`, `UIColor.label`, `navigationController?.navigationBar`,
    /// `toolbarColorScheme(_:for:)`, `configureWithTransparentBackground()`.
    static let token = try! NSRegularExpression(pattern: #"(?<![\w.\-/])\.?[A-Za-z_][A-Za-z0-9_]*(\??\.[A-Za-z_][A-Za-z0-9_]*)*(\((?:[A-Za-z_]*:)*\))?"#)
    static let declared = try! NSRegularExpression(pattern: #"\b(?:func|let|var|class|struct|enum|protocol|actor|typealias|case)\s+([A-Za-z_][A-Za-z0-9_]*)"#)

    /// Product and platform names that look like identifiers but are not APIs.
    static let notAPIs: Set<String> = ["iOS", "iPadOS", "macOS", "tvOS", "watchOS", "visionOS", "iPhone", "iPad", "Xcode",
                                       "GitHub", "JavaScript", "TypeScript", "SwiftUI", "UIKit", "AppKit", "Foundation", "Combine", "PR", "UI", "API", "APIs", "URL", "OK", "WWDC", "README"]

    static func isAPIName(_ name: String) -> Bool {
        let core = name.hasPrefix(".") ? String(name.dropFirst()) : name
        let base = core.split(separator: "(").first.map(String.init) ?? core
        if notAPIs.contains(base) { return false }
        if base.contains(".") {
            // A dotted name counts when one of its parts looks like an identifier.
            return base.split(separator: ".").contains { part in isCamel(String(part.trimmingCharacters(in: CharacterSet(charactersIn: "?")))) }
        }
        // Build settings and constants: `ENABLE_USER_SCRIPT_SANDBOXING`.
        if base.count >= 6, base.contains("_"), base.allSatisfy({ $0.isUppercase || $0 == "_" || $0.isNumber }), base.first!.isLetter { return true }
        if core.hasSuffix(")") { return base.count > 2 && base.first!.isLetter && (isCamel(base) || core.contains(":")) }
        return isCamel(base)
    }

    /// `UINavigationBar`, `toolbarColorScheme`, `TodoListView`: an inner capital after a lower-case
    /// letter, or a capital prefix (`UI`, `NS`) followed by a word.
    static func isCamel(_ word: String) -> Bool {
        let scalars = Array(word.unicodeScalars)
        guard scalars.count >= 3, scalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }) else { return false }
        for i in 1..<scalars.count {
            let previous = scalars[i - 1], current = scalars[i]
            if current.properties.isUppercase && previous.properties.isLowercase { return true }
            if i >= 2, current.properties.isLowercase, previous.properties.isUppercase, scalars[i - 2].properties.isUppercase { return true }
        }
        return false
    }

    static func tokens(_ text: String) -> [String] {
        token.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            Range(match.range, in: text).map { String(text[$0]) }
        }
    }

    /// API names in order of first appearance: every identifier-like token of the prose, and
    /// of the code the leading-dot modifiers and type or member names the code does not declare itself.
    static func apis(prose: [String], code: [String], limit: Int = 40) -> [String] {
        var result: [String] = []
        var seen: Set<String> = []
        func add(_ raw: String) {
            var name = raw.hasPrefix(".") ? String(raw.dropFirst()) : raw
            while name.hasSuffix("?") { name.removeLast() }
            // `foo()` and `foo` are one API.
            let key = name.hasSuffix("()") ? String(name.dropLast(2)) : name
            guard !name.isEmpty, isAPIName(name), seen.insert(key).inserted, result.count < limit else { return }
            result.append(name)
        }
        for text in prose {
            for token in tokens(text) { add(token) }
        }
        let codeText = code.joined(separator: "\n")
        let declaredNames = Set(declared.matches(in: codeText, range: NSRange(codeText.startIndex..., in: codeText)).compactMap {
            Range($0.range(at: 1), in: codeText).map { String(codeText[$0]) }
        })
        for line in code {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("//") { continue }
            for token in tokens(CodeDetector.codePart(trimmed)) {
                let base = String(token.drop { $0 == "." }.prefix { $0 != "(" && $0 != "." && $0 != "?" })
                if declaredNames.contains(base) { continue }
                // In code only types (`UINavigationBarAppearance`) and modifiers (`.toolbarBackground`) count.
                if token.hasPrefix(".") || base.first?.isUppercase == true { add(token.hasPrefix(".") ? String(token.dropFirst().prefix { $0 != "(" }) : token) }
            }
        }
        return result
    }

    static let stopWords: Set<String> = ["the", "a", "an", "of", "to", "in", "on", "for", "with", "and", "or", "when", "is", "are",
                                         "by", "from", "at", "vs", "via"]
    static let platformWords: Set<String> = ["ios", "ipados", "macos", "tvos", "watchos", "visionos"]

    /// An id from the title's ASCII words and API names (`TodoListView 헤더 … UI` → `todo-list-view-ui`),
    /// or nil when the title has fewer than two usable words.
    package static func slug(_ title: String, maximumWords: Int = 6) -> String? {
        var words: [String] = []
        var current = ""
        func flushWord() {
            guard !current.isEmpty else { return }
            words += splitCamel(current)
            current = ""
        }
        for scalar in title.unicodeScalars {
            if scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) {
                current.unicodeScalars.append(scalar)
            } else {
                flushWord()
            }
        }
        flushWord()
        let kept = words.map { $0.lowercased() }.filter { !stopWords.contains($0) && !$0.isEmpty }
        guard kept.count >= 2 else { return nil }
        let slug = kept.prefix(maximumWords).joined(separator: "-")
        return Linter.isWellFormedID(slug) ? slug : nil
    }

    /// `TodoListView` → `Todo`, `List`, `View`; `UIColor` → `UI`, `Color`; `iOS` stays whole.
    static func splitCamel(_ word: String) -> [String] {
        if platformWords.contains(word.lowercased()) { return [word] }
        var parts: [String] = []
        var current = ""
        let scalars = Array(word.unicodeScalars)
        for (i, s) in scalars.enumerated() {
            let startsWord = i > 0 && s.properties.isUppercase
                && (scalars[i - 1].properties.isLowercase || ("0"..."9").contains(scalars[i - 1])
                    || (i + 1 < scalars.count && scalars[i + 1].properties.isLowercase && scalars[i - 1].properties.isUppercase))
            if startsWord, !current.isEmpty {
                parts.append(current)
                current = ""
            }
            current.unicodeScalars.append(s)
        }
        if !current.isEmpty { parts.append(current) }
        return parts
    }
}
