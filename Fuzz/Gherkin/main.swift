// libFuzzer target: the Gherkin parser and pickle compiler (GherkinParser + PickleCompiler).
// Built by scripts/fuzz.sh.

@testable import KBScenarios

private let parser = GherkinParser()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGherkin(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
    // Feature files are read as UTF-8 text with repair, as `kb` reads them.
    let source = String(decoding: bytes, as: UTF8.self)
    if let document = try? parser.parse(source: source, uri: "fuzz.feature") {
        _ = PickleCompiler().compile(document)
    }
    return 0
}
