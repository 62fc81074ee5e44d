import CCmark
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Removes soft line breaks between two CJK characters (Han, Kana, CJK punctuation)
/// from a cmark tree before rendering. Chinese and Japanese put no space between words,
/// so the newline a writer types to wrap a line must not become a space in the browser.
/// Breaks next to Hangul or Latin text are kept: Korean and English separate words.
enum CJKSoftBreaks {
    static func remove(in root: OpaquePointer) {
        var doomed: [OpaquePointer] = []
        guard let iterator = cmark_iter_new(root) else { return }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator),
                  cmark_node_get_type(node) == CMARK_NODE_SOFTBREAK else { continue }
            guard let before = lastScalar(of: cmark_node_previous(node)),
                  let after = firstScalar(of: cmark_node_next(node)) else { continue }
            if CJKCharacter.joinsWithoutSpace(before) && CJKCharacter.joinsWithoutSpace(after) {
                doomed.append(node)
            }
        }
        cmark_iter_free(iterator)
        for node in doomed {
            cmark_node_unlink(node)
            cmark_node_free(node)
        }
    }

    /// The literal of the text or code node `node` is, or ends (`last`) or starts with.
    private static func literal(_ node: OpaquePointer?, last: Bool) -> UnsafePointer<CChar>? {
        var current = node
        // Descend into emphasis/strong/link to reach the adjacent text.
        while let node = current {
            switch cmark_node_get_type(node) {
            case CMARK_NODE_TEXT, CMARK_NODE_CODE:
                return cmark_node_get_literal(node)
            case CMARK_NODE_EMPH, CMARK_NODE_STRONG, CMARK_NODE_LINK:
                current = last ? cmark_node_last_child(node) : cmark_node_first_child(node)
            default:
                return nil
            }
        }
        return nil
    }

    /// The bytes of the adjacent literal. cmark's literals are not always well-formed UTF-8
    /// (it writes `&#xFFFF;` as the byte FF), so they are read as a repairing decoder would.
    private static func literalBytes(of node: OpaquePointer?, last: Bool) -> UnsafeBufferPointer<UInt8>? {
        guard let literal = literal(node, last: last) else { return nil }
        return UnsafeBufferPointer(start: UnsafeRawPointer(literal).assumingMemoryBound(to: UInt8.self), count: strlen(literal))
    }

    private static func lastScalar(of node: OpaquePointer?) -> Unicode.Scalar? {
        literalBytes(of: node, last: true).flatMap(UTF8Scan.lastScalar)
    }

    private static func firstScalar(of node: OpaquePointer?) -> Unicode.Scalar? {
        literalBytes(of: node, last: false).flatMap(UTF8Scan.firstScalar)
    }
}
