import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

extension SplitMix64 {
    init(seed: UInt64) { self.init(state: seed) }
    mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    mutating func pick<T>(_ xs: [T]) -> T { xs[int(xs.count)] }
    mutating func chance(_ percent: Int) -> Bool { int(100) < percent }
}

/// Generated documents for the patch tests: words of skewed frequency (so that some tokens get
/// files of their own), CJK runs, identifiers, glossary terms, one word per document that no
/// other document has, anchors and labels, several languages, tags and statuses.
enum PatchCorpus {
    static let common = ["the", "app", "view", "crash", "when", "after", "update", "list", "scroll", "button", "color",
                         "keyboard", "navigation", "bar", "timeout", "request", "data", "model", "layout", "text"]
    static let syllables = ["ka", "lo", "mi", "ra", "tu", "ve", "zo", "pe", "ni", "sha", "qu", "don", "bel", "tri"]
    static let cjk = ["导航栏颜色", "键盘遮挡", "滚动卡顿", "网络超时", "数据迁移", "스크롤", "키보드", "네비게이션 바", "キーボード", "色が変わらない"]
    static let identifiers = ["URLSession.shared", "toolbarColorScheme(_:for:)", "NSPersistentContainer", "safeAreaInset",
                              "UINavigationBarAppearance", "scrollDismissesKeyboard(_:)", "Task.sleep(nanoseconds:)"]
    static let tags = ["swiftui", "uikit", "networking", "coredata", "keyboard", "navigation", "layout"]
    static let statuses = ["resolved", "open", "workaround"]
    static let langs = ["en", "zh-Hans", "ko", "ja"]

    static func word(_ g: inout SplitMix64) -> String {
        if g.chance(45) { return common[min(g.int(common.count), g.int(common.count))] }
        if g.chance(10) { return g.pick(identifiers) }
        if g.chance(12) { return g.pick(cjk) }
        return (0..<(2 + g.int(2))).map { _ in g.pick(syllables) }.joined()
    }

    static func sentence(_ g: inout SplitMix64, words: Int) -> String {
        (0..<words).map { _ in word(&g) }.joined(separator: " ")
    }

    /// The word only document `i` has.
    static func unique(_ i: Int) -> String { "only\(i)x" }

    static func document(_ i: Int, _ g: inout SplitMix64) -> SearchDocument {
        let id = String(format: "gen-%04d", i)
        let title = sentence(&g, words: 2 + g.int(4))
        var fields: [SearchField: [FieldText]] = [.title: [FieldText(title)]]
        if g.chance(80) { fields[.symptoms] = (0..<(1 + g.int(3))).map { _ in FieldText(sentence(&g, words: 3 + g.int(6))) } }
        if g.chance(50) { fields[.apis] = (0..<(1 + g.int(2))).map { _ in FieldText(g.pick(identifiers)) } }
        if g.chance(70) { fields[.problem] = [FieldText(sentence(&g, words: 5 + g.int(12)), anchor: "problem")] }
        if g.chance(50) {
            fields[.attempts] = (0..<(1 + g.int(3))).map { k in
                FieldText(sentence(&g, words: 4 + g.int(10)), anchor: "attempt-\(k + 1)", label: g.chance(80) ? "Attempt \(k + 1) — result" : nil)
            }
        }
        if g.chance(70) { fields[.fix] = [FieldText(sentence(&g, words: 4 + g.int(10)), anchor: "fix")] }
        fields[.body] = [FieldText(sentence(&g, words: 3 + g.int(20)) + " " + unique(i))]
        if g.chance(30) { fields[.code] = [FieldText("let x = " + g.pick(identifiers) + " // " + word(&g))] }
        let chosen = (0..<g.int(3)).map { _ in g.pick(PatchCorpus.tags) }
        return SearchDocument(id: id, lang: g.pick(langs), tags: chosen, status: g.pick(statuses), title: title,
                              url: g.chance(90) ? "entries/\(id)/" : nil, fields: fields)
    }

