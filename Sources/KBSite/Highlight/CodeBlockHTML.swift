import KBCore
import KBSearch
import KBScenarios
/// The site's code block, made from cmark's `<pre><code class="language-x">…</code></pre>`:
///
///     <div class="code-block"><div class="code-head"><span class="code-lang">Swift</span></div>
///     <pre tabindex="0"><code class="language-swift">…coloured…</code></pre></div>
///
/// The head is always there (the copy button, added by assets/app.js, goes into it, so adding it
/// moves nothing); the label only when the fence names a language. The code is coloured when
/// `HighlightLanguages` knows the language, and is otherwise cmark's escaped text as it was.
/// `<pre>` is keyboard-scrollable (`tabindex="0"`).
enum CodeBlockHTML {
    private static let preCode = Array("<pre><code".utf8)
    private static let classOpen = Array(" class=\"language-".utf8)
    private static let codeClose = Array("</code></pre>".utf8)

    /// Writes the code block that starts at `start` (at `<pre><code`) and returns the offset
    /// after its `</code></pre>`; nil, writing nothing, when the HTML there is not of cmark's shape.
    static func write(_ h: UnsafeBufferPointer<UInt8>, at start: Int, into html: inout HTMLBuffer) -> Int? {
        var i = start + preCode.count
        var language: UnsafeBufferPointer<UInt8>? = nil
        if starts(h, classOpen, at: i) {
            let nameStart = i + classOpen.count
            var j = nameStart
            while j < h.count && h[j] != UInt8(ascii: "\"") && h[j] != UInt8(ascii: "<") && h[j] != UInt8(ascii: ">") { j += 1 }
            guard j < h.count && h[j] == UInt8(ascii: "\"") else { return nil }
            language = UnsafeBufferPointer(rebasing: h[nameStart..<j])
            i = j + 1
        }
        guard i < h.count && h[i] == UInt8(ascii: ">") else { return nil }
        let bodyStart = i + 1
        guard let bodyEnd = codeClose.withUnsafeBufferPointer({ ByteText.find(h, $0, from: bodyStart) }) else { return nil }
        let body = UnsafeBufferPointer(rebasing: h[bodyStart..<bodyEnd])

        // cmark escapes the fence's word; it is read back as text.
        let name = language.map { String(decoding: unescape($0), as: UTF8.self) } ?? ""
        html.raw("<div class=\"code-block\"><div class=\"code-head\">")
        if !name.isEmpty {
            html.raw("<span class=\"code-lang\">")
            html.text(HighlightLanguages.label(for: name))
            html.raw("</span>")
        }
        html.raw("</div><pre tabindex=\"0\"><code")
        if !name.isEmpty {
            html.raw(" class=\"language-")
            html.text(name)
            html.raw("\"")
        }
        html.raw(">")
        if let highlighter = HighlightLanguages.highlighter(for: name) {
            let code = unescape(body)
            code.withUnsafeBufferPointer { highlighter.highlight($0, into: &html.bytes) }
        } else {
            html.raw(body)
        }
        html.raw("</code></pre></div>")
        return bodyEnd + codeClose.count
    }

    /// Text from cmark's escaped HTML: `&amp; &lt; &gt; &quot;` (all cmark writes in code) and
    /// `&#39;`/`&#x27;` back to their characters; anything else is kept as it is.
    static func unescape(_ h: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(h.count)
        var i = 0
        var plain = 0
        while i < h.count {
            guard h[i] == UInt8(ascii: "&") else { i += 1; continue }
            var replacement: UInt8 = 0
            var width = 0
            for (entity, byte) in entities where starts(h, entity, at: i) {
                replacement = byte
                width = entity.count
                break
            }
            guard width > 0 else { i += 1; continue }
            if plain < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: h[plain..<i])) }
            out.append(replacement)
            i += width
            plain = i
        }
        if plain < h.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: h[plain..<h.count])) }
        return out
    }

    private static let entities: [([UInt8], UInt8)] = [
        ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&#x27;", "'"),
    ].map { (Array($0.0.utf8), $0.1.utf8.first!) }

    private static func starts(_ h: UnsafeBufferPointer<UInt8>, _ needle: [UInt8], at i: Int) -> Bool {
        guard i + needle.count <= h.count else { return false }
        for k in 0..<needle.count where h[i + k] != needle[k] { return false }
        return true
    }
}
