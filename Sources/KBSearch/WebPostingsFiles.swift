import Foundation
import KBCore

/// The postings files of the web export (docs/search.md §6): `search-shard-<i>.json`, the
/// tokens whose FNV-1a hash falls in shard `i`, each `"token":[df,idf,"<postings>"]`, or
/// `"token":k` for a token with more than `ownFileRecords` records, whose postings are in its
/// own file `search-token-<k>.json` (`{"v":…,"t":{"token":[df,idf,"<postings>"]}}`).
struct WebPostingsFiles {
    let postings: MergedPostings
    let shardCount: Int
    /// The tokens with a file of their own, in token order (file `k` is `ownFileTokens[k]`'s).
    let ownFileTokens: [Int32]
    /// Per token: the number of its own file, or -1.
    private let ownFile: [Int32]
    /// The tokens of each shard, in token order.
    private let tokensOfShard: [[Int32]]
    /// Per token: the length of its postings.
    private let lengths: [Int]
    /// About how many bytes the shards hold (what the shard count is chosen from).
    let inlineBytes: Int

    init(_ postings: MergedPostings, ownFileRecords: Int, shardCount requested: Int?, documentCount: Int) {
        self.postings = postings
        let v = postings.tokenCount
        let tokens = postings.vocabulary
        lengths = (0..<v).map { postings.length(ofToken: $0, WebPostings.self) }
        var ownFile = [Int32](repeating: -1, count: v)
        var ownFileTokens: [Int32] = []
        var inlineBytes = 0
        for t in 0..<v {
            let name = Int(tokens.ends[t]) - tokens.start(t)
            if Int(postings.recordCount[t]) > ownFileRecords {
                ownFile[t] = Int32(ownFileTokens.count)
                ownFileTokens.append(Int32(t))
                inlineBytes += name + 8
            } else {
                inlineBytes += name + lengths[t] + 32
            }
        }
        shardCount = max(1, requested ?? SearchWebExport.recommendedShardCount(inlineBytes: inlineBytes, tokenCount: v,
                                                                               documentCount: documentCount))
        var tokensOfShard = [[Int32]](repeating: [], count: shardCount)
        for t in 0..<v { tokensOfShard[Int(tokens.hashes[t] % UInt32(shardCount))].append(Int32(t)) }
        self.ownFile = ownFile
        self.ownFileTokens = ownFileTokens
        self.tokensOfShard = tokensOfShard
        self.inlineBytes = inlineBytes
    }

    /// Shards, then token files.
    var fileCount: Int { shardCount + ownFileTokens.count }

    /// Makes file `k` (shard `k`, or token file `k - shardCount`) and hands it to `body` as the
    /// pieces that make it up in order: a shard is one piece; a token file's postings are not
    /// copied, its pieces are the accumulators' record streams themselves, with what is written
    /// around and between them (the heads of the parts). The pieces are valid only during the call.
    func make<R>(_ k: Int, framing: SearchWebExport.Framing, _ body: ([UnsafeRawBufferPointer]) -> R) -> R {
        var w = WebBytes(capacity: k < shardCount ? 4096 : 256)
        defer { w.free() }
        if k < shardCount {
            SearchWebExport.open(&w, framing, "shard", k)
            w.raw("{\"v\":"); w.int(SearchWebExport.formatVersion); w.raw(",\"t\":{")
            for (j, t32) in tokensOfShard[k].enumerated() {
                let t = Int(t32)
                if j > 0 { w.raw(",") }
                if ownFile[t] >= 0 {
                    writeKey(t, into: &w)
                    w.raw(":"); w.int(Int(ownFile[t]))
                } else {
                    writeEntryStart(t, into: &w)
                    w.records(reserving: lengths[t]) { postings.write(token: t, WebPostings.self, into: &$0) }
                    w.raw("\"]")
                }
            }
            w.raw("}}")
            SearchWebExport.close(&w, framing)
            return body([w.bytes])
        }
        let t = Int(ownFileTokens[k - shardCount])
        SearchWebExport.open(&w, framing, "token", k - shardCount)
        w.raw("{\"v\":"); w.int(SearchWebExport.formatVersion); w.raw(",\"t\":{")
        writeEntryStart(t, into: &w)
        let parts = postings.parts(ofToken: t)
        // Where each head ends in `w` (the part's records go after it).
        var cuts = [w.count]
        cuts.reserveCapacity(parts.count + 1)
        for part in parts {
            w.records(reserving: WebDigits.maxLength) { WebPostings.writeHead(gap: part.gap, into: &$0) }
            cuts.append(w.count)
        }
        w.raw("\"]}}")
        SearchWebExport.close(&w, framing)
        let made = w.bytes
        var pieces = [UnsafeRawBufferPointer(rebasing: made[0..<cuts[0]])]
        pieces.reserveCapacity(2 * parts.count + 2)
        for (j, part) in parts.enumerated() {
            pieces.append(UnsafeRawBufferPointer(rebasing: made[cuts[j]..<cuts[j + 1]]))
            let records = postings.records(part)
            if records.count > 0 { pieces.append(records) }
        }
        pieces.append(UnsafeRawBufferPointer(rebasing: made[cuts[parts.count]...]))
        return body(pieces)
    }

    /// `"token"`.
    private func writeKey(_ t: Int, into w: inout WebBytes) {
        postings.vocabulary.withBytes(ofToken: t) { w.string($0) }
    }

    /// `"token":[df,idf,"`, the start of a token's entry.
    private func writeEntryStart(_ t: Int, into w: inout WebBytes) {
        writeKey(t, into: &w)
        w.raw(":["); w.int(Int(postings.documentFrequency[t])); w.raw(","); w.double(postings.statistics.idf[t]); w.raw(",\"")
    }
}
