import KBCore
/// Interned token strings (UTF-8 bytes) with an open-addressing hash table keyed by FNV-1a.
struct TokenTable: Sendable {
    private(set) var bytes: [UInt8] = []
    /// End offset of each token in `bytes`; token `i` starts at `ends[i - 1]` (or 0).
    private(set) var ends: [Int32] = []
    private(set) var hashes: [UInt32] = []
    private(set) var slots: [Int32]
    private var shift: UInt32

    init(capacity: Int = 1024) {
        var bits: UInt32 = 4
        while (1 << bits) < capacity * 2 { bits += 1 }
        slots = Array(repeating: -1, count: 1 << bits)
        shift = 32 - bits
    }

    init(bytes: [UInt8], ends: [Int32]) {
        self.init(capacity: ends.count)
        self.bytes = bytes
        self.ends = ends
        hashes.reserveCapacity(ends.count)
        for i in 0..<ends.count {
            let h = SearchScalars.fnv1a32(bytes[start(i)..<Int(ends[i])])
            hashes.append(h)
            insertSlot(Int32(i), hash: h)
        }
    }

    /// A table read back from its parts (`bytes`, `ends`, `hashes`, `slots`); nil unless they fit
    /// together (ends increasing within `bytes`, a power-of-two slot table at most half full whose
    /// entries are -1 or token ids; hashes are trusted, a wrong one only makes a lookup miss).
    init?(bytes: [UInt8], ends: [Int32], hashes: [UInt32], slots: [Int32]) {
        let n = ends.count
        guard hashes.count == n, slots.count >= 16, slots.count & (slots.count - 1) == 0, n * 2 <= slots.count else { return nil }
        var last: Int32 = 0
        for e in ends { if e <= last { return nil }; last = e }
        guard Int(last) == bytes.count else { return nil }
        var used = 0
        for s in slots {
            guard s >= -1, Int(s) < n else { return nil }
            if s >= 0 { used += 1 }
        }
        guard used == n else { return nil }
        self.bytes = bytes
        self.ends = ends
        self.hashes = hashes
        self.slots = slots
        shift = 32 - UInt32(slots.count.trailingZeroBitCount)
    }

    var count: Int { ends.count }

    @inline(__always)
    func start(_ i: Int) -> Int { i == 0 ? 0 : Int(ends[i - 1]) }

    func string(_ i: Int) -> String {
        String(decoding: bytes[start(i)..<Int(ends[i])], as: UTF8.self)
    }

    @inline(__always)
    private func slotIndex(_ hash: UInt32) -> Int {
        Int((hash &* 0x9E37_79B1) >> shift)
    }

    private mutating func insertSlot(_ id: Int32, hash: UInt32) {
        let mask = slots.count - 1
        var s = slotIndex(hash)
        while slots[s] >= 0 { s = (s + 1) & mask }
        slots[s] = id
    }

    @inline(__always)
    private func equals(_ id: Int, _ p: UnsafePointer<UInt8>, _ len: Int) -> Bool {
        let a = start(id)
        let e = Int(ends[id])
        guard e - a == len else { return false }
        return bytes.withUnsafeBufferPointer { b in
            var k = 0
            while k < len {
                if b[a + k] != p[k] { return false }
                k += 1
            }
            return true
        }
    }

    /// The id of a token, or -1.
    func find(_ p: UnsafePointer<UInt8>, _ len: Int, hash: UInt32) -> Int32 {
        let mask = slots.count - 1
        var s = slotIndex(hash)
        while true {
            let id = slots[s]
            if id < 0 { return -1 }
            if hashes[Int(id)] == hash && equals(Int(id), p, len) { return id }
            s = (s + 1) & mask
        }
    }

    func find(_ token: String) -> Int32 {
        var bytes = Array(token.utf8)
        let h = SearchScalars.fnv1a32(bytes)
        return bytes.withUnsafeMutableBufferPointer { b in
            guard let base = b.baseAddress else { return find(UnsafePointer(bitPattern: 1)!, 0, hash: h) }
            return find(base, b.count, hash: h)
        }
    }

    /// Interns a token; returns its id and whether it is new.
    @inline(__always)
    mutating func intern(_ p: UnsafePointer<UInt8>, _ len: Int, hash: UInt32) -> (Int32, Bool) {
        let mask = slots.count - 1
        var s = slotIndex(hash)
        while true {
            let id = slots[s]
            if id < 0 { break }
            if hashes[Int(id)] == hash && equals(Int(id), p, len) { return (id, false) }
            s = (s + 1) & mask
        }
        let id = Int32(ends.count)
        bytes.append(contentsOf: UnsafeBufferPointer(start: p, count: len))
        ends.append(Int32(bytes.count))
        hashes.append(hash)
        slots[s] = id
        if ends.count * 2 > slots.count { grow() }
        return (id, true)
    }

    /// Interns token `i` of `other`; returns its id here and whether it is new.
    mutating func intern(tokenAt i: Int, of other: TokenTable) -> (Int32, Bool) {
        other.withBytes(ofToken: i) { intern($0.baseAddress!, $0.count, hash: other.hashes[i]) }
    }

    /// Calls `body` with the UTF-8 bytes of token `i`.
    func withBytes<R>(ofToken i: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start(i)..<Int(ends[i])])) }
    }

    private mutating func grow() {
        let bits = 32 - shift + 1
        slots = Array(repeating: -1, count: 1 << bits)
        shift = 32 - bits
        for i in 0..<ends.count { insertSlot(Int32(i), hash: hashes[i]) }
    }
}
