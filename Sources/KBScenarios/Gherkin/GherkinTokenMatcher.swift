import Foundation
import KBCore

/// Decides what kind of line a token is, in the current dialect. Holds the
/// little state the grammar needs between lines: the dialect (changed by a
/// `# language:` header) and the open doc string's delimiter and indentation.
struct GherkinTokenMatcher: Sendable {
    private struct Keyword: Sendable {
        let text: String
        let scalars: [Unicode.Scalar]
        let type: Gherkin.StepKeywordType
    }

    private let dialects: GherkinDialects
    private(set) var dialect: GherkinDialect
    private var stepKeywords: [Keyword] = []
    private var activeDocStringSeparator: [Unicode.Scalar]?
    private var indentToRemove = 0

    private static let docStringSeparators: [[Unicode.Scalar]] = [Array(#"""""#.unicodeScalars), Array("```".unicodeScalars)]
    /// Title keywords end with `:`, or with a full-width `：` as CJK text is often typed.
    private static let titleColons: [Unicode.Scalar] = [":", "："]

    init(dialects: GherkinDialects) {
        self.dialects = dialects
        let initial = dialects[dialects.defaultLanguage] ?? GherkinDialects.builtIn["en"]!
        self.dialect = initial
        self.stepKeywords = GherkinTokenMatcher.keywords(of: initial)
    }

    private static func keywords(of dialect: GherkinDialect) -> [Keyword] {
        dialect.stepKeywords.map {
            Keyword(text: $0, scalars: Array($0.unicodeScalars), type: dialect.keywordType(of: $0) ?? .unknown)
        }
    }

    /// Matches `token` as `type`, or returns nil. Throws for a line that is of
    /// that type but malformed (a tag with whitespace, an unknown language).
    mutating func match(_ type: GherkinTokenType, _ token: GherkinToken) throws(GherkinError) -> GherkinMatch? {
        guard let line = token.line else {
            return type == .eof ? GherkinMatch(type: .eof, lineNumber: token.lineNumber, indent: 0, dialect: dialect.code) : nil
        }
        var result = GherkinMatch(type: type, lineNumber: line.number, indent: line.indent, dialect: dialect.code)
        switch type {
        case .eof:
            return nil
        case .empty:
            guard line.isEmpty else { return nil }
            result.indent = 0
        case .comment:
            guard line.startsWith(["#"]) else { return nil }
            result.text = line.text(removingIndent: 0)
            result.indent = 0
        case .tagLine:
            guard line.startsWith(["@"]) else { return nil }
            result.items = try line.tags()
        case .featureLine:
            return matchTitle(line, type, dialect.feature, into: result)
        case .ruleLine:
            return matchTitle(line, type, dialect.rule, into: result)
        case .backgroundLine:
            return matchTitle(line, type, dialect.background, into: result)
        case .scenarioLine:
            return matchTitle(line, type, dialect.scenario, into: result)
                ?? matchTitle(line, type, dialect.scenarioOutline, into: result)
        case .examplesLine:
            return matchTitle(line, type, dialect.examples, into: result)
        case .stepLine:
            guard let keyword = stepKeywords.first(where: { line.startsWith($0.scalars) }) else { return nil }
            result.keyword = keyword.text
            result.keywordType = keyword.type
            result.text = line.restTrimmed(after: keyword.scalars.count)
        case .docStringSeparator:
            if let active = activeDocStringSeparator {
                guard line.startsWith(active) else { return nil }
                result.keyword = GherkinLine.string(active)
                activeDocStringSeparator = nil
                indentToRemove = 0
            } else {
                guard let separator = Self.docStringSeparators.first(where: { line.startsWith($0) }) else { return nil }
                result.keyword = GherkinLine.string(separator)
                result.text = line.restTrimmed(after: separator.count)
                activeDocStringSeparator = separator
                indentToRemove = line.indent
            }
        case .tableRow:
            guard line.startsWith(["|"]) else { return nil }
            result.items = line.tableCells()
        case .language:
            guard let code = Self.languageCode(line) else { return nil }
            guard let newDialect = dialects[code] else {
                throw GherkinError(line: line.number, column: line.indent + 1, reason: "Language not supported: \(code)")
            }
            result.text = code
            dialect = newDialect
            stepKeywords = Self.keywords(of: newDialect)
            result.dialect = code
        case .other:
            var text = line.text(removingIndent: indentToRemove)
            if let active = activeDocStringSeparator {
                let delimiter = GherkinLine.string(active)
                let escaped = delimiter.unicodeScalars.map { "\\" + String($0) }.joined()
                text = text.replacingOccurrences(of: escaped, with: delimiter, options: .literal)
            }
            result.text = text
            result.indent = 0
        }
        return result
    }

    private func matchTitle(
        _ line: GherkinLine, _ type: GherkinTokenType, _ keywords: [String], into result: GherkinMatch
    ) -> GherkinMatch? {
        for keyword in keywords {
            let scalars = Array(keyword.unicodeScalars)
            guard line.startsWith(scalars) else { continue }
            let rest = line.trimmed.dropFirst(scalars.count)
            guard let colon = rest.first, Self.titleColons.contains(colon) else { continue }
            var matched = result
            matched.keyword = keyword
            matched.text = line.restTrimmed(after: scalars.count + 1)
            return matched
        }
        return nil
    }

    /// The code of a `# language: xx` line (letters, `-` and `_`), if it is one.
    private static func languageCode(_ line: GherkinLine) -> String? {
        let text = GherkinLine.string(line.trimmed)
        guard let match = text.wholeMatch(of: /\s*#\s*language\s*:\s*([a-zA-Z\-_]+)\s*/) else { return nil }
        return String(match.1)
    }
}
