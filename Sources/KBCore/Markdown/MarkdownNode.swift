/// An immutable Markdown node converted from cmark's tree.
public struct MarkdownNode: Sendable {
    public enum Kind: Sendable, Equatable {
        case document
        case blockQuote
        case list(ordered: Bool, start: Int, tight: Bool)
        case item
        case codeBlock(info: String)
        case htmlBlock
        case paragraph
        case heading(level: Int)
        case thematicBreak
        case text
        case softBreak
        case lineBreak
        case code
        case htmlInline
        case emphasis
        case strong
        case link(destination: String, title: String)
        case image(source: String, title: String)
        case custom
    }

    public let kind: Kind
    /// Text of `text`, `code`, `codeBlock`, `htmlBlock` and `htmlInline` nodes; empty otherwise.
    public let literal: String
    public let children: [MarkdownNode]
    /// Where the node is in the source file. Inline nodes, for which cmark keeps no
    /// positions, carry the range of their enclosing block.
    public let range: SourceRange
    /// HTML rendered by cmark, for the blocks the parser was asked to render (top-level
    /// blocks and the items of top-level lists); `nil` otherwise.
    public let html: String?

    public init(kind: Kind, literal: String = "", children: [MarkdownNode] = [], range: SourceRange, html: String? = nil) {
        self.kind = kind
        self.literal = literal
        self.children = children
        self.range = range
        self.html = html
    }

    public var isBlock: Bool {
        switch kind {
        case .document, .blockQuote, .list, .item, .codeBlock, .htmlBlock, .paragraph, .heading, .thematicBreak:
            return true
        default:
            return false
        }
    }

    /// Whether the node is an HTML block of comments only (`<!-- … -->`, one or more, with
    /// white space between): a note to whoever edits the file, not content.
    public var isHTMLComment: Bool {
        guard kind == .htmlBlock else { return false }
        var rest = Substring(literal)
        while true {
            rest = rest.drop { $0.isWhitespace }
            if rest.isEmpty { return true }
            guard rest.hasPrefix("<!--"), let end = rest.range(of: "-->", range: rest.index(rest.startIndex, offsetBy: 4)..<rest.endIndex) else {
                return false
            }
            rest = rest[end.upperBound...]
        }
    }

    /// The node's text without markup: inline text, code spans and code blocks, with
    /// line breaks as newlines and blocks separated by newlines.
    public var plainText: String {
        switch kind {
        case .text, .code, .codeBlock, .htmlBlock:
            return literal
        case .softBreak, .lineBreak:
            return "\n"
        case .htmlInline:
            return ""
        default:
            // One child adds no separator: its text is the node's (most paragraphs, headings, items).
            if children.count == 1 { return children[0].plainText }
            var out = ""
            appendPlainText(to: &out)
            return out
        }
    }

    func appendPlainText(to out: inout String) {
        switch kind {
        case .text, .code:
            out += literal
        case .codeBlock, .htmlBlock:
            out += literal
        case .softBreak, .lineBreak:
            out += "\n"
        case .htmlInline:
            break
        default:
            // By index: the children are read in place, not copied.
            if isBlock && kind != .document {
                for index in children.indices {
                    if index > 0 && children[index].isBlock { out += "\n" }
                    children[index].appendPlainText(to: &out)
                }
            } else {
                for index in children.indices { children[index].appendPlainText(to: &out) }
            }
        }
    }

    /// Visits this node and its descendants depth first.
    public func walk(_ visit: (MarkdownNode) -> Void) {
        visit(self)
        for child in children { child.walk(visit) }
    }
}

/// A parsed Markdown document: its top-level blocks.
public struct MarkdownDocument: Sendable {
    public let blocks: [MarkdownNode]
    public let range: SourceRange
}
