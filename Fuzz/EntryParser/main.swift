// libFuzzer target: the entry parser (EntryParser.parse: UTF-8 check, front matter,
// Markdown through cmark, sections, attempts, outcomes). Built by scripts/fuzz.sh.

@testable import KBCore

private let parser = EntryParser()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEntryParser(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
    let result = parser.parse(bytes: bytes, path: "fuzz/entry.md", folderName: "fuzz")
    for diagnostic in result.diagnostics {
        precondition((diagnostic.location?.line ?? 1) >= 1, "diagnostic line must be 1-based")
    }
    return 0
}