    /// `count` documents, already in id order.
    static func documents(count: Int, seed: UInt64) -> [SearchDocument] {
        var g = SplitMix64(seed: seed)
        return (0..<count).map { document($0, &g) }
    }
}

/// An edit of one document.
enum PatchEdit: String, CaseIterable, CustomStringConvertible {
    case titleChanged, textAdded, longTextAdded, textRemoved, uniqueWordAdded, uniqueWordRemoved, tagsAndStatusChanged,
         glossaryTermAdded, languageChanged, labelAndAnchorChanged, urlRemoved, sameDocument, textsEmptied,
         commonWordsDropped, wordsReordered

    /// Edits the random runs pick from.
    static let ordinary: [PatchEdit] = allCases.filter { $0 != .longTextAdded }

    var description: String { rawValue }

    func apply(to doc: SearchDocument, number d: Int, _ g: inout SplitMix64) -> SearchDocument {
        var doc = doc
        switch self {
        case .titleChanged:
            doc.title = PatchCorpus.sentence(&g, words: 3)
            doc.fields[.title] = [FieldText(doc.title)]
        case .textAdded:
            doc.fields[.symptoms, default: []].append(FieldText(PatchCorpus.sentence(&g, words: 6)))
        case .longTextAdded:
            doc.fields[.body, default: []].append(FieldText((0..<400).map { "novel\($0)word" }.joined(separator: " ")))
        case .textRemoved:
            let present = SearchField.allCases.filter { $0 != .title && !(doc.fields[$0] ?? []).isEmpty }
            if let f = present.isEmpty ? nil : g.pick(present) { doc.fields[f]!.removeLast() }
        case .uniqueWordAdded:
            doc.fields[.fix, default: []].append(FieldText("brandnewword\(g.int(1_000_000)) 全新词语"))
        case .uniqueWordRemoved:
            doc.fields[.body] = doc.fields[.body]?.map { FieldText($0.text.replacingOccurrences(of: PatchCorpus.unique(d), with: ""), anchor: $0.anchor, label: $0.label) }
        case .tagsAndStatusChanged:
            doc.tags = [g.pick(PatchCorpus.tags), "brand-new-tag"]
            doc.status = doc.status == "open" ? "resolved" : "open"
        case .glossaryTermAdded:
            doc.fields[.problem, default: []].append(FieldText("the navigation bar turns transparent, 导航栏不生效"))
        case .languageChanged:
            doc.lang = doc.lang == "ko" ? "ja" : "ko"
        case .labelAndAnchorChanged:
            doc.fields[.attempts, default: []].append(FieldText("tried again", anchor: "attempt-9", label: "Attempt 9 <b>&</b>"))
        case .urlRemoved:
            doc.url = doc.url == nil ? "entries/\(doc.id)/" : nil
        case .sameDocument:
            break
        case .textsEmptied:
            doc.fields = [:]
        case .commonWordsDropped:
            for (f, texts) in doc.fields {
                doc.fields[f] = texts.map { t in
                    FieldText(t.text.split(separator: " ").filter { !PatchCorpus.common.contains(String($0)) }.map(String.init).joined(separator: " "),
                              anchor: t.anchor, label: t.label)
                }
            }
        case .wordsReordered:
            for (f, texts) in doc.fields {
                doc.fields[f] = texts.map { FieldText($0.text.split(separator: " ").reversed().map(String.init).joined(separator: " "), anchor: $0.anchor, label: $0.label) }
            }
        }
        return doc
    }
}

@Suite struct SearchWebPatchTests {
    typealias FileName = SearchWebExport.FileName

    struct Setup {
        var documents: [SearchDocument]
        var glossary: SearchGlossary
        var ownFileRecords: Int
        var framing: SearchWebExport.Framing
    }

    /// The corpus in id order.
    static func sorted(_ docs: [SearchDocument]) -> [SearchDocument] {
        SearchIndex.documentOrder(docs).map { docs[$0] }
    }

