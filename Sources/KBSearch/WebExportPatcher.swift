import Foundation
import KBCore

/// The work of one `SearchWebPatch.replace`: the files read so far, the old and the new version
/// of the document tokenized, and what changes for each of their tokens.
struct WebExportPatcher {
    typealias FileName = SearchWebExport.FileName
    typealias Fallback = SearchWebPatch.Fallback

    /// One token of the old or the new version of the document, and what becomes of it.
    struct Change {
        var token: String
        /// The token as a JSON string (the key in its shard).
        var key: [UInt8]
        var nameLength: Int
        var shard: Int
        /// Its place among the tokens of the old and the new version.
        var oldRank: Int?
        var newRank: Int?
        /// Its entry in the shard (nil: a new token), and the number of its own file.
        var oldEntry: Int?
        var ownFile: Int?
        var oldDf = 0
        var newDf = 0
        /// The document of its first record before and after.
        var oldFirst: Int?
        var newFirst: Int?
        /// The new postings, and whether they are those of before.
        var newPostings: [UInt8] = []
        var unchanged = false
        /// What it weighs in `State.inlineBytes` before and after.
        var oldWeight = 0
        var newWeight = 0
    }

    let d: Int
    let n: Int
    let state: SearchWebPatch.State
    let parameters: SearchParameters
    let glossary: SearchGlossary
    let framing: SearchWebExport.Framing
    let ownFileRecords: Int
    let read: (FileName) throws -> [UInt8]?
    /// The first bytes of a file (at most the count given), nil when it is missing.
    let readHead: (FileName, Int) throws -> [UInt8]?
    let cap: Int

    private var files: [FileName: [UInt8]] = [:]
    private var shards: [Int: WebShardFile] = [:]
    private var tokenFiles: [Int: WebShardFile] = [:]
    private var filterDocuments: [WebExportReading.FilterDocument] = []
    /// Other documents, tokenized to place a token whose first document becomes theirs, with
    /// the rank of each token by its key.
    private var otherDocuments: [Int: [[UInt8]: Int]] = [:]

    init(d: Int, n: Int, state: SearchWebPatch.State, parameters: SearchParameters, glossary: SearchGlossary,
         framing: SearchWebExport.Framing, ownFileRecords: Int, read: @escaping (FileName) throws -> [UInt8]?,
         readHead: ((FileName, Int) throws -> [UInt8]?)? = nil) {
        self.d = d
        self.n = n
        self.state = state
        self.parameters = parameters
        self.glossary = glossary
        self.framing = framing
        self.ownFileRecords = ownFileRecords
        self.read = read
        self.readHead = readHead ?? { name, _ in try read(name) }
        cap = max(0, parameters.maxPositions)
    }

    // MARK: Reading

    private mutating func bytes(_ name: FileName) throws -> [UInt8] {
        if let b = files[name] { return b }
        guard let b = try read(name) else { throw Fallback("\(name.name(framing)) is missing") }
        files[name] = b
        return b
    }

    private mutating func shard(_ s: Int) throws -> WebShardFile {
        if let file = shards[s] { return file }
        guard let file = WebShardFile(try bytes(.shard(s)), name: .shard(s), framing: framing) else {
            throw Fallback("\(FileName.shard(s).name(framing)) is not a shard of this export")
        }
        shards[s] = file
        return file
    }

    /// The own file `k`; its one entry holds postings.
    private mutating func tokenFile(_ k: Int) throws -> WebShardFile {
        if let file = tokenFiles[k] { return file }
        guard let file = WebShardFile(try bytes(.token(k)), name: .token(k), framing: framing), file.entries.count == 1,
              case .postings = file.entries[0].value else {
            throw Fallback("\(FileName.token(k).name(framing)) is not a token file of this export")
        }
        tokenFiles[k] = file
        return file
    }

    /// The file holding the postings of entry `e` of shard `s`, the entry there, and its own file's number.
    private mutating func postings(shard s: Int, entry e: Int) throws -> (file: WebShardFile, entry: WebShardFile.Entry, ownFile: Int?) {
        let file = try shard(s)
        let entry = file.entries[e]
        guard case .ownFile(let k) = entry.value else { return (file, entry, nil) }
        let own = try tokenFile(k)
        guard own.bytes[own.entries[0].key].elementsEqual(file.bytes[entry.key]) else {
            throw Fallback("\(FileName.token(k).name(framing)) holds another token than its shard names")
        }
        return (own, own.entries[0], k)
    }

