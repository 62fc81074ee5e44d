import CCmark
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A bump allocator for cmark, one per thread. Everything cmark allocates while it parses one
/// document and while that document is converted and rendered (nodes, line buffers, literals,
/// rendered HTML) is carved out of a few large blocks, and all of it is released at once when
/// `withDocument` returns, instead of being allocated and freed piece by piece with malloc.
///
/// cmark's allocator callbacks carry no context, so each thread finds its arena through a
/// thread-local key. Blocks are kept for the thread's next document (up to `retainedBlocks`).
enum CmarkArena {
    /// Usable bytes of a regular block.
    static let blockSize = 256 << 10
    /// Regular blocks a thread keeps between documents; more are freed after the document.
    static let retainedBlocks = 8
    /// Allocations larger than this get a block of their own.
    static let largeAllocation = 64 << 10

    /// Every allocation is preceded by a header holding its size, and is 16-byte aligned.
    private static let headerSize = 16
    private static let alignment = 16

    /// A thread's arena. Blocks are malloc'd: a 16-byte link (the next block) precedes the
    /// usable bytes.
    private struct State {
        /// The first regular block; the chain continues through each block's link.
        var first: UnsafeMutableRawPointer?
        /// The regular block being carved, and its free bytes.
        var current: UnsafeMutableRawPointer?
        var next: UnsafeMutableRawPointer?
        var end: UnsafeMutableRawPointer?
        /// Blocks of single large allocations, chained the same way.
        var large: UnsafeMutableRawPointer?
        /// Nesting of `withDocument` on this thread; memory is released when it returns to 0.
        var depth = 0
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let created = pthread_key_create(&key) { raw in
            guard let state = raw?.assumingMemoryBound(to: State.self) else { return }
            CmarkArena.freeChain(state.pointee.first)
            CmarkArena.freeChain(state.pointee.large)
            state.deinitialize(count: 1)
            state.deallocate()
        }
        precondition(created == 0, "cannot create the thread-local key of the cmark arena")
        return key
    }()

    /// The allocator to hand cmark (`cmark_parser_new_with_mem`).
    /// Written once, then only read.
    nonisolated(unsafe) private static let memory: UnsafeMutablePointer<cmark_mem> = {
        let memory = UnsafeMutablePointer<cmark_mem>.allocate(capacity: 1)
        memory.initialize(to: cmark_mem(
            calloc: { count, size in
                let (total, overflow) = count.multipliedReportingOverflow(by: size)
                guard !overflow else { fatalError("cmark asked for \(count) × \(size) bytes") }
                let pointer = CmarkArena.allocate(total)
                memset(pointer, 0, total)
                return pointer
            },
            realloc: { pointer, size in CmarkArena.reallocate(pointer, size) },
            free: { _ in }))
        return memory
    }()

    /// Runs `body` with the thread's arena allocator; everything allocated from it is released
    /// when the outermost `withDocument` on the thread returns, so no cmark object (node,
    /// iterator, rendered string) may be used after that.
    static func withDocument<R>(_ body: (UnsafeMutablePointer<cmark_mem>) throws -> R) rethrows -> R {
        let state = threadState()
        state.pointee.depth += 1
        defer {
            state.pointee.depth -= 1
            if state.pointee.depth == 0 { reset(state) }
        }
        return try body(memory)
    }

    private static func threadState() -> UnsafeMutablePointer<State> {
        if let raw = pthread_getspecific(key) { return raw.assumingMemoryBound(to: State.self) }
        let state = UnsafeMutablePointer<State>.allocate(capacity: 1)
        state.initialize(to: State())
        pthread_setspecific(key, state)
        return state
    }

    @inline(__always)
    private static func rounded(_ size: Int) -> Int { (size + alignment - 1) & ~(alignment - 1) }

    @inline(__always)
    private static func size(of pointer: UnsafeMutableRawPointer) -> Int {
        (pointer - headerSize).load(as: Int.self)
    }