    static func fullBuild(_ docs: [SearchDocument], _ setup: Setup) -> (files: [FileName: Data], state: SearchWebPatch.State) {
        let export = SearchWebExport.build(documents: docs, glossary: setup.glossary, ownFileRecords: setup.ownFileRecords,
                                           framing: setup.framing)
        return (export.files, export.patchState!)
    }

    /// Patches as the site build does, reading only the start of token files that stay as they
    /// are; here the starts are cut short (8 to 168 bytes, by file number), so that both a start
    /// that holds the token's first record and one that does not (the whole file is read then)
    /// are taken.
    static func patch(_ files: [FileName: Data], _ state: SearchWebPatch.State?, d: Int, new: SearchDocument, count: Int,
                      _ setup: Setup) throws -> SearchWebPatch.Outcome {
        try SearchWebPatch.replace(document: d, with: new, documentCount: count, state: state, glossary: setup.glossary,
                                   framing: setup.framing, ownFileRecords: setup.ownFileRecords,
                                   readHead: { name, count in files[name].map { [UInt8]($0.prefix(min(count, 8 + 40 * (name.number % 5)))) } },
                                   readBytes: { files[$0].map { [UInt8]($0) } })
    }

    /// The first differences between two file sets (empty when equal).
    static func differences(_ a: [FileName: Data], _ b: [FileName: Data]) -> [String] {
        var out: [String] = []
        for name in Set(a.keys).union(b.keys).sorted() where a[name] != b[name] {
            if a[name] == nil { out.append("\(name) only in the full build") } else if b[name] == nil { out.append("\(name) stale") } else {
                let x = [UInt8](a[name]!), y = [UInt8](b[name]!)
                let i = zip(x, y).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(x.count, y.count)
                out.append("\(name) differs at byte \(i): …\(String(decoding: x[max(0, i - 30)..<min(x.count, i + 30)], as: UTF8.self))… vs …\(String(decoding: y[max(0, i - 30)..<min(y.count, i + 30)], as: UTF8.self))…")
            }
        }
        return out
    }

    /// Edits document `d`, patches and compares with a full build; returns whether it was patched
    /// (nil and a recorded issue when the patch is wrong), the new files and state.
    static func check(_ files: [FileName: Data], _ state: SearchWebPatch.State, docs: [SearchDocument], d: Int,
                      new: SearchDocument, _ setup: Setup, _ label: String)
        throws -> (patched: Bool?, reason: String, docs: [SearchDocument], files: [FileName: Data], state: SearchWebPatch.State) {
        var edited = docs
        edited[d] = new
        let full = fullBuild(edited, setup)
        switch try patch(files, state, d: d, new: new, count: docs.count, setup) {
        case .needsFullBuild(let reason):
            return (false, reason, edited, full.files, full.state)
        case .patched(let changed, let newState):
            var patched = files
            for (name, data) in changed {
                #expect(files[name] != nil, "\(label): the patch made a file that was not there: \(name)")
                #expect(files[name] != data, "\(label): the patch returned an unchanged file: \(name)")
                patched[name] = data
            }
            let diff = differences(full.files, patched)
            #expect(diff.isEmpty, "\(label): \(diff.prefix(3).joined(separator: "\n"))")
            #expect(newState == full.state, "\(label): state \(newState) ≠ \(full.state)")
            return (diff.isEmpty ? true : nil, "", edited, full.files, full.state)
        }
    }

    /// The tokens with files of their own, by number.
    static func ownFileTokens(_ files: [FileName: Data], _ framing: SearchWebExport.Framing) -> [String] {
        var tokens: [String] = []
        var k = 0
        while let data = files[.token(k)] {
            let bytes = [UInt8](data)
            let body = WebFraming.body(of: bytes, name: .token(k), framing: framing)!
            let json = try! JSONSerialization.jsonObject(with: Data(bytes[body])) as! [String: Any]
            tokens.append((json["t"] as! [String: Any]).keys.first!)
            k += 1
        }
        return tokens
    }

