/// jemalloc's own statistics, read through `mallctl` when the process runs on jemalloc.
///
/// Every aggregate read first flushes the calling thread's cache (`thread.tcache.flush`: cached
/// requests reach the arena statistics only when the cache flushes) and then writes `epoch`
/// (jemalloc serves a snapshot that only `epoch` refreshes). With both, `allocatedBytes()` and
/// `allocationCount()` are exact for the calling thread: `n` `malloc` calls of any size move the
/// count by exactly `n`, and a 1 MiB block moves `stats.allocated` by exactly 1 MiB.
///
///     var statistics = JemallocStatistics()!   // nil unless jemalloc serves malloc
///     let before = statistics.allocationCount()!
///     runSteadyState()
///     let perEvent = Double(statistics.allocationCount()! - before) / Double(events)
///
/// The per-thread byte counters are located once, at creation: use an instance only on the
/// thread that created it.
package struct JemallocStatistics: AllocatorStatistics {
    /// jemalloc's `version` string, e.g. `5.3.0-0-g54eaed1d8b56b1aa528be3bdd1877e59c56fa90c`.
    package let version: String

    let mallctl: Mallctl
    /// jemalloc's own per-thread counters (`thread.allocatedp`, `thread.deallocatedp`).
    let threadAllocated: UnsafeMutablePointer<UInt64>
    let threadDeallocated: UnsafeMutablePointer<UInt64>

    /// Binds to the jemalloc that serves this process's `malloc`; `nil` when there is none.
    ///
    /// Finding `mallctl` is not enough: a library may carry a private jemalloc. So the
    /// initializer allocates one block through the process's `malloc` and keeps the binding only
    /// if this jemalloc's thread counter saw it.
    package init?() {
        guard let mallctl = Mallctl.lookUpInProcess() else { return nil }
        self.init(mallctl: mallctl)
        guard servesProcessMalloc() else { return nil }
    }

    /// Binds to the jemalloc behind `mallctl`; `nil` when it does not answer like jemalloc 5.
    init?(mallctl: Mallctl) {
        guard let version = mallctl.read(.version, as: UnsafePointer<CChar>.self),
            let allocated = mallctl.read(.threadAllocatedPointer, as: UnsafeMutablePointer<UInt64>.self),
            let deallocated = mallctl.read(.threadDeallocatedPointer, as: UnsafeMutablePointer<UInt64>.self),
            mallctl.write(.epoch, UInt64(1))
        else { return nil }
        self.mallctl = mallctl
        self.version = String(cString: version)
        self.threadAllocated = allocated
        self.threadDeallocated = deallocated
        // A reading must not allocate, or the first one after creation would count itself:
        // each runs once now, so the control names it uses (created lazily) already exist.
        _ = allocationCount()
        _ = allocatedBytes()
    }

    /// `jemalloc 5.3.0`: the release, without the git suffix of `version`.
    package var source: String {
        "jemalloc " + (version.split(separator: "-").first.map(String.init) ?? version)
    }

    package mutating func allocatedBytes() -> Int? {
        refresh()
        return mallctl.read(.allocated, as: Int.self)
    }

    /// Small plus large allocation requests over all arenas (`MALLCTL_ARENAS_ALL`, 4096).
    ///
    /// `nrequests` counts requests, including those a cache served; `nmalloc` would count cache
    /// refills instead and is exact only with caches off.
    package mutating func allocationCount() -> Int? {
        refresh()
        guard let small = mallctl.read(.smallRequests, as: UInt64.self),
            let large = mallctl.read(.largeRequests, as: UInt64.self)
        else { return nil }
        return Int(truncatingIfNeeded: small &+ large)
    }

    package func threadByteCounters() -> ThreadByteCounters? {
        ThreadByteCounters(allocated: threadAllocated, deallocated: threadDeallocated)
    }

    /// Moves the calling thread's cached requests into the arena statistics, then refreshes the
    /// snapshot. The flush fails harmlessly when caches are off (`MALLOC_CONF=tcache:false`).
    private func refresh() {
        _ = mallctl.perform(.threadCacheFlush)
        _ = mallctl.write(.epoch, UInt64(1))
    }

    /// Whether a block from the process's `malloc` shows up in this jemalloc's thread counter.
    ///
    /// `malloc` and `free` are called through pointers from the symbol lookup: the optimizer
    /// removes a direct `malloc`/`free` pair whose block is unused, which would fail the check
    /// in release builds.
    private func servesProcessMalloc() -> Bool {
        typealias Malloc = @convention(c) (Int) -> UnsafeMutableRawPointer?
        typealias Free = @convention(c) (UnsafeMutableRawPointer?) -> Void
        guard let mallocSymbol = Mallctl.lookUpSymbol("malloc"), let freeSymbol = Mallctl.lookUpSymbol("free")
        else { return false }
        let probeSize = 4096
        let before = threadAllocated.pointee
        guard let block = unsafeBitCast(mallocSymbol, to: Malloc.self)(probeSize) else { return false }
        let after = threadAllocated.pointee
        unsafeBitCast(freeSymbol, to: Free.self)(block)
        return after &- before >= UInt64(probeSize)
    }
}
