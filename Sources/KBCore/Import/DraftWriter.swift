/// Writes a draft as `entry.md`: YAML front matter, then Markdown the parser reads back with
/// the same structure (headings by level, labels in bold with a space after the closing `**`,
/// code fenced with its language, media as a quoted note, links as a references list).
struct DraftWriter {
    static let todoMarker = ImportTodoRule.markers[0].text

    struct FrontMatter {
        var id: String
        var title: String
        var lang: String
        var summary: String
        var symptoms: [String]
        var apis: [String]
        var status: EntryMetadata.Status
        var updated: String
        var todos: [String]
    }

    func render(_ document: DraftDocument, frontMatter: FrontMatter) -> String {
        var out = "---\n"
        out += "id: \(frontMatter.id)\n"
        out += "title: \(Self.quoted(frontMatter.title))\n"
        out += "lang: \(frontMatter.lang)\n"
        out += "summary: \(Self.quoted(frontMatter.summary))\n"
        out += "symptoms:\n"
        for symptom in frontMatter.symptoms { out += "  - \(Self.quoted(symptom))\n" }
        out += "apis: " + Self.flowList(frontMatter.apis) + "\n"
        out += "tags: []\n"
        out += "status: \(frontMatter.status.rawValue)\n"
        out += "related: []\n"
        out += "updated: \(frontMatter.updated)\n"
        for todo in frontMatter.todos { out += "# \(Self.todoMarker): \(Self.oneLine(todo))\n" }
        out += "---\n"

        var blocks: [String] = []
        if document.titleFromInput { blocks.append("# " + Self.escapeHeading(document.title)) }
        for section in document.sections {
            if let heading = section.heading {
                blocks.append(String(repeating: "#", count: section.level) + " " + Self.escapeHeading(heading))
            }
            for todo in section.todos { blocks.append(Self.todoComment(todo)) }
            for node in section.nodes { blocks.append(render(node)) }
        }
        return out + "\n" + blocks.joined(separator: "\n\n") + "\n"
    }

    func render(_ node: DraftNode) -> String {
        switch node {
        case .paragraph(let lines):
            return lines.map(Self.escapeLine).joined(separator: "\n")
        case .heading(let level, let text):
            return String(repeating: "#", count: level) + " " + Self.escapeHeading(text)
        case .rule(let text):
            return text
        case .todo(let text):
            return Self.todoComment(text)
        case .code(let language, let lines):
            let fence = lines.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("```") } ? "~~~~" : "```"
            return ([fence + language] + lines + [fence]).joined(separator: "\n")
        case .media(let lines):
            // A quoted note, one paragraph per line so table rows stay apart.
            return "<!-- kb-import: media placeholders from the original write-up; the files are not part of the entry -->\n\n"
                + lines.map { "> " + Self.escapeInline($0.replacingOccurrences(of: "\t", with: "  ")) }.joined(separator: "\n>\n")
        case .list(let items):
            return renderList(items)
        }
    }

    func renderList(_ items: [DraftListItem]) -> String {
        var lines: [String] = []
        // Indentation of each level: the width of the parent's marker.
        var indents: [Int] = [0]
        for item in items {
            let level = min(item.level, indents.count - 1)
            indents = Array(indents.prefix(level + 1))
            let marker = item.ordinal.map { $0.hasSuffix(")") ? $0 : $0 } ?? "-"
            let prefix = String(repeating: " ", count: indents[level]) + marker + " "
            indents.append(prefix.count)
            var text = item.text.components(separatedBy: "\n").map(Self.escapeInline)
            if let label = item.label {
                // `**결과:** 실패`: a space after the closing `**` so it closes before CJK text.
                let first = text.first ?? ""
                text[0] = "**\(label)**" + (first.isEmpty ? "" : " " + first)
            } else if let first = text.first {
                text[0] = Self.escapeItemStart(first)
            }
            lines.append(prefix + text[0])
            let continuation = String(repeating: " ", count: prefix.count)
            for line in text.dropFirst() { lines.append(continuation + line) }
        }
        return lines.joined(separator: "\n")
    }

    static func todoComment(_ text: String) -> String {
        "<!-- \(todoMarker): \(oneLine(text)) -->"
    }

    static func oneLine(_ text: String) -> String {
        text.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "-->", with: "→")
    }

    /// A paragraph line that Markdown would otherwise read as a heading, quote, list or fence.
    static func escapeLine(_ line: String) -> String {
        var line = escapeInline(line)
        if isATXHeadingStart(line) || line.hasPrefix(">") || line.hasPrefix("```") || line.hasPrefix("~~~") || line.hasPrefix("+ ")
            || line.hasPrefix("= ") || line.hasPrefix("<") || (!line.isEmpty && line.allSatisfy({ $0 == "-" || $0 == "=" })) {
            line = "\\" + line
        }
        return line
    }

    /// List item text that would start a nested block.
    static func escapeItemStart(_ text: String) -> String {
        if isATXHeadingStart(text) || text.hasPrefix(">") || text.hasPrefix("- ") || text.hasPrefix("* ") || text.hasPrefix("+ ") { return "\\" + text }
        return text
    }

    /// `# x`, `## x`, `#` alone: an ATX heading (`#available` is not).
    static func isATXHeadingStart(_ text: String) -> Bool {
        let hashes = text.prefix { $0 == "#" }.count
        guard hashes >= 1, hashes <= 6 else { return false }
        let rest = text.dropFirst(hashes)
        return rest.isEmpty || rest.first == " " || rest.first == "\t"
    }

    /// Turns bare URLs into autolinks so the references list links them.
    static func escapeInline(_ text: String) -> String {
        var out = text
        for url in ImportText.urls(in: text).reversed() where !text.contains("<" + url) && !text.contains("](" + url) {
            if let range = out.range(of: url, options: .backwards) { out.replaceSubrange(range, with: "<\(url)>") }
        }
        return out
    }

    static func escapeHeading(_ text: String) -> String {
        text.hasSuffix("#") ? text + " " : text
    }

    /// A YAML double-quoted scalar.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += " "
            case "\t": out += " "
            default:
                if scalar.value < 0x20 { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    static func flowList(_ items: [String]) -> String {
        guard !items.isEmpty else { return "[]" }
        var lines: [String] = []
        var current = "["
        for (index, item) in items.enumerated() {
            let piece = quoted(item) + (index + 1 < items.count ? "," : "]")
            if current.count + piece.count > 96, current != "[" {
                lines.append(current)
                current = "  " + piece
            } else {
                current += (current == "[" || current == "  " ? "" : " ") + piece
            }
        }
        lines.append(current)
        return lines.joined(separator: "\n")
    }
}