    /// Whether the full build after an edit renumbers the token files or changes the shard count
    /// (what the patch leaves to a full build).
    static func fallbackWasNeeded(_ old: [FileName: Data], _ new: [FileName: Data], _ framing: SearchWebExport.Framing) -> Bool {
        ownFileTokens(old, framing) != ownFileTokens(new, framing) || old.keys.filter { if case .shard = $0 { true } else { false } }.count
            != new.keys.filter { if case .shard = $0 { true } else { false } }.count
    }

    // MARK: Named cases

    struct NamedCase: CustomTestStringConvertible, Sendable {
        var name: String
        var corpus: Corpus
        var document: Int
        var edit: PatchEdit
        /// Why a full build is the right answer, when it is.
        var expectedFallback: String? = nil
        var testDescription: String { name }

        enum Corpus: Sendable { case tiny, small, generated }
    }

    static let generated = PatchCorpus.documents(count: 300, seed: 7)
    static let small = sorted(SearchTestCorpus.documents)

    static let namedCases: [NamedCase] = {
        var cases: [NamedCase] = []
        for edit in PatchEdit.ordinary {
            cases.append(NamedCase(name: "generated, doc 150: \(edit)", corpus: .generated, document: 150, edit: edit))
            cases.append(NamedCase(name: "generated, last doc: \(edit)", corpus: .generated, document: 299, edit: edit))
            if edit != .glossaryTermAdded && edit != .textsEmptied {
                cases.append(NamedCase(name: "small corpus, doc 6: \(edit)", corpus: .small, document: 6, edit: edit))
            }
        }
        cases.append(NamedCase(name: "generated, doc 150: longTextAdded", corpus: .generated, document: 150, edit: .longTextAdded,
                               expectedFallback: "recommended shard count changes"))
        cases.append(NamedCase(name: "small corpus, doc 3: titleChanged", corpus: .small, document: 3, edit: .titleChanged,
                               expectedFallback: "crosses ownFileRecords"))
        // The first document introduces every one of its tokens: a new text early in it changes
        // the order in which it meets them, and so the numbering of the token files.
        cases.append(NamedCase(name: "generated, doc 0: textAdded", corpus: .generated, document: 0, edit: .textAdded,
                               expectedFallback: "order of the tokens with files of their own"))
        cases.append(NamedCase(name: "generated, doc 0: commonWordsDropped", corpus: .generated, document: 0, edit: .commonWordsDropped,
                               expectedFallback: "order of the tokens with files of their own"))
        // Three records make a file of their own in the small corpus: the glossary's concept tokens cross that.
        cases.append(NamedCase(name: "small corpus, doc 6: glossaryTermAdded", corpus: .small, document: 6, edit: .glossaryTermAdded,
                               expectedFallback: "crosses ownFileRecords"))
        cases.append(NamedCase(name: "small corpus, doc 6: textsEmptied", corpus: .small, document: 6, edit: .textsEmptied,
                               expectedFallback: "order of the tokens with files of their own"))
        // Four hundred new tokens in a knowledge base of three documents double its shards.
        cases.append(NamedCase(name: "tiny corpus, doc 1: longTextAdded", corpus: .tiny, document: 1, edit: .longTextAdded,
                               expectedFallback: "recommended shard count changes"))
        return cases
    }()

    @Test(arguments: namedCases, [SearchWebExport.Framing.script, .json])
    func namedEdit(_ c: NamedCase, framing: SearchWebExport.Framing) throws {
        let docs = switch c.corpus {
        case .tiny: Array(Self.small.prefix(3))
        case .small: Self.small
        case .generated: Self.generated
        }
        let setup = Setup(documents: docs, glossary: SearchTestCorpus.glossary, ownFileRecords: c.corpus == .generated ? 40 : 3,
                          framing: framing)
        let full = Self.fullBuild(docs, setup)
        var g = SplitMix64(seed: 99)
        let new = c.edit.apply(to: docs[c.document], number: c.document, &g)
        let result = try Self.check(full.files, full.state, docs: docs, d: c.document, new: new, setup, c.name)
        if result.patched == false {
            let expected = c.expectedFallback.map { result.reason.contains($0) } ?? false
            #expect(expected, "\(c.name): unexpected full build: \(result.reason)")
            #expect(Self.fallbackWasNeeded(full.files, result.files, framing), "\(c.name): a full build changes no token file or shard count")
        } else if let expected = c.expectedFallback {
            print("\(c.name): patched although a full build (\(expected)) was allowed")
        }
    }

