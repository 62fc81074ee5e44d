import CCmark
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Parses CommonMark with cmark and converts the C tree into `MarkdownNode` values
/// in one pass; every C object is freed before `parse` returns.
public struct MarkdownParser: Sendable {
    public struct Options: Sendable {
        /// Render top-level blocks (and the items of top-level lists) to HTML.
        public var renderHTML: Bool = false
        /// Keep raw HTML in rendered output. Off by default: raw HTML is replaced by a comment
        /// and links with `javascript:`-like schemes are dropped.
        public var unsafeHTML: Bool = false
        /// Drop soft line breaks between two Han/Kana characters or CJK punctuation, where a
        /// browser would otherwise show a space.
        public var joinCJKSoftBreaks: Bool = true

        public init(renderHTML: Bool = false, unsafeHTML: Bool = false, joinCJKSoftBreaks: Bool = true) {
            self.renderHTML = renderHTML
            self.unsafeHTML = unsafeHTML
            self.joinCJKSoftBreaks = joinCJKSoftBreaks
        }
    }

    public var options: Options

    public init(options: Options = Options()) {
        self.options = options
    }

    /// Parses `source`. `firstLine` is the file line of the first line of `source`
    /// (front matter comes before the body), so every range points into the file.
    public func parse(_ source: SourceText, byteRange: Range<Int>? = nil, firstLine: Int = 1) -> MarkdownDocument {
        parse(source, text: nil, byteRange: byteRange, firstLine: firstLine)
    }

    /// `parse(_:byteRange:firstLine:)` for a source already known to be valid UTF-8, given as
    /// `text` (the same bytes as a string): cmark need not check the UTF-8 again, and literals
    /// that are the source's own bytes are copied out of `text` instead of being checked.
    func parse(_ source: SourceText, text: String?, byteRange: Range<Int>? = nil, firstLine: Int = 1) -> MarkdownDocument {
        let range = byteRange ?? 0..<source.bytes.count
        let parseOptions = text == nil ? CMARK_OPT_SOURCEPOS | CMARK_OPT_VALIDATE_UTF8 : CMARK_OPT_SOURCEPOS
        // cmark allocates from the thread's arena; the tree (and all HTML rendered from it) is
        // released in one go when the document has been converted.
        return CmarkArena.withDocument { memory in
            let parser = cmark_parser_new_with_mem(parseOptions, memory)
            source.bytes.withUnsafeBufferPointer { buffer in
                buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { base in
                    cmark_parser_feed(parser, base + range.lowerBound, range.count)
                }
            }
            let root = cmark_parser_finish(parser)
            cmark_parser_free(parser)
            guard let root else {
                let start = SourceLocation(line: firstLine, column: 1)
                return MarkdownDocument(blocks: [], range: SourceRange(start: start, end: start))
            }
            if options.renderHTML && options.joinCJKSoftBreaks {
                CJKSoftBreaks.remove(in: root)
            }
            // cmark writes only the source's own bytes, ASCII markup and entities it decoded into its
            // HTML, and only numeric references (`&#xFFFF;`) can come out ill-formed: a checked
            // source without `&#` gives well-formed HTML, which is then not checked again.
            let htmlIsWellFormed = text != nil && !source.bytes.withUnsafeBufferPointer { buffer in
                ByteSearch.contains(Self.numericReference, in: UnsafeBufferPointer(rebasing: buffer[range]))
            }
            var converter = Converter(source: source, text: text, lineOffset: firstLine - 1, options: options,
                                      htmlIsWellFormed: htmlIsWellFormed)
            let document = converter.convert(root, parentRange: nil, render: false, depth: 0)
            return MarkdownDocument(blocks: document.children, range: document.range)
        }
    }

    /// `&#`, the start of a numeric character reference.
    static let numericReference: [UInt8] = [0x26, 0x23]

    /// Renders a whole Markdown string to HTML with cmark (safe unless `unsafe`).
    public static func renderHTML(_ markdown: String, unsafe: Bool = false, joinCJKSoftBreaks: Bool = true) -> String {
        var bytes = Array(markdown.utf8)
        let count = bytes.count
        return bytes.withUnsafeMutableBufferPointer { buffer -> String in
            let root = buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: max(count, 1)) {
                cmark_parse_document($0, count, CMARK_OPT_VALIDATE_UTF8)
            }
            guard let root else { return "" }
            defer { cmark_node_free(root) }
            if joinCJKSoftBreaks { CJKSoftBreaks.remove(in: root) }
            return Converter.render(root, unsafe: unsafe)
        }
    }
}

private struct Converter {
    let source: SourceText
    /// The source as a string, when it is known to be valid UTF-8.
    let text: String?
    let lineOffset: Int
    let options: MarkdownParser.Options

    /// cmark's HTML of this document is known to be well-formed UTF-8 (see `parse`).
    let htmlIsWellFormed: Bool