    /// The document of the first record of entry `e` of shard `s`.
    private mutating func firstDocument(shard s: Int, entry e: Int) throws -> Int {
        let (file, entry, _) = try postings(shard: s, entry: e)
        guard case .postings(_, _, let range) = entry.value,
              let first = try? WebPostingsScanner.firstDocument(file.bytes, range: range, maxPositions: cap) else {
            throw Fallback("a token of shard \(s) has no readable postings")
        }
        return first
    }

    /// The rank of each token of document `f` (not the replaced one), by key.
    private mutating func ranks(ofDocument f: Int) throws -> [[UInt8]: Int] {
        if let ranks = otherDocuments[f] { return ranks }
        let fileBytes = try bytes(.doc(f))
        guard var document = WebExportReading.document(fileBytes, number: f, framing: framing) else {
            throw Fallback("\(FileName.doc(f).name(framing)) is unreadable")
        }
        document.status = filterDocuments[f].status
        document.tags = filterDocuments[f].tags
        let tokenized = WebPatchDocument(document, number: f, maxPositions: cap, glossary: glossary, framing: framing)
        guard tokenized.file == Data(fileBytes) else { throw Fallback("\(FileName.doc(f).name(framing)) does not read back losslessly") }
        var ranks: [[UInt8]: Int] = [:]
        for (r, token) in tokenized.tokens.enumerated() { ranks[Self.key(token)] = r }
        otherDocuments[f] = ranks
        return ranks
    }

    static func key(_ token: String) -> [UInt8] {
        var w = JSONWriter()
        w.string(token)
        return w.bytes
    }

    static func idfText(df: Int, n: Int) -> [UInt8] {
        Array(SearchIndex.idf(df: Double(df), n: Double(n)).description.utf8)
    }

    // MARK: Patching