    private static func allocate(_ size: Int) -> UnsafeMutableRawPointer {
        guard let raw = pthread_getspecific(key) else { fatalError("cmark allocated outside CmarkArena.withDocument") }
        let state = raw.assumingMemoryBound(to: State.self)
        let needed = headerSize + rounded(size)
        if size > largeAllocation {
            let block = newBlock(needed)
            block.storeBytes(of: state.pointee.large, as: UnsafeMutableRawPointer?.self)
            state.pointee.large = block
            return place(size, at: block + headerSize)
        }
        if let next = state.pointee.next, let end = state.pointee.end, end - next >= needed {
            state.pointee.next = next + needed
            return place(size, at: next)
        }
        // The current block is full: move to the next block of the chain, or add one.
        let following = state.pointee.current?.load(as: UnsafeMutableRawPointer?.self)
        let block: UnsafeMutableRawPointer
        if let following {
            block = following
        } else {
            block = newBlock(blockSize)
            block.storeBytes(of: nil as UnsafeMutableRawPointer?, as: UnsafeMutableRawPointer?.self)
            if let current = state.pointee.current {
                current.storeBytes(of: block, as: UnsafeMutableRawPointer?.self)
            } else {
                state.pointee.first = block
            }
        }
        state.pointee.current = block
        state.pointee.next = block + headerSize + needed
        state.pointee.end = block + headerSize + blockSize
        return place(size, at: block + headerSize)
    }

    @inline(__always)
    private static func place(_ size: Int, at header: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        header.storeBytes(of: size, as: Int.self)
        return header + headerSize
    }

    private static func reallocate(_ pointer: UnsafeMutableRawPointer?, _ size: Int) -> UnsafeMutableRawPointer {
        guard let pointer else { return allocate(size) }
        let old = self.size(of: pointer)
        // The last allocation of the current block grows (or shrinks) in place when it fits.
        if size <= largeAllocation, let raw = pthread_getspecific(key) {
            let state = raw.assumingMemoryBound(to: State.self)
            if let next = state.pointee.next, let end = state.pointee.end, pointer + rounded(old) == next,
               end - pointer >= rounded(size) {
                (pointer - headerSize).storeBytes(of: size, as: Int.self)
                state.pointee.next = pointer + rounded(size)
                return pointer
            }
        }
        let moved = allocate(size)
        moved.copyMemory(from: pointer, byteCount: min(old, size))
        return moved
    }

    /// A malloc'd block with room for `size` bytes after its link.
    private static func newBlock(_ size: Int) -> UnsafeMutableRawPointer {
        guard let block = malloc(headerSize + size) else { fatalError("out of memory for cmark (\(size) bytes)") }
        return block
    }

    private static func freeChain(_ first: UnsafeMutableRawPointer?) {
        var block = first
        while let current = block {
            block = current.load(as: UnsafeMutableRawPointer?.self)
            free(current)
        }
    }

    /// Releases everything: large blocks are freed, regular blocks beyond `retainedBlocks`
    /// too, and carving starts again at the first block.
    private static func reset(_ state: UnsafeMutablePointer<State>) {
        freeChain(state.pointee.large)
        state.pointee.large = nil
        var kept = 1
        var block = state.pointee.first
        while let current = block, kept < retainedBlocks {
            block = current.load(as: UnsafeMutableRawPointer?.self)
            kept += 1
        }
        if let last = block {
            freeChain(last.load(as: UnsafeMutableRawPointer?.self))
            last.storeBytes(of: nil as UnsafeMutableRawPointer?, as: UnsafeMutableRawPointer?.self)
        }
        state.pointee.current = nil
        state.pointee.next = nil
        state.pointee.end = nil
        if let first = state.pointee.first {
            state.pointee.current = first
            state.pointee.next = first + headerSize
            state.pointee.end = first + headerSize + blockSize
        }
    }
}