    // MARK: Randomized

    @Test(arguments: [SearchWebExport.Framing.script, .json])
    func randomEdits(framing: SearchWebExport.Framing) throws {
        var docs = PatchCorpus.documents(count: 300, seed: framing == .script ? 11 : 12)
        let setup = Setup(documents: docs, glossary: SearchTestCorpus.glossary, ownFileRecords: 16, framing: framing)
        var (files, state) = Self.fullBuild(docs, setup)
        var g = SplitMix64(seed: framing == .script ? 21 : 22)
        var patched = 0, total = 0
        var reasons: [String: Int] = [:]
        var unneeded = 0
        for round in 0..<100 {
            let d = g.int(docs.count)
            let edit = g.pick(PatchEdit.ordinary)
            let new = edit.apply(to: docs[d], number: d, &g)
            let result = try Self.check(files, state, docs: docs, d: d, new: new, setup, "round \(round), doc \(d), \(edit)")
            total += 1
            if result.patched == true { patched += 1 }
            if result.patched == false {
                reasons[result.reason, default: 0] += 1
                if !Self.fallbackWasNeeded(files, result.files, framing) { unneeded += 1 }
            }
            guard result.patched != nil else { return }
            (docs, files, state) = (result.docs, result.files, result.state)
        }
        print("randomEdits(\(framing)): \(patched) of \(total) edits patched; full builds: \(reasons), \(unneeded) of them where the full build renumbers no token file and keeps the shard count")
        #expect(patched * 10 >= total * 9, "only \(patched) of \(total) edits patched")
    }

    @Test func missingStateOrFilesAskForAFullBuild() throws {
        let docs = Self.small
        let setup = Setup(documents: docs, glossary: SearchTestCorpus.glossary, ownFileRecords: 3, framing: .script)
        let full = Self.fullBuild(docs, setup)
        var g = SplitMix64(seed: 1)
        let new = PatchEdit.textAdded.apply(to: docs[2], number: 2, &g)
        guard case .needsFullBuild = try Self.patch(full.files, nil, d: 2, new: new, count: docs.count, setup) else {
            Issue.record("patched without a state"); return
        }
        var missing = full.files
        missing[.meta] = nil
        guard case .needsFullBuild = try Self.patch(missing, full.state, d: 2, new: new, count: docs.count, setup) else {
            Issue.record("patched without the metadata"); return
        }
        // Another glossary than the export's: the metadata tells.
        let other = Setup(documents: docs, glossary: .empty, ownFileRecords: 3, framing: .script)
        guard case .needsFullBuild = try Self.patch(full.files, full.state, d: 2, new: new, count: docs.count, other) else {
            Issue.record("patched with another glossary"); return
        }
        // Another id.
        var renamed = new
        renamed.id = "zz-other"
        guard case .needsFullBuild = try Self.patch(full.files, full.state, d: 2, new: renamed, count: docs.count, setup) else {
            Issue.record("patched with another id"); return
        }
    }

    // MARK: Scanner