    mutating func replace(with new: SearchDocument) throws -> ([FileName: Data], SearchWebPatch.State) {
        guard state.formatVersion == SearchWebExport.formatVersion else { throw Fallback("the state is of another web format") }
        guard !state.shardCountRequested else { throw Fallback("the shard count was given to the build, not recommended") }
        guard state.documentCount == n, d >= 0, d < n else { throw Fallback("document \(d) is not one of the \(state.documentCount)") }
        guard state.ownFileRecords == ownFileRecords else { throw Fallback("the export was built with another ownFileRecords") }
        let shardCount = state.shardCount

        // The metadata must be the one these parameters, glossary and field totals make.
        let metaBytes = try bytes(.meta)
        guard let meta = WebExportReading.meta(metaBytes, framing: framing) else { throw Fallback("the metadata is unreadable") }
        guard meta.documentCount == n, meta.tokenCount == state.tokenCount, meta.shardCount == shardCount else {
            throw Fallback("the metadata does not match the patch state")
        }
        var totals = meta.averageFieldLengths.map { Int(($0 * Double(n)).rounded()) }
        let oldMeta = WebMetaFile(parameters: parameters, glossary: glossary,
                                  averageFieldLengths: totals.map { Double($0) / Double(n) }, documentCount: n,
                                  tokenCount: state.tokenCount, shardCount: shardCount).bytes(framing: framing)
        guard oldMeta == Data(metaBytes) else {
            throw Fallback("the metadata is not what these parameters and glossary make, or its field totals do not round-trip")
        }
        guard SearchWebExport.recommendedShardCount(inlineBytes: state.inlineBytes, tokenCount: state.tokenCount,
                                                    documentCount: n) == shardCount else {
            throw Fallback("the shard count is not the one the patch state recommends")
        }

        // The old version, from its file and the filters, checked by making its file again.
        let docBytes = try bytes(.doc(d))
        guard var old = WebExportReading.document(docBytes, number: d, framing: framing) else {
            throw Fallback("\(FileName.doc(d).name(framing)) is unreadable")
        }
        let filtersBytes = try bytes(.filters)
        guard let filters = WebExportReading.filters(filtersBytes, documentCount: n, framing: framing),
              filters[d].lang == old.lang else { throw Fallback("the filters are unreadable or do not match the documents") }
        filterDocuments = filters
        old.status = filters[d].status
        old.tags = filters[d].tags
        guard new.id == old.id else { throw Fallback("the new version has another id") }
        let before = WebPatchDocument(old, number: d, maxPositions: cap, glossary: glossary, framing: framing)
        guard before.file == Data(docBytes) else { throw Fallback("\(FileName.doc(d).name(framing)) does not read back losslessly") }
        let after = WebPatchDocument(new, number: d, maxPositions: cap, glossary: glossary, framing: framing)

        // The tokens of either version.
        var changes: [Change] = []
        var changeOf: [String: Int] = [:]
        func add(_ version: WebPatchDocument, _ r: Int) -> Int {
            let token = version.tokens[r]
            if let c = changeOf[token] { return c }
            changeOf[token] = changes.count
            changes.append(Change(token: token, key: Self.key(token), nameLength: version.nameLengths[r],
                                  shard: Int(version.hashes[r] % UInt32(shardCount))))
            return changes.count - 1
        }
        // Texts that tokenize alike (a new URL, language, status, tags, label or anchor) leave
        // every postings file as it is.
        let sameTokens = before.tokens == after.tokens && before.records == after.records
        if !sameTokens {
            for r in after.tokens.indices { changes[add(after, r)].newRank = r }
            for r in before.tokens.indices { changes[add(before, r)].oldRank = r }
        }
        for c in changes.indices { try splice(&changes[c], before: before, after: after) }

        // Counts, the shard count, and the order of the tokens with files of their own.
        var tokenCount = state.tokenCount, inlineBytes = state.inlineBytes
        for c in changes {
            if c.oldEntry == nil && c.newDf > 0 { tokenCount += 1 }
            if c.oldEntry != nil && c.newDf == 0 { tokenCount -= 1 }
            inlineBytes += c.newWeight - c.oldWeight
        }
        guard SearchWebExport.recommendedShardCount(inlineBytes: inlineBytes, tokenCount: tokenCount, documentCount: n) == shardCount else {
            throw Fallback("the recommended shard count changes")
        }
        try checkOwnFileOrder(changes)

        var out: [FileName: Data] = [:]
        func put(_ name: FileName, _ data: [UInt8]) throws {
            if try bytes(name) != data { out[name] = Data(data) }
        }

        // Shards and token files.
        var byShard: [Int: [Int]] = [:]
        for c in changes.indices where !changes[c].unchanged || changes[c].oldFirst == d { byShard[changes[c].shard, default: []].append(c) }
        for s in byShard.keys.sorted() {
            try put(.shard(s), try rewriteShard(s, changes: byShard[s]!.map { changes[$0] }))
        }
        for c in changes where c.ownFile != nil && c.newDf > 0 && !c.unchanged {
            let k = c.ownFile!
            let entry = WebShardFile.entry(key: c.key, df: c.newDf, idf: SearchIndex.idf(df: Double(c.newDf), n: Double(n)),
                                           postings: c.newPostings)
            try put(.token(k), WebShardFile.write(.token(k), framing: framing, entries: [entry[...]]))
        }

        // Vocabulary files: listed words whose document frequency changes.
        let vocabularyCount = SearchExpansionRules.vocabularyFileCount(shardCount: shardCount)
        var vocabularyChanges: [Int: [(String, Int)]] = [:]
        for c in changes where c.oldDf != c.newDf {
            guard let place = WebVocabularyFile.place(of: c.token, fileCount: vocabularyCount) else { continue }
            vocabularyChanges[place.file, default: []].append((c.token, c.newDf))
        }
        for v in vocabularyChanges.keys.sorted() {
            let old = try bytes(.vocabulary(v))
            guard var file = WebVocabularyFile(old, number: v, framing: framing),
                  file.write(number: v, framing: framing) == Data(old) else {
                throw Fallback("\(FileName.vocabulary(v).name(framing)) does not read back losslessly")
            }
            for (token, df) in vocabularyChanges[v]! {
                if df == 0 { file.words[token] = nil } else { file.words[token] = df }
            }
            try put(.vocabulary(v), [UInt8](file.write(number: v, framing: framing)))
        }

        // Metadata, filters and the document's file.
        for f in totals.indices { totals[f] += after.fieldLengths[f] - before.fieldLengths[f] }
        let newMeta = WebMetaFile(parameters: parameters, glossary: glossary,
                                  averageFieldLengths: totals.map { Double($0) / Double(n) }, documentCount: n,
                                  tokenCount: tokenCount, shardCount: shardCount).bytes(framing: framing)
        try put(.meta, [UInt8](newMeta))
        let newFilter = WebExportReading.FilterDocument(lang: new.lang, status: new.status, tags: new.tags)
        if newFilter != filters[d] {
            let oldFilters = WebFiltersFile(documents: (0..<n).map { i in
                WebFiltersFile.Document(lang: filters[i].lang, status: filters[i].status, tags: filters[i].tags)
            }).bytes(framing: framing)
            guard oldFilters == Data(filtersBytes) else { throw Fallback("the filters do not read back losslessly") }
            let newFilters = WebFiltersFile(documents: (0..<n).map { i in
                let f = i == d ? newFilter : filters[i]
                return WebFiltersFile.Document(lang: f.lang, status: f.status, tags: f.tags)
            }).bytes(framing: framing)
            try put(.filters, [UInt8](newFilters))
        }
        try put(.doc(d), [UInt8](after.file))

        var newState = state
        newState.tokenCount = tokenCount
        newState.inlineBytes = inlineBytes
        return (out, newState)
    }

