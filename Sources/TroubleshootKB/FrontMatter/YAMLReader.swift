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
        let buffer = Array(bytes)
        return try buffer.withUnsafeBufferPointer { (raw) throws(YAMLError) -> YAMLNode? in
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
        enum Frame {
            case sequence([YAMLNode], SourceLocation, anchor: String?, firstNode: Int)
            case mapping([(key: YAMLNode, value: YAMLNode)], pendingKey: YAMLNode?, SourceLocation, anchor: String?, firstNode: Int)
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
                try open(.sequence([], here, anchor: Self.string(event.data.sequence_start.anchor), firstNode: nodes), at: here)
            case YAML_MAPPING_START_EVENT:
                try open(.mapping([], pendingKey: nil, here, anchor: Self.string(event.data.mapping_start.anchor), firstNode: nodes), at: here)
            case YAML_SEQUENCE_END_EVENT:
                guard case .sequence(let items, let start, let anchor, let firstNode)? = stack.popLast() else { return }
                let node = YAMLNode(value: .sequence(items), location: start)
                if let anchor { anchors[anchor] = (node, nodes - firstNode) }
                add(node)
            case YAML_MAPPING_END_EVENT:
                guard case .mapping(let pairs, _, let start, let anchor, let firstNode)? = stack.popLast() else { return }
                let node = YAMLNode(value: .mapping(pairs), location: start)
                if let anchor { anchors[anchor] = (node, nodes - firstNode) }
                add(node)
            default:
                break
            }
        }

        mutating func add(_ node: YAMLNode) {
            guard let top = stack.popLast() else {
                if root == nil { root = node }
                return
            }
            switch top {
            case .sequence(var items, let start, let anchor, let firstNode):
                items.append(node)
                stack.append(.sequence(items, start, anchor: anchor, firstNode: firstNode))
            case .mapping(var pairs, let pendingKey, let start, let anchor, let firstNode):
                if let key = pendingKey {
                    pairs.append((key, node))
                    stack.append(.mapping(pairs, pendingKey: nil, start, anchor: anchor, firstNode: firstNode))
                } else {
                    stack.append(.mapping(pairs, pendingKey: node, start, anchor: anchor, firstNode: firstNode))
                }
            }
        }
    }
}
