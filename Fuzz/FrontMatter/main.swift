// libFuzzer target: the front matter reader (FrontMatterSplit + YAMLReader + EntryMetadata).
// Built by scripts/fuzz.sh together with the library layers it needs (not by SwiftPM).

@testable import KBCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrontMatter(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
    // The raw bytes as YAML, as the reader sees them inside an entry.
    _ = fuzzReadMetadata(bytes[...])
    // And the whole input as a file: split off the front matter, then read it.
    if EntryParser.firstInvalidUTF8Offset(bytes) == nil {
        let source = SourceText(bytes: bytes)
        if let split = FrontMatterSplit.split(source) {
            _ = fuzzReadMetadata(bytes[split.yaml], firstLine: split.yamlFirstLine)
        }
    }
    return 0
}

private func fuzzReadMetadata(_ bytes: ArraySlice<UInt8>, firstLine: Int = 1) -> Int {
    do {
        let root = try YAMLReader.read(bytes, firstLine: firstLine)
        let (metadata, diagnostics) = EntryMetadata.read(root, path: "fuzz/entry.md", at: .init(line: firstLine, column: 1))
        return diagnostics.count + (metadata.id.count)
    } catch {
        return error.location.line
    }
}
