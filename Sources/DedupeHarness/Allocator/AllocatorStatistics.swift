/// Reads the process allocator's counters between phases of a measurement.
///
/// Counters are running totals or levels: a measurement reads them before and after a phase and
/// takes the difference. The aggregate readings may be expensive (jemalloc merges its statistics
/// on every read), so they are never read per event; only `threadByteCounters()` are.
///
/// A conformer is bound to the thread that created it (jemalloc's per-thread counters are
/// located once, at creation): create it on the thread being measured and use it only there.
package protocol AllocatorStatistics {
    /// Where the figures come from, e.g. `jemalloc 5.3.0` or `glibc-mallinfo2`. Every memory
    /// result carries it.
    var source: String { get }
    /// Bytes currently allocated by the application, with stale counters refreshed first (for
    /// jemalloc: `epoch` is written before `stats.allocated` is read).
    ///
    /// - Complexity: O(arenas) for jemalloc and glibc.
    mutating func allocatedBytes() -> Int?
    /// A running total of heap allocations (successful `malloc`-family requests); `nil` when the
    /// allocator cannot count them. Subtract two readings to get the allocations in between.
    ///
    /// The total is process-wide. It is exact for the calling thread, whose allocator cache is
    /// flushed before reading; another thread's requests are included once its cache flushes,
    /// so measure on an otherwise idle process.
    ///
    /// - Complexity: O(arenas).
    mutating func allocationCount() -> Int?
    /// The calling thread's running totals of bytes allocated and deallocated, counted by usable
    /// size; `nil` when the allocator keeps none. The memory pass reads them around every event
    /// for the peak, so reading them is two loads, with no call through this protocol.
    func threadByteCounters() -> ThreadByteCounters?
}

extension AllocatorStatistics {
    /// Allocators without per-thread byte counters.
    package func threadByteCounters() -> ThreadByteCounters? {
        nil
    }
}

/// Where an allocator keeps one thread's running byte totals (jemalloc's `thread.allocatedp` and
/// `thread.deallocatedp`): valid, and meaningful, only on that thread.
package struct ThreadByteCounters {
    let allocated: UnsafePointer<UInt64>
    let deallocated: UnsafePointer<UInt64>

    /// Bytes allocated and deallocated by the thread so far.
    ///
    /// - Complexity: O(1): two loads.
    package var totals: (allocated: UInt64, deallocated: UInt64) {
        (allocated.pointee, deallocated.pointee)
    }
}