    /// Finds a token's postings, cuts out the old version's records and puts in the new one's,
    /// with the head of the next document's first record written anew.
    private mutating func splice(_ c: inout Change, before: WebPatchDocument, after: WebPatchDocument) throws {
        let oldRecords = c.oldRank.map { before.records[$0] }, newRecords = c.newRank.map { after.records[$0] }
        guard let e = try shard(c.shard).index[c.key] else {
            guard c.oldRank == nil else { throw Fallback("a token of the old version is missing from its shard") }
            // A new token: only in this document.
            c.newDf = 1
            c.newFirst = d
            WebDigits.append(2 * d + 1, WebDigits.headT, to: &c.newPostings)
            c.newPostings += newRecords!
            guard after.recordCounts[c.newRank!] <= ownFileRecords else {
                throw Fallback("a new token has more than ownFileRecords records")
            }
            c.newWeight = c.nameLength + c.newPostings.count + 32
            return
        }
        c.oldEntry = e
        if let oldRecords, let newRecords, oldRecords == newRecords, case .ownFile(let k) = try shard(c.shard).entries[e].value {
            // Records alike in both versions of a token with a file of its own: the file stays as
            // it is, and only its head is read (for the first document; see below).
            try keepOwnFile(k, &c, shardKey: shard(c.shard).entries[e].key, shard: c.shard)
            return
        }
        let (file, entry, ownFile) = try postings(shard: c.shard, entry: e)
        c.ownFile = ownFile
        guard case .postings(let df, let idf, let range) = entry.value else { throw Fallback("no postings") }
        guard file.bytes[idf].elementsEqual(Self.idfText(df: df, n: n)) else { throw Fallback("an idf is not the one its df makes") }
        c.oldDf = df
        c.oldWeight = ownFile != nil ? c.nameLength + 8 : c.nameLength + range.count + 32

        // Records alike in both versions: the postings stay (only the first document is needed,
        // for the order of the tokens first met in this document).
        if let oldRecords, let newRecords, oldRecords == newRecords {
            guard let first = try? WebPostingsScanner.firstDocument(file.bytes, range: range, maxPositions: cap) else {
                throw Fallback("malformed postings")
            }
            c.unchanged = true
            c.newDf = df
            c.oldFirst = first
            c.newFirst = first
            c.newWeight = c.oldWeight
            c.newPostings = Array(file.bytes[range])
            return
        }

        // A token with a file of its own that keeps more documents than `ownFileRecords` keeps
        // more records too: its postings are read only up to this document's records (the
        // rest is copied as it is); other postings are read whole and their counts checked.
        let keepsOwnFile = ownFile != nil && df - 1 > ownFileRecords
        let span: WebPostingsSpan
        do {
            span = try WebPostingsScanner.locate(document: d, in: file.bytes, range: range, maxPositions: cap,
                                                 stopAfterDocument: keepsOwnFile)
        } catch {
            throw Fallback("malformed postings: \(error)")
        }
        guard keepsOwnFile || (span.totalDocuments == df && (ownFile != nil) == (span.totalRecords > ownFileRecords)) else {
            throw Fallback("postings that do not match their df or file")
        }
        // The old version's records must be those the export made of the recovered document.
        if let oldRecords {
            guard span.records == before.recordCounts[c.oldRank!], file.bytes[span.headEnd..<span.end].elementsEqual(oldRecords) else {
                throw Fallback("the old version's records are not those of its file")
            }
        } else {
            guard span.records == 0 else { throw Fallback("the postings have records of a token the old version lacks") }
        }
        var out = Array(file.bytes[range.lowerBound..<span.start])
        var last = span.previousDocument
        if let newRecords {
            WebDigits.append(2 * (d - last) + 1, WebDigits.headT, to: &out)
            out += newRecords
            last = d
        }
        if let next = span.nextDocument {
            WebDigits.append(2 * (next - last) + 1, WebDigits.headT, to: &out)
            out += file.bytes[span.nextHeadEnd..<range.upperBound]
        }
        c.newPostings = out
        c.oldFirst = span.firstDocument
        c.newDf = df - (oldRecords == nil ? 0 : 1) + (newRecords == nil ? 0 : 1)
        if c.newDf > 0 {
            let hasEarlier = span.firstDocument.map { $0 < d } ?? false
            c.newFirst = hasEarlier ? span.firstDocument : newRecords != nil ? d : span.nextDocument
        }
        if c.newDf == 0 {
            guard ownFile == nil else { throw Fallback("a token with a file of its own disappears") }
            return
        }
        if !keepsOwnFile {
            let records = span.totalRecords - span.records + (c.newRank.map { after.recordCounts[$0] } ?? 0)
            guard (ownFile != nil) == (records > ownFileRecords) else {
                throw Fallback("a token crosses ownFileRecords")
            }
        }
        c.newWeight = ownFile != nil ? c.nameLength + 8 : c.nameLength + out.count + 32
    }

