import Foundation

/// Path helpers for the work done once per entry: the answers of `NSString`'s path methods for
/// the plain paths `kb` makes itself, found on the bytes (Foundation's versions walk the string
/// character by character and cost thousands of instructions a call).
package enum PathText {
    /// `(path as NSString).deletingLastPathComponent`: everything before the last `/` (`/` for
    /// a path right under the root, empty for a bare name). Paths that end with `/` or have an
    /// empty component (`a//b`), which `NSString` tidies first, are left to it.
    package static func folder(of path: String) -> String {
        var path = path
        let folder: String? = path.withUTF8 { bytes in
            let slash = UInt8(ascii: "/")
            var last = -1
            var previous: UInt8 = 0
            for i in bytes.indices {
                let b = bytes[i]
                if b == slash {
                    if previous == slash { return nil }
                    last = i
                }
                previous = b
            }
            if previous == slash { return nil }
            if last < 0 { return "" }
            if last == 0 { return "/" }
            // A `/` is a scalar boundary: the bytes before it are valid UTF-8.
            return UTF8Scan.uncheckedString(UnsafeBufferPointer(rebasing: bytes[0..<last]))
        }
        return folder ?? (path as NSString).deletingLastPathComponent
    }
}