    /// Every token's web postings, walked by the scanner, against the records of `SearchIndex`.
    @Test func scannerReadsWhatTheIndexHolds() throws {
        let docs = Array(PatchCorpus.documents(count: 120, seed: 3))
        for cap in [8, 1, 0] {
            var parameters = SearchParameters()
            parameters.maxPositions = cap
            let index = SearchIndex.build(documents: docs, parameters: parameters, glossary: SearchTestCorpus.glossary)
            let export = SearchWebExport.build(documents: docs, parameters: parameters, glossary: SearchTestCorpus.glossary,
                                               ownFileRecords: 10)
            var ownFiles: [Int: String] = [:]
            for shard in export.shards {
                let json = try #require(try JSONSerialization.jsonObject(with: shard) as? [String: Any])
                for (token, value) in try #require(json["t"] as? [String: Any]) {
                    if let k = value as? Int { ownFiles[k] = token; continue }
                    let postings = try #require((value as? [Any])?[2] as? String)
                    try compare(token, postings, index)
                }
            }
            for (k, file) in export.tokenFiles.enumerated() {
                let json = try #require(try JSONSerialization.jsonObject(with: file) as? [String: Any])
                let t = try #require(json["t"] as? [String: Any])
                let postings = try #require((t[ownFiles[k]!] as? [Any])?[2] as? String)
                try compare(ownFiles[k]!, postings, index)
            }
        }
    }

    func compare(_ token: String, _ postings: String, _ index: SearchIndex) throws {
        let bytes = Array(postings.utf8)
        let list = try #require(index.postingList(index.tokens.find(token)))
        var scanner = WebPostingsScanner(bytes, maxPositions: index.parameters.maxPositions)
        scanner.decodesValues = true
        var records: [WebPostingsScanner.Record] = []
        var recordPositions: [[Int]] = []
        while try scanner.next() { records.append(scanner.record); recordPositions.append(scanner.positions) }
        try #require(records.count == list.count, "\(token): \(records.count) records, the index has \(list.count)")
        let fc = SearchIndex.fieldCount
        for (r, record) in records.enumerated() {
            let doc = Int(list.doc[r]), text = Int(list.text[r])
            let field = Int(index.textField[Int(index.docTextStart[doc]) + text])
            let m = min(Int(list.tf[r]), index.parameters.maxPositions)
            let positions = (0..<m).map { Int(list.pos[Int(list.posStart[r]) + $0]) }
            #expect(record.document == doc && record.text == text && record.field == field
                    && record.fieldLength == Int(index.fieldLengths[doc * fc + field]) && record.tf == Int(list.tf[r])
                    && recordPositions[r] == positions && record.isFirstInDocument == (r == 0 || list.doc[r - 1] != list.doc[r]),
                    "\(token) record \(r)")
            #expect(r == 0 || record.start == records[r - 1].end)
        }
        #expect(records.last?.end == bytes.count)
        // Without values (as `locate` reads), the same records in the same places: only the
        // field lengths and positions are stepped over.
        var placesOnly = WebPostingsScanner(bytes, maxPositions: index.parameters.maxPositions)
        var read = 0
        while try placesOnly.next() {
            var expected = records[read]
            expected.fieldLength = 0
            #expect(placesOnly.record == expected && placesOnly.positions.isEmpty, "\(token) record \(read) without values")
            read += 1
        }
        #expect(read == records.count)
        // Where each document's records are, against the records themselves.
        let documents = Set(records.map(\.document))
        for d in documents.union([0, records.last!.document + 1, records.first!.document + 1]) {
            let span = try WebPostingsScanner.locate(document: d, in: bytes, range: 0..<bytes.count, maxPositions: index.parameters.maxPositions)
            let mine = records.filter { $0.document == d }
            let before = records.filter { $0.document < d }, after = records.filter { $0.document > d }
            #expect(span.records == mine.count && span.totalRecords == records.count && span.totalDocuments == documents.count)
            #expect(span.firstDocument == records.first?.document)
            #expect(span.start == (mine.first?.start ?? after.first?.start ?? bytes.count))
            #expect(span.end == (mine.last?.end ?? after.first?.start ?? bytes.count))
            if let first = mine.first { #expect(span.headEnd == first.headEnd) }
            #expect(span.previousDocument == (before.last?.document ?? 0))
            #expect(span.nextDocument == after.first?.document)
            if let next = after.first { #expect(span.nextHeadEnd == next.headEnd) }
        }
    }
}
