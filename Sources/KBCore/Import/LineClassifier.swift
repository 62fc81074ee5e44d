import Foundation

/// A block of a raw write-up, found from its lines alone (no vocabulary yet).
public enum RawBlock: Equatable, Sendable {
    /// Consecutive prose lines (trimmed).
    case paragraph([String])
    /// Bulleted or numbered lines.
    case list([RawListItem])
    /// A run of code lines, as written, with the language guessed for its fence.
    case code(language: String, lines: [String])
    /// Media placeholders: file names of screenshots and recordings, tab-separated tables of them.
    case media([String])
    /// Lines that are only a link (optionally with a title).
    case links([String])
    /// A separator line (`----`, `====`).
    case rule(String)
}

/// One item of a pasted list: `• text`, `- text`, `1. text`.
public struct RawListItem: Equatable, Sendable {
    /// Nesting depth, from the indentation (0 for top-level items).
    public var level: Int
    /// `1.`, `2)` for numbered items; nil for bullets.
    public var ordinal: String?
    public var text: String
}

/// Splits pasted plain text into raw blocks: paragraphs, lists, code runs, media, links.
public enum LineClassifier {
    static let mediaExtensions = ["gif", "mov", "mp4", "m4v", "webm", "png", "jpg", "jpeg", "heic", "webp", "svg", "pdf"]
    static let orderedItem = try! NSRegularExpression(pattern: #"^(\d{1,3}[.)、])\s+(.*)$"#)
    static let urlLine = try! NSRegularExpression(pattern: #"^(\S.{0,120}?\s[-–—:：|]\s)?<?https?://\S+>?$"#)
    static let ruleLine = try! NSRegularExpression(pattern: #"^([-=_*~])\1{2,}$"#)

    static func trim(_ line: String) -> String {
        line.trimmingCharacters(in: .whitespaces)
    }

    static func indentation(_ line: String) -> Int {
        var width = 0
        for c in line {
            if c == " " || c == "\u{3000}" { width += 1 } else if c == "\t" { width += 4 } else { break }
        }
        return width
    }

    /// A line naming only media files (`demo.gif`, `2026-03-05 6.21.44.mov	after.mov`).
    static func isMediaLine(_ trimmed: String) -> Bool {
        let cells = trimmed.split(separator: "\t").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !cells.isEmpty else { return false }
        let media = cells.filter { cell in
            guard let dot = cell.lastIndex(of: ".") else { return false }
            let ext = cell[cell.index(after: dot)...].lowercased()
            return mediaExtensions.contains(ext) && !cell.contains("://")
        }
        return !media.isEmpty && media.count * 2 >= cells.count
    }

    static func isURLLine(_ trimmed: String) -> Bool {
        CodeDetector.matches(urlLine, trimmed) && !CodeDetector.hasCJK(String(trimmed.suffix(from: trimmed.range(of: "http")!.lowerBound)))
    }

    /// Splits a bullet or numbered line into its marker and text.
    static func listMarker(_ trimmed: String) -> (ordinal: String?, text: String)? {
        if CodeDetector.isBullet(trimmed) {
            let text = trimmed.dropFirst().trimmingCharacters(in: .whitespaces)
            return text.isEmpty ? nil : (nil, text)
        }
        let range = NSRange(trimmed.startIndex..., in: trimmed)
        if let match = orderedItem.firstMatch(in: trimmed, range: range),
           let marker = Range(match.range(at: 1), in: trimmed), let text = Range(match.range(at: 2), in: trimmed) {
            var ordinal = String(trimmed[marker])
            if ordinal.hasSuffix("、") { ordinal = String(ordinal.dropLast()) + "." }
            return (ordinal, String(trimmed[text]))
        }
        return nil
    }

    public static func lines(of text: String) -> [String] {
        text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in
                var line = String(line)
                while let last = line.last, last == " " || last == "\t" || last == "\u{3000}" { line.removeLast() }
                if line.hasPrefix("\u{FEFF}") { line.removeFirst() }
                return line
            }
    }

    /// The raw blocks of `text`.
    public static func blocks(_ text: String) -> [RawBlock] {
        let lines = lines(of: text)
        var blocks: [RawBlock] = []
        var i = 0
        func isBlank(_ index: Int) -> Bool { trim(lines[index]).isEmpty }
        func startsSomethingElse(_ index: Int) -> Bool {
            let t = trim(lines[index])
            return t.isEmpty || CodeDetector.signal(lines[index]) == .code || listMarker(t) != nil || isMediaLine(t)
                || isURLLine(t) || CodeDetector.matches(ruleLine, t)
        }
        while i < lines.count {
            let line = lines[i]
            let t = trim(line)
            if t.isEmpty { i += 1; continue }
            if CodeDetector.matches(ruleLine, t) {
                blocks.append(.rule(t))
                i += 1
                continue
            }
            if isMediaLine(t) || (t.contains("\t") && i + 1 < lines.count && isMediaLine(trim(lines[i + 1]))) {
                var run: [String] = []
                var seenMedia = false
                while i < lines.count, !isBlank(i), isMediaLine(trim(lines[i])) || lines[i].contains("\t") {
                    seenMedia = seenMedia || isMediaLine(trim(lines[i]))
                    run.append(trim(lines[i]))
                    i += 1
                }
                blocks.append(seenMedia ? .media(run) : .paragraph(run))
                continue
            }
            if isURLLine(t) || (listMarker(t).map { isURLLine($0.text) } ?? false) {
                var run: [String] = []
                while i < lines.count {
                    let u = trim(lines[i])
                    if let item = listMarker(u), isURLLine(item.text) { run.append(item.text) } else if isURLLine(u) { run.append(u) } else { break }
                    i += 1
                }
                blocks.append(.links(run))
                continue
            }
            if CodeDetector.signal(line) == .code {
                let end = codeRunEnd(lines, from: i)
                var run = Array(lines[i..<end])
                while let last = run.last, trim(last).isEmpty { run.removeLast() }
                // Keep the code's own indentation, minus what every line shares.
                let common = run.filter { !trim($0).isEmpty }.map(indentation).min() ?? 0
                run = run.map { trim($0).isEmpty ? "" : String($0.dropFirst(min(common, leadingCount($0)))) }
                blocks.append(.code(language: CodeDetector.language(of: run), lines: run))
                i = end
                continue
            }
            if listMarker(t) != nil {
                var items: [RawListItem] = []
                var indents: [Int] = []
                while i < lines.count, !isBlank(i) {
                    let u = trim(lines[i])
                    if let (ordinal, text) = listMarker(u) {
                        let indent = indentation(lines[i])
                        while let last = indents.last, last > indent { indents.removeLast() }
                        if indents.last != indent { indents.append(indent) }
                        items.append(RawListItem(level: indents.count - 1, ordinal: ordinal, text: text))
                    } else if indentation(lines[i]) > 0, CodeDetector.signal(lines[i]) != .code, !items.isEmpty {
                        items[items.count - 1].text += "\n" + u
                    } else {
                        break
                    }
                    i += 1
                }
                blocks.append(.list(items))
                continue
            }
            var paragraph = [t]
            i += 1
            while i < lines.count, !startsSomethingElse(i) {
                paragraph.append(trim(lines[i]))
                i += 1
            }
            blocks.append(.paragraph(paragraph))
        }
        return blocks
    }

    /// A line after a shell command that is its output rather than the write-up going on:
    /// no CJK, no bullet, no chat timestamp, not an English sentence, not a label or heading.
    static func isCommandOutput(_ t: String) -> Bool {
        if CodeDetector.hasCJK(t) || CodeDetector.isBullet(t) || CodeDetector.bulletMarkers.contains(t.first!) { return false }
        if CodeDetector.matches(CodeDetector.chatTimestamp, t) || CodeDetector.matches(CodeDetector.sentence, t) { return false }
        let matcher = VocabularyMatcher.shared
        if matcher.label(in: t, allowed: StructureMapper.allLabels) != nil || matcher.attemptHeading(t) != nil { return false }
        if let split = ImportText.splitAtLabelColon(t), matcher.section(forHeading: split.head) != nil { return false }
        return true
    }

    static func leadingCount(_ line: String) -> Int {
        line.prefix { $0 == " " || $0 == "\t" || $0 == "\u{3000}" }.count
    }

    /// The index after the last line of the code run starting at `start`. The run goes on over
    /// code and neutral lines, over any non-prose line while brackets are open, and over blank
    /// lines when the next line continues it.
    static func codeRunEnd(_ lines: [String], from start: Int) -> Int {
        var depth = max(0, CodeDetector.depthChange(lines[start]))
        var inBlockComment = trim(lines[start]).hasPrefix("/*") && !lines[start].contains("*/")
        let isShell = CodeDetector.matches(CodeDetector.shellPrompt, trim(lines[start]))
        var j = start + 1
        while j < lines.count {
            let t = trim(lines[j])
            // After a `$ ` prompt, the command's output runs up to a blank line or a line of prose.
            if isShell, !t.isEmpty, CodeDetector.signal(lines[j]) != .code, isCommandOutput(t) {
                j += 1
                continue
            }
            if t.isEmpty {
                guard let k = (j..<lines.count).first(where: { !trim(lines[$0]).isEmpty }) else { break }
                let signal = CodeDetector.signal(lines[k])
                if inBlockComment || signal == .code || (depth > 0 && signal == .neutral) {
                    j = k
                    continue
                }
                break
            }
            let signal = CodeDetector.signal(lines[j])
            if inBlockComment {
                if t.contains("*/") { inBlockComment = false }
            } else if signal == .code || signal == .neutral || (depth > 0 && !CodeDetector.hasCJK(CodeDetector.codePart(t)) && !isMediaLine(t)) {
                if t.hasPrefix("/*") && !t.contains("*/") { inBlockComment = true }
            } else {
                break
            }
            depth = max(0, depth + CodeDetector.depthChange(lines[j]))
            j += 1
        }
        return j
    }
}