    /// `c` is a token with its own file `k` whose records are alike in both versions: checks the
    /// file's head (its key is the shard's, its idf the one its df makes) and reads its first
    /// document, without reading the postings after the first record.
    private mutating func keepOwnFile(_ k: Int, _ c: inout Change, shardKey: Range<Int>, shard s: Int) throws {
        // The file's start is enough unless its key or first record is longer (then all of it).
        let whole = files[.token(k)] != nil
        var bytes: [UInt8]
        if whole {
            bytes = try self.bytes(.token(k))
        } else {
            guard let start = try readHead(.token(k), Self.ownFileHeadBytes) else {
                throw Fallback("\(FileName.token(k).name(framing)) is missing")
            }
            bytes = start
        }
        var parsed = WebShardFile.ownFileHead(bytes, name: .token(k), framing: framing, isPrefix: !whole)
        var first = parsed.flatMap { try? WebPostingsScanner.firstDocument(bytes, range: $0.postings, maxPositions: cap) }
        if first == nil && !whole {
            bytes = try self.bytes(.token(k))
            parsed = WebShardFile.ownFileHead(bytes, name: .token(k), framing: framing)
            first = parsed.flatMap { try? WebPostingsScanner.firstDocument(bytes, range: $0.postings, maxPositions: cap) }
        }
        guard let head = parsed else {
            throw Fallback("\(FileName.token(k).name(framing)) is not a token file of this export")
        }
        guard bytes[head.key].elementsEqual(try shard(s).bytes[shardKey]) else {
            throw Fallback("\(FileName.token(k).name(framing)) holds another token than its shard names")
        }
        guard bytes[head.idf].elementsEqual(Self.idfText(df: head.df, n: n)) else { throw Fallback("an idf is not the one its df makes") }
        guard let first else { throw Fallback("malformed postings") }
        c.ownFile = k
        c.unchanged = true
        c.oldDf = head.df
        c.newDf = head.df
        c.oldFirst = first
        c.newFirst = first
        c.oldWeight = c.nameLength + 8
        c.newWeight = c.oldWeight
    }

    /// The bytes read of a token file whose postings stay as they are: its framing (about 40
    /// bytes), key, df, idf and first record fit in them unless the key or the record is unusually
    /// long (the whole file is read then). A body edit keeps hundreds of such files, so a larger
    /// head is hundreds of pages copied for nothing.
    static let ownFileHeadBytes = 512