    init(source: SourceText, text: String?, lineOffset: Int, options: MarkdownParser.Options, htmlIsWellFormed: Bool = false) {
        self.source = source
        self.text = text
        self.lineOffset = lineOffset
        self.options = options
        self.htmlIsWellFormed = htmlIsWellFormed
    }

    /// cmark's HTML for `node`. `inArena`: the tree was allocated from `CmarkArena`, which
    /// also holds (and releases) the rendered string. `wellFormed`: the HTML is known to be
    /// well-formed UTF-8 and is copied without a check.
    static func render(_ node: OpaquePointer, unsafe: Bool, inArena: Bool = false, wellFormed: Bool = false) -> String {
        guard let cString = cmark_render_html(node, unsafe ? CMARK_OPT_UNSAFE : CMARK_OPT_DEFAULT) else { return "" }
        defer { if !inArena { free(cString) } }
        let length = strlen(cString)
        if wellFormed {
            return UTF8Scan.uncheckedString(UnsafeBufferPointer(start: UnsafeRawPointer(cString).assumingMemoryBound(to: UInt8.self), count: length))
        }
        // cmark's HTML is not always well-formed (it writes `&#xFFFF;` as the byte FF); such HTML is repaired.
        return UTF8Scan.string(cString: cString, length: length)
    }

    /// Nodes nested deeper than this (lists in lists in quotes …) are not converted one by one:
    /// the node at this depth keeps the plain text of its subtree as one text child. Conversion,
    /// walks and freeing of `MarkdownNode` trees are recursive, so this bounds the stack however
    /// deeply a hostile file nests; cmark's own HTML (rendered iteratively) is not affected.
    static let maximumDepth = 48

    /// Converts `node` and its subtree. `render`: also keep cmark's HTML for this block.
    mutating func convert(_ node: OpaquePointer, parentRange: SourceRange?, render: Bool, depth: Int) -> MarkdownNode {
        let type = cmark_node_get_type(node)
        let kind = Self.kind(of: node, type: type)
        let range = self.range(of: node) ?? parentRange
            ?? SourceRange(start: .init(line: lineOffset + 1, column: 1), end: .init(line: lineOffset + 1, column: 1))
        var literal = ""
        switch type {
        case CMARK_NODE_TEXT, CMARK_NODE_CODE, CMARK_NODE_CODE_BLOCK, CMARK_NODE_HTML_BLOCK, CMARK_NODE_HTML_INLINE:
            if let cString = cmark_node_get_literal(node) { literal = self.literal(cString, of: node, type: type) }
        default:
            break
        }
        // The document's blocks are rendered, and so are the items of a rendered list:
        // labelled list items become records of their own.
        let renderChildren: Bool
        switch type {
        case CMARK_NODE_DOCUMENT: renderChildren = options.renderHTML
        case CMARK_NODE_LIST: renderChildren = render
        default: renderChildren = false
        }
        var children: [MarkdownNode] = []
        if depth >= Self.maximumDepth {
            if cmark_node_first_child(node) != nil {
                children.append(MarkdownNode(kind: .text, literal: Self.plainText(of: node), range: range))
            }
        } else if let first = cmark_node_first_child(node) {
            var count = 1
            var child = cmark_node_next(first)
            while let current = child {
                count += 1
                child = cmark_node_next(current)
            }
            children.reserveCapacity(count)
            child = first
            while let current = child {
                children.append(convert(current, parentRange: range, render: renderChildren, depth: depth + 1))
                child = cmark_node_next(current)
            }
        }
        let html = render ? Self.render(node, unsafe: options.unsafeHTML, inArena: true, wellFormed: htmlIsWellFormed) : nil
        return MarkdownNode(kind: kind, literal: literal, children: children, range: range, html: html)
    }

    /// A node's literal as a string. Most literals are the source's own bytes where the node
    /// starts (a line of text, a code span, the lines of a fenced code block); when they are and
    /// the source is known to be valid, they are copied out of `text` without checking their
    /// UTF-8 again. Anything else (escapes, entities, indentation removed) is read from cmark,
    /// checked, and repaired when cmark wrote ill-formed UTF-8 (`&#xFFFF;` becomes the byte FF).
    func literal(_ cString: UnsafePointer<CChar>, of node: OpaquePointer, type: cmark_node_type) -> String {
        let length = strlen(cString)
        guard text != nil, length > 0 else { return UTF8Scan.string(cString: cString, length: length) }
        let startLine = Int(cmark_node_get_start_line(node))
        guard startLine > 0 else { return UTF8Scan.string(cString: cString, length: length) }
        // A fenced code block's lines start on the line after its fence (an indented block's
        // literal does not match there, and is read from cmark).
        let line = startLine + lineOffset + (type == CMARK_NODE_CODE_BLOCK ? 1 : 0)
        guard line <= source.lineCount else { return UTF8Scan.string(cString: cString, length: length) }
        let column = type == CMARK_NODE_CODE_BLOCK ? 1 : Int(cmark_node_get_start_column(node))
        let start = source.lineStarts[line - 1] + max(column, 1) - 1
        let end = start + length
        // The same bytes, starting and ending on scalar boundaries of the (valid) source: a copy
        // of them needs no check.
        let copy: String? = end <= source.bytes.count ? source.bytes.withUnsafeBufferPointer { bytes in
            guard !UTF8Scan.isContinuation(bytes[start]), end == bytes.count || !UTF8Scan.isContinuation(bytes[end]),
                  memcmp(bytes.baseAddress! + start, cString, length) == 0 else { return nil }
            return UTF8Scan.uncheckedString(UnsafeBufferPointer(rebasing: bytes[start..<end]))
        } : nil
        return copy ?? UTF8Scan.string(cString: cString, length: length)
    }

