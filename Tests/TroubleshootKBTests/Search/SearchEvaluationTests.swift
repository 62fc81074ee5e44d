import Foundation
import Testing
@testable import TroubleshootKB

/// Quality of `kb search` on the development queries (`../shared/queries/dev.tsv`):
/// MRR and recall@1/@3 per segment.
@Suite struct SearchEvaluationTests {
    struct Query { let text: String; let expected: String; let segment: String }

    static func queries() -> [Query]? {
        let path = TestSupport.sharedDirectory + "/queries/dev.tsv"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            let fields = line.split(separator: "\t").map(String.init)
            return fields.count == 3 ? Query(text: fields[0], expected: fields[1], segment: fields[2]) : nil
        }
    }

    static func repositoryIndex() throws -> SearchIndex {
        let kb = try KnowledgeBase.load(paths: [TestSupport.entriesDirectory], workingDirectory: TestSupport.repositoryRoot)
        return SearchIndex.build(documents: kb.entries.map { SearchDocument(entry: $0) })
    }

    /// Per segment: (queries, MRR, recall@1, recall@3, misses).
    static func evaluate(_ index: SearchIndex, _ queries: [Query]) -> [String: (n: Int, mrr: Double, r1: Double, r3: Double, misses: [String])] {
        var result: [String: (n: Int, mrr: Double, r1: Double, r3: Double, misses: [String])] = [:]
        for segment in Set(queries.map(\.segment)) {
            let rows = queries.filter { $0.segment == segment }
            var mrr = 0.0, r1 = 0.0, r3 = 0.0
            var misses: [String] = []
            for query in rows {
                let ids = index.search(query: query.text, limit: 10).map(\.id)
                if let rank = ids.firstIndex(of: query.expected) {
                    mrr += 1 / Double(rank + 1)
                    if rank == 0 { r1 += 1 } else { misses.append("\(query.text) → #\(rank + 1)") }
                    if rank < 3 { r3 += 1 }
                } else {
                    misses.append("\(query.text) → not found")
                }
            }
            let n = Double(rows.count)
            result[segment] = (rows.count, mrr / n, r1 / n, r3 / n, misses)
        }
        return result
    }

    @Test func developmentQueries() throws {
        guard let queries = Self.queries() else {
            print("skipped: ../shared/queries/dev.tsv is not present beside the repository")
            return
        }
        let report = Self.evaluate(try Self.repositoryIndex(), queries)
        for segment in report.keys.sorted() {
            let r = report[segment]!
            print(String(format: "search eval %-5@ n=%2d MRR %.3f R@1 %.2f R@3 %.2f", segment as NSString, r.n, r.mrr, r.r1, r.r3)
                  + (r.misses.isEmpty ? "" : "  misses: " + r.misses.joined(separator: "; ")))
        }
        let core = queries.filter { ["same", "api", "en"].contains($0.segment) }
        let coreReport = Self.evaluate(try Self.repositoryIndex(), core.map { Query(text: $0.text, expected: $0.expected, segment: "core") })["core"]!
        print(String(format: "search eval same+api+en MRR %.3f", coreReport.mrr))
        #expect(coreReport.mrr >= 0.9, "MRR on same+api+en is \(coreReport.mrr); misses: \(coreReport.misses)")
        for segment in ["same", "api", "en"] {
            #expect(report[segment]?.r1 == 1.0, "\(segment): expected entry not first for \(report[segment]?.misses ?? [])")
        }
    }
}
