/// A fenced or indented code block.
public struct CodeBlock: Sendable, Codable, Equatable {
    /// The first word of the info string (`swift`, `sh`, `markdown`), or empty.
    public let language: String
    public let code: String
    public let range: SourceRange
}

/// What a block of an attempt says.
public enum PartRole: String, Sendable, Codable {
    case idea, code, result, failure, cause, detail
}

/// One block of an attempt, with the role its label or sub-heading gave it.
public struct AttemptPart: Sendable {
    public let role: PartRole
    /// The block (a paragraph, list item, code block, …) as parsed.
    public let block: MarkdownNode
    /// The block's text with its label removed.
    public let text: String
}

/// A numbered attempt: what was tried, how it ended and why. Its records live in one shared,
/// immutable object, so copying an attempt costs one reference count.
public struct Attempt: Sendable {
    private final class Storage: Sendable {
        let number: AttemptNumber
        let title: String
        let heading: String
        let outcome: Outcome
        let outcomeWord: String?
        let parts: [AttemptPart]
        let range: SourceRange
        let headingBlock: MarkdownNode

        init(number: AttemptNumber, title: String, heading: String, outcome: Outcome, outcomeWord: String?,
             parts: [AttemptPart], range: SourceRange, headingBlock: MarkdownNode) {
            self.number = number
            self.title = title
            self.heading = heading
            self.outcome = outcome
            self.outcomeWord = outcomeWord
            self.parts = parts
            self.range = range
            self.headingBlock = headingBlock
        }
    }

    private let storage: Storage

    init(number: AttemptNumber, title: String, heading: String, outcome: Outcome, outcomeWord: String?,
         parts: [AttemptPart], range: SourceRange, headingBlock: MarkdownNode) {
        storage = Storage(number: number, title: title, heading: heading, outcome: outcome, outcomeWord: outcomeWord,
                          parts: parts, range: range, headingBlock: headingBlock)
    }

    public var number: AttemptNumber { storage.number }
    /// The heading after the number: `只用 toolbarColorScheme`.
    public var title: String { storage.title }
    /// The heading as written: `方案 1：只用 toolbarColorScheme`.
    public var heading: String { storage.heading }
    public var outcome: Outcome { storage.outcome }
    /// The outcome word as written (`失败`), when there is one.
    public var outcomeWord: String? { storage.outcomeWord }
    public var parts: [AttemptPart] { storage.parts }
    public var range: SourceRange { storage.range }
    /// The attempt's heading block.
    public var headingBlock: MarkdownNode { storage.headingBlock }
    public var headingRange: SourceRange { headingBlock.range }

    /// The attempt's link target: `attempt-4-1`.
    public var anchor: RecordAnchor { .attempt(number) }

    public func text(_ role: PartRole) -> String {
        parts.filter { $0.role == role && !$0.text.isEmpty }.map(\.text).joined(separator: "\n")
    }

    public var idea: String { text(.idea) }
    /// The observed failure: the result text after the outcome word, and failure labels.
    public var failure: String {
        [text(.result), text(.failure)].filter { !$0.isEmpty }.joined(separator: "\n")
    }
    public var cause: String { text(.cause) }
    public var details: String { text(.detail) }
    public var code: [CodeBlock] {
        parts.compactMap { part in
            guard case .codeBlock(let info) = part.block.kind else { return nil }
            return CodeBlock(language: CodeBlockLanguage.from(info: info), code: part.block.literal, range: part.block.range)
        }
    }
}

/// A recognised section of the body: problem, fix, side effects, lessons, references, or
/// an unrecognised one (kept in notes).
public struct Section: Sendable {
    public let kind: SectionKind
    /// The heading block, or nil for text before the first heading.
    public let headingBlock: MarkdownNode?
    /// Blocks under the heading, sub-headings included.
    public let blocks: [MarkdownNode]

    public var heading: String? { headingBlock?.plainText }
    public var headingRange: SourceRange? { headingBlock?.range }

    /// The blocks' plain texts, one after another with a newline between them.
    public var text: String {
        if blocks.count == 1 { return blocks[0].plainText }
        var out = ""
        for index in blocks.indices {
            if index > 0 { out += "\n" }
            blocks[index].appendPlainText(to: &out)
        }
        return out
    }

    public var range: SourceRange? {
        let starts = ([headingRange?.start] + blocks.map { $0.range.start }).compactMap { $0 }
        let ends = ([headingRange?.end] + blocks.map { $0.range.end }).compactMap { $0 }
        guard let start = starts.min(), let end = ends.max() else { return nil }
        return SourceRange(start: start, end: end)
    }

    public var code: [CodeBlock] {
        var result: [CodeBlock] = []
        for block in blocks {
            block.walk { node in
                if case .codeBlock(let info) = node.kind {
                    result.append(CodeBlock(language: CodeBlockLanguage.from(info: info), code: node.literal, range: node.range))
                }
            }
        }
        return result
    }

    /// The texts of list items at the top of the section (lessons, steps).
    public var listItems: [String] {
        blocks.flatMap { block -> [String] in
            if case .list = block.kind { return block.children.map(\.plainText) }
            if block.kind == .item { return [block.plainText] }
            return []
        }
    }

    /// Links in the section, in order.
    public var links: [Reference] {
        var result: [Reference] = []
        for block in blocks {
            block.walk { node in
                if case .link(let destination, _) = node.kind {
                    result.append(Reference(title: node.plainText, url: destination, location: node.range.start))
                }
            }
        }
        return result
    }
}

/// A link to a document that backs the entry.
public struct Reference: Sendable, Codable, Equatable {
    public let title: String
    public let url: String
    public let location: SourceLocation
}

enum CodeBlockLanguage {
    static func from(info: String) -> String {
        String(info.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "{" }).first ?? "")
    }
}