    /// The text of `node`'s descendants (literals joined, breaks as spaces), walked with cmark's
    /// iterator rather than recursion.
    static func plainText(of node: OpaquePointer) -> String {
        guard let iterator = cmark_iter_new(node) else { return "" }
        defer { cmark_iter_free(iterator) }
        var text = ""
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard event == CMARK_EVENT_ENTER, let current = cmark_iter_get_node(iterator), current != node else { continue }
            switch cmark_node_get_type(current) {
            case CMARK_NODE_TEXT, CMARK_NODE_CODE, CMARK_NODE_CODE_BLOCK:
                if let literal = cmark_node_get_literal(current) { text += String(cString: literal) }
            case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK:
                text += " "
            case CMARK_NODE_PARAGRAPH, CMARK_NODE_HEADING, CMARK_NODE_ITEM:
                if !text.isEmpty && !text.hasSuffix(" ") { text += " " }
            default:
                break
            }
        }
        return text
    }

    static func isBlock(_ type: cmark_node_type) -> Bool {
        type.rawValue >= CMARK_NODE_FIRST_BLOCK.rawValue && type.rawValue <= CMARK_NODE_LAST_BLOCK.rawValue
    }

    /// Where the last start and end columns were counted (see `SourceText.ColumnCursor`).
    private var startCursor = SourceText.ColumnCursor(), endCursor = SourceText.ColumnCursor()

    mutating func range(of node: OpaquePointer) -> SourceRange? {
        let startLine = Int(cmark_node_get_start_line(node))
        guard startLine > 0 else { return nil }
        let startColumn = Int(cmark_node_get_start_column(node))
        var endLine = Int(cmark_node_get_end_line(node))
        var endColumn = Int(cmark_node_get_end_column(node))
        if endLine < startLine { endLine = startLine; endColumn = startColumn }
        let start = SourceLocation(line: startLine + lineOffset,
                                   column: source.scalarColumn(line: startLine + lineOffset, byteColumn: startColumn, cursor: &startCursor))
        let end = SourceLocation(line: endLine + lineOffset,
                                 column: source.scalarColumn(line: endLine + lineOffset, byteColumn: max(endColumn, 1), cursor: &endCursor))
        return SourceRange(start: start, end: end)
    }

    static func string(_ pointer: UnsafePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }

    static func kind(of node: OpaquePointer, type: cmark_node_type) -> MarkdownNode.Kind {
        switch type {
        case CMARK_NODE_DOCUMENT: return .document
        case CMARK_NODE_BLOCK_QUOTE: return .blockQuote
        case CMARK_NODE_LIST:
            return .list(ordered: cmark_node_get_list_type(node) == CMARK_ORDERED_LIST,
                         start: Int(cmark_node_get_list_start(node)),
                         tight: cmark_node_get_list_tight(node) != 0)
        case CMARK_NODE_ITEM: return .item
        case CMARK_NODE_CODE_BLOCK: return .codeBlock(info: string(cmark_node_get_fence_info(node)))
        case CMARK_NODE_HTML_BLOCK: return .htmlBlock
        case CMARK_NODE_PARAGRAPH: return .paragraph
        case CMARK_NODE_HEADING: return .heading(level: Int(cmark_node_get_heading_level(node)))
        case CMARK_NODE_THEMATIC_BREAK: return .thematicBreak
        case CMARK_NODE_TEXT: return .text
        case CMARK_NODE_SOFTBREAK: return .softBreak
        case CMARK_NODE_LINEBREAK: return .lineBreak
        case CMARK_NODE_CODE: return .code
        case CMARK_NODE_HTML_INLINE: return .htmlInline
        case CMARK_NODE_EMPH: return .emphasis
        case CMARK_NODE_STRONG: return .strong
        case CMARK_NODE_LINK:
            return .link(destination: string(cmark_node_get_url(node)), title: string(cmark_node_get_title(node)))
        case CMARK_NODE_IMAGE:
            return .image(source: string(cmark_node_get_url(node)), title: string(cmark_node_get_title(node)))
        default: return .custom
        }
    }
}
