/// Finds the best allocator statistics available in this process.
package enum AllocatorStatisticsDetector {
    /// jemalloc's `mallctl` when the process runs on jemalloc (e.g. preloaded), otherwise the
    /// platform allocator's statistics, otherwise `nil`.
    ///
    /// Call it on the thread that will be measured: the result reads that thread's counters.
    ///
    /// - Complexity: O(1), plus one small allocation to confirm that jemalloc serves `malloc`.
    package static func detect() -> (any AllocatorStatistics)? {
        if let jemalloc = JemallocStatistics() {
            return jemalloc
        }
        return platformStatistics()
    }

    /// The platform allocator's statistics, ignoring jemalloc.
    static func platformStatistics() -> (any AllocatorStatistics)? {
        #if canImport(Glibc) && canImport(CoreFoundation)
        return MallinfoStatistics()
        #elseif canImport(Darwin)
        return MallocZoneStatistics()
        #else
        return nil
        #endif
    }
}
