/// Reads the process allocator's counters between phases of a measurement (never per event).
public protocol AllocatorStatistics {
    /// Where the figures come from, e.g. `jemalloc 5.3.0` or `glibc-mallinfo2`. Every memory
    /// result carries it.
    var source: String { get }
    /// Bytes currently allocated by the application, with stale counters refreshed first (for
    /// jemalloc: `epoch` is written before `stats.allocated` is read).
    mutating func allocatedBytes() -> Int?
    /// Heap allocations made by the calling thread since it started; `nil` when the allocator
    /// cannot count them.
    mutating func allocationCount() -> Int?
    /// Starts a new peak interval for the calling thread; `false` when unsupported.
    mutating func resetPeak() -> Bool
    /// The highest bytes allocated by the calling thread since `resetPeak()`, above the level at
    /// the reset; `nil` when unsupported.
    mutating func peakBytesSinceReset() -> Int?
}

/// Finds the best allocator statistics available in this process. (Skeleton.)
public enum AllocatorStatisticsDetector {
    /// jemalloc's `mallctl` when the process runs on jemalloc (e.g. preloaded), otherwise the
    /// platform allocator's statistics, otherwise `nil`.
    public static func detect() -> (any AllocatorStatistics)? {
        nil
    }
}
