/// A column of plain values (`Int32`, `UInt8`, …) in one heap allocation, read and written by
/// index: the scratch columns of the postings accumulator (`DocumentRecords`).
///
/// Why it is unsafe: those loops read and write several columns per token occurrence. As Arrays
/// held in a struct, every write pays a uniqueness check and a bounds check, which is why the
/// code used to open each array as a buffer pointer, in nested closures. A
/// column is a final class instead (shared by reference, never copied on write) that owns its
/// allocation and indexes it through a pointer.
///
/// Why it is sound: the allocation lives as long as the column; an index is checked by `assert`
/// (in debug builds and tests), and callers size a column with `ensureCount` before a loop
/// indexes it. `ColumnBufferTests` runs the same operations on a column and on an Array.
final class ColumnBuffer<Element: BitwiseCopyable>: @unchecked Sendable {
    private var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    /// Number of elements.
    private(set) var count: Int
    /// The value of elements that `ensureCount` adds.
    let filler: Element

    init(repeating filler: Element, count: Int = 0) {
        self.filler = filler
        self.count = count
        capacity = max(16, count)
        base = .allocate(capacity: capacity)
        base.initialize(repeating: filler, count: count)
    }

    deinit { base.deallocate() }

    @inline(__always)
    subscript(i: Int) -> Element {
        get {
            assert(i >= 0 && i < count, "column index out of range")
            return base[i]
        }
        set {
            assert(i >= 0 && i < count, "column index out of range")
            base[i] = newValue
        }
    }

    /// Makes the column at least `n` long; the new elements are `filler`.
    func ensureCount(_ n: Int) {
        guard n > count else { return }
        if n > capacity {
            var c = capacity * 2
            while c < n { c *= 2 }
            let grown = UnsafeMutablePointer<Element>.allocate(capacity: c)
            grown.moveInitialize(from: base, count: count)
            base.deallocate()
            base = grown
            capacity = c
        }
        (base + count).initialize(repeating: filler, count: n - count)
        count = n
    }

    /// The elements, as an Array.
    var elements: [Element] { Array(UnsafeBufferPointer(start: base, count: count)) }
}
