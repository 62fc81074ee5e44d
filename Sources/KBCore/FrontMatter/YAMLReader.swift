import CYaml

/// Reads one YAML document with libyaml's event parser into `YAMLNode` values.
/// Anchors and aliases are resolved by copy; tags are ignored (front matter is plain data).
public enum YAMLReader {
    /// Sequences and mappings nested deeper than this are an error: nothing in front matter
    /// needs it, and the values are walked (and freed) recursively.
    public static let maximumDepth = 64
    /// Aliases are resolved by copy; a document that expands to more nodes than this (the
    /// "billion laughs" pattern) is an error.
    public static let maximumNodes = 100_000

    /// Parses `bytes`. Lines in locations are shifted by `firstLine - 1` so they point into
    /// the file the YAML was cut from; `source` converts columns to scalar columns.
    public static func read(_ bytes: ArraySlice<UInt8>, firstLine: Int = 1) throws(YAMLError) -> YAMLNode? {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            throw YAMLError(message: "cannot initialise the YAML parser", location: .init(line: firstLine, column: 1))
        }
        defer { yaml_parser_delete(&parser) }
        return try bytes.withUnsafeBufferPointer { (raw) throws(YAMLError) -> YAMLNode? in
            yaml_parser_set_input_string(&parser, raw.baseAddress, raw.count)
            var builder = Builder(lineOffset: firstLine - 1)
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else {
                    var mark = parser.problem_mark
                    let problem = parser.problem.map { String(cString: $0) } ?? "invalid YAML"
                    var message = problem
                    if let context = parser.context.map({ String(cString: $0) }) {
                        let start = parser.context_mark
                        message = "\(problem) \(context) (which starts at line \(Int(start.line) + firstLine), column \(Int(start.column) + 1))"
                        // Running off the end is reported where the unfinished construct starts.
                        if problem.contains("end of stream") { mark = start }
                    }
                    throw YAMLError(message: message,
                                    location: SourceLocation(line: Int(mark.line) + firstLine, column: Int(mark.column) + 1))
                }
                defer { yaml_event_delete(&event) }
                if event.type == YAML_STREAM_END_EVENT { break }
                if event.type == YAML_DOCUMENT_END_EVENT, builder.root != nil { break }
                try builder.handle(event)
            }
            return builder.root
        }
    }

    private struct Builder {
        /// An open sequence or mapping: its items so far, where it starts, its anchor, and the
        /// node count when it opened (to size the anchor).
        struct Frame {
            let isMapping: Bool
            var items: [YAMLNode] = []
            var pairs: [(key: YAMLNode, value: YAMLNode)] = []
            var pendingKey: YAMLNode? = nil
            let start: SourceLocation
            let anchor: String?
            let firstNode: Int
        }
        let lineOffset: Int
        var stack: [Frame] = []
        /// Anchored nodes with the number of nodes each expands to.
        var anchors: [String: (node: YAMLNode, size: Int)] = [:]
        var root: YAMLNode?
        /// Nodes made so far, aliases counted at their expanded size.
        var nodes = 0

        mutating func count(_ size: Int, at here: SourceLocation) throws(YAMLError) {
            nodes += size
            if nodes > YAMLReader.maximumNodes {
                throw YAMLError(message: "the YAML expands to more than \(YAMLReader.maximumNodes) values (too many aliases)", location: here)
            }
        }

        mutating func open(_ frame: Frame, at here: SourceLocation) throws(YAMLError) {
            guard stack.count < YAMLReader.maximumDepth else {
                throw YAMLError(message: "the YAML is nested more than \(YAMLReader.maximumDepth) levels deep", location: here)
            }
            try count(1, at: here)
            stack.append(frame)
        }

        init(lineOffset: Int) { self.lineOffset = lineOffset }

        func location(_ mark: yaml_mark_t) -> SourceLocation {
            SourceLocation(line: Int(mark.line) + 1 + lineOffset, column: Int(mark.column) + 1)
        }

        static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
            guard let pointer else { return nil }
            return String(cString: UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self))
        }

        mutating func handle(_ event: yaml_event_t) throws(YAMLError) {
            let here = location(event.start_mark)
            switch event.type {
            case YAML_SCALAR_EVENT:
                let data = event.data.scalar
                let text = data.value.map { String(decoding: UnsafeBufferPointer(start: $0, count: Int(data.length)), as: UTF8.self) } ?? ""
                let plain = data.style == YAML_PLAIN_SCALAR_STYLE
                let value: YAMLValue = (plain && (text.isEmpty || text == "~" || text == "null" || text == "Null" || text == "NULL")) ? .null : .scalar(text, plain: plain)
                let node = YAMLNode(value: value, location: here)
                try count(1, at: here)
                if let anchor = Self.string(data.anchor) { anchors[anchor] = (node, 1) }
                add(node)
            case YAML_ALIAS_EVENT:
                let name = Self.string(event.data.alias.anchor) ?? ""
                guard let (node, size) = anchors[name] else {
                    throw YAMLError(message: "unknown alias '\(name)'", location: here)
                }
                try count(size, at: here)
                add(YAMLNode(value: node.value, location: here))
            case YAML_SEQUENCE_START_EVENT:
                try open(Frame(isMapping: false, start: here, anchor: Self.string(event.data.sequence_start.anchor), firstNode: nodes), at: here)
            case YAML_MAPPING_START_EVENT:
                try open(Frame(isMapping: true, start: here, anchor: Self.string(event.data.mapping_start.anchor), firstNode: nodes), at: here)
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                guard let frame = stack.popLast(), frame.isMapping == (event.type == YAML_MAPPING_END_EVENT) else { return }
                let node = YAMLNode(value: frame.isMapping ? .mapping(frame.pairs) : .sequence(frame.items), location: frame.start)
                if let anchor = frame.anchor { anchors[anchor] = (node, nodes - frame.firstNode) }
                add(node)
            default:
                break
            }
        }

        mutating func add(_ node: YAMLNode) {
            let top = stack.count - 1
            guard top >= 0 else {
                if root == nil { root = node }
                return
            }
            if !stack[top].isMapping {
                stack[top].items.append(node)
            } else if let key = stack[top].pendingKey {
                stack[top].pairs.append((key, node))
                stack[top].pendingKey = nil
            } else {
                stack[top].pendingKey = node
            }
        }
    }
}