    /// Token files are numbered in vocabulary order: a token with a file of its own whose place
    /// may change (its first document changes, or is this document, where its rank may change)
    /// must stay between the files numbered before and after it.
    private mutating func checkOwnFileOrder(_ changes: [Change]) throws {
        var changeOfFile: [Int: Change] = [:]
        for c in changes { if let k = c.ownFile { changeOfFile[k] = c } }
        /// First document, key and (when known) rank there of the token of file k, after the patch.
        func place(_ k: Int) throws -> (first: Int, key: [UInt8], rank: Int?) {
            if let c = changeOfFile[k] { return (c.newFirst!, c.key, c.newFirst == d ? c.newRank : nil) }
            let file = try tokenFile(k)
            guard case .postings(_, _, let range) = file.entries[0].value,
                  let first = try? WebPostingsScanner.firstDocument(file.bytes, range: range, maxPositions: cap) else {
                throw Fallback("\(FileName.token(k).name(framing)) has no readable postings")
            }
            return (first, Array(file.bytes[file.entries[0].key]), nil)
        }
        func inOrder(_ a: Int, _ b: Int) throws -> Bool {
            let x = try place(a), y = try place(b)
            if x.first != y.first { return x.first < y.first }
            if x.first == d {
                guard let rx = x.rank, let ry = y.rank else { throw Fallback("a token first met in this document is not in it") }
                return rx < ry
            }
            let ranks = try ranks(ofDocument: x.first)
            guard let rx = ranks[x.key], let ry = ranks[y.key] else { throw Fallback("a token's first document does not have it") }
            return rx < ry
        }
        for (k, c) in changeOfFile.sorted(by: { $0.key < $1.key }) where c.oldFirst == d || c.newFirst == d || c.oldFirst != c.newFirst {
            guard k < state.tokenFileCount else { throw Fallback("a token file beyond the patch state's count") }
            if k > 0, try !inOrder(k - 1, k) { throw Fallback("the order of the tokens with files of their own changes") }
            if k + 1 < state.tokenFileCount, try !inOrder(k, k + 1) { throw Fallback("the order of the tokens with files of their own changes") }
        }
    }

    /// Shard `s` with `changes` (its tokens of either version) applied: entries rewritten in
    /// place, dropped, or placed where their first document puts them in the vocabulary order.
    private mutating func rewriteShard(_ s: Int, changes: [Change]) throws -> [UInt8] {
        let file = try shard(s)
        /// An entry of the new shard: its bytes, its key and, when known, its place in the
        /// vocabulary order (first document, rank there).
        struct Item {
            var bytes: ArraySlice<UInt8>
            var key: ArraySlice<UInt8>
            var entry: Int?
            var first: Int?
            var rank: Int?
        }
        var replaced: [Int: Item] = [:]
        var removed = Set<Int>()
        var placed: [Item] = []
        for c in changes {
            if c.newDf == 0 {
                if let e = c.oldEntry { removed.insert(e) }
                continue
            }
            let bytes: [UInt8]
            if let k = c.ownFile {
                bytes = c.key + Array(":\(k)".utf8)
            } else {
                bytes = WebShardFile.entry(key: c.key, df: c.newDf, idf: SearchIndex.idf(df: Double(c.newDf), n: Double(n)),
                                           postings: c.newPostings)
            }
            var item = Item(bytes: bytes[...], key: c.key[...], entry: c.oldEntry, first: c.newFirst)
            if let e = c.oldEntry, c.oldFirst == c.newFirst, c.newFirst != d {
                replaced[e] = item
            } else {
                if let e = c.oldEntry { removed.insert(e) }
                let f = c.newFirst!
                if f == d {
                    item.rank = c.newRank
                } else {
                    guard let r = try ranks(ofDocument: f)[c.key] else {
                        throw Fallback("a token's first document does not have it")
                    }
                    item.rank = r
                }
                placed.append(item)
            }
        }
        var items: [Item] = []
        for (e, entry) in file.entries.enumerated() where !removed.contains(e) {
            items.append(replaced[e] ?? Item(bytes: file.bytes[entry.whole], key: file.bytes[entry.key], entry: e))
        }
        placed.sort { ($0.first!, $0.rank!) < ($1.first!, $1.rank!) }
        for p in placed {
            let f = p.first!, r = p.rank!
            // Binary search for the first item after the placed one (items are in vocabulary order).
            var lo = 0, hi = items.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if items[mid].first == nil { items[mid].first = try firstDocument(shard: s, entry: items[mid].entry!) }
                let first = items[mid].first!
                var isAfter = first > f
                if first == f {
                    if items[mid].rank == nil {
                        guard f != d, let rank = try ranks(ofDocument: f)[Array(items[mid].key)] else {
                            throw Fallback("a token's first document does not have it")
                        }
                        items[mid].rank = rank
                    }
                    isAfter = items[mid].rank! > r
                }
                if isAfter { hi = mid } else { lo = mid + 1 }
            }
            items.insert(p, at: lo)
        }
        return WebShardFile.write(.shard(s), framing: framing, entries: items.map(\.bytes))
    }
}
