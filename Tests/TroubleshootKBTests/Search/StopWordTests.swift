import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

/// The stop-word check the tokenizer runs on packed bytes is made from the word list, and the
/// browser drops the same words.
@Suite struct StopWordTests {
    static let others = ["", "bar", "i", "at8", "the1", "then2", "these ", "into", "intox", "withs", "thew", "z", "navigation"]

    @Test(arguments: SearchAnalyzer.stopWords + others)
    func packedCheckAgreesWithTheList(_ word: String) {
        let bytes = Array(word.utf8)
        let expected = SearchAnalyzer.stopWords.contains(word)
        if bytes.count <= 8 {
            #expect(SearchTokenizer.isStopWord(SearchTokenizer.pack(bytes[...])) == expected, "\(word)")
        } else {
            #expect(!expected, "stop words must fit in 8 bytes to be packed: \(word)")
        }
    }

    @Test func everyStopWordFitsAPackedKey() {
        #expect(SearchAnalyzer.stopWords.allSatisfy { !$0.isEmpty && $0.utf8.count <= 8 })
        #expect(SearchTokenizer.packedStopWords.count == Set(SearchAnalyzer.stopWords).count)
    }

    @Test func searchCoreJSDropsTheSameWords() throws {
        let script = try String(contentsOfFile: TestSupport.repositoryRoot + "/site/assets/search-core.js", encoding: .utf8)
        let start = try #require(script.range(of: "var STOP_WORDS = ["))
        let end = try #require(script.range(of: "];", range: start.upperBound..<script.endIndex))
        let words = script[start.upperBound..<end.lowerBound]
            .split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: CharacterSet(charactersIn: "'")) }
            .filter { !$0.isEmpty }
        #expect(words == SearchAnalyzer.stopWords)
    }
}
