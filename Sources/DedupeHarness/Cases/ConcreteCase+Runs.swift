import DedupeMeasurement
import DedupeWorkloads
import PushDedupe

extension _CaseLoop {
    /// One untimed run over the whole workload, then (for filters) `probes` never-consumed ids
    /// asked with `contains` to measure the false-positive rate at the final fill.
    mutating func runForCorrectness(_ columns: EventColumns, probes: Int, seed: UInt64) -> _CorrectnessRun {
        // One spare byte, so an empty workload still has a buffer to point at.
        var decisions = [UInt8](repeating: 0, count: columns.count + 1)
        var created = [Bool](repeating: false, count: max(1, columns.envelopeCount))
        decisions.withUnsafeMutableBufferPointer { decisionBuffer in
            created.withUnsafeMutableBufferPointer { createdBuffer in
                process(columns, 0..<columns.count, decisions: decisionBuffer.baseAddress!, created: createdBuffer.baseAddress!)
            }
        }
        decisions.removeLast(decisions.count - (relaunch.stoppedAt ?? columns.count))
        var run = _CorrectnessRun(decisions: decisions, windowEvictions: windowEvictions, consumedEvictions: consumedEvictions)
        run.consumedFootprint = consumedFootprint
        run.poppingPath = mode == .twoLayerGuarded
        run.snapshot = relaunch.result
        if let rates = falsePositiveRates(probes: probes, seed: seed) {
            run.theoreticalFalsePositiveRate = rates.theoretical
            run.measuredFalsePositiveRate = rates.measured
        }
        return run
    }

    /// Runs `columns[0..<untimedPrefix]` untimed (filling the structure), then the rest in
    /// batches of `batchSize` events, appending each batch's nanoseconds to `batches`. Returns the
    /// nanoseconds of the timed part. Buffers are allocated before the clock starts.
    mutating func runTimed(_ columns: EventColumns, untimedPrefix: Int, batchSize: Int, batches: inout [Double]) -> Double {
        let n = columns.count
        var decisions = [UInt8](repeating: 0, count: max(1, n))
        var created = [Bool](repeating: false, count: max(1, columns.envelopeCount))
        batches.reserveCapacity(batches.count + (n - untimedPrefix) / batchSize + 1)
        return decisions.withUnsafeMutableBufferPointer { decisionBuffer in
            created.withUnsafeMutableBufferPointer { createdBuffer in
                let d = decisionBuffer.baseAddress!
                let c = createdBuffer.baseAddress!
                process(columns, 0..<untimedPrefix, decisions: d, created: c)
                let start = MonotonicClock.now()
                var previous = start
                var lower = untimedPrefix
                while lower < n {
                    let upper = min(n, lower + batchSize)
                    process(columns, lower..<upper, decisions: d, created: c)
                    let now = MonotonicClock.now()
                    batches.append(Double(now &- previous) / Double(upper - lower))
                    previous = now
                    lower = upper
                }
                return Double(previous &- start)
            }
        }
    }

    /// One run over the whole workload in ten slices, reading the allocator's aggregate
    /// statistics between slices (never per event), after one discarded run. Every buffer the
    /// loop needs is allocated before the baseline is read, so only the strategies' own
    /// allocations are counted. With per-thread byte totals the peak comes from them, read
    /// around every event (`_EventPeak`).
    ///
    /// The discarded run takes the process's one-time allocations (the runtime's generic metadata
    /// and caches for these types): without it they were charged to whichever case met them
    /// first, so a case's figures depended on the cases before it.
    static func runForMemory(
        _ columns: EventColumns, mode: CaseMode, window: WindowConfiguration, consumed: ConsumedSetConfiguration,
        persistence: Persistence = .memory, statistics: inout (any AllocatorStatistics)?
    ) throws(ConfigurationError) -> MemoryResult {
        var unmeasured: (any AllocatorStatistics)? = nil
        _ = try measuredRunForMemory(
            columns, mode: mode, window: window, consumed: consumed, persistence: persistence, statistics: &unmeasured)
        return try measuredRunForMemory(
            columns, mode: mode, window: window, consumed: consumed, persistence: persistence, statistics: &statistics)
    }

    private static func measuredRunForMemory(
        _ columns: EventColumns, mode: CaseMode, window: WindowConfiguration, consumed: ConsumedSetConfiguration,
        persistence: Persistence, statistics: inout (any AllocatorStatistics)?
    ) throws(ConfigurationError) -> MemoryResult {
        let n = columns.count
        let slices = 10
        var decisions = [UInt8](repeating: 0, count: max(1, n))
        var created = [Bool](repeating: false, count: max(1, columns.envelopeCount))
        var allocated = [Int](repeating: 0, count: slices + 1)
        var footprints = [Int](repeating: 0, count: slices + 1)
        var haveBytes = true
        var countAtHalf: Int?

        let baseline = statistics?.allocatedBytes()
        let counters = statistics?.threadByteCounters()
        var eventPeak = counters.map { _EventPeak(start: $0.totals) }
        var instance = try Self(mode: mode, window: window, consumed: consumed, persistence: persistence)
        if let counters { eventPeak?.record(after: counters.totals) }
        if let baseline, let now = statistics?.allocatedBytes() { allocated[0] = now - baseline } else { haveBytes = false }
        footprints[0] = instance.footprint
        decisions.withUnsafeMutableBufferPointer { decisionBuffer in
            created.withUnsafeMutableBufferPointer { createdBuffer in
                let d = decisionBuffer.baseAddress!
                let c = createdBuffer.baseAddress!
                for slice in 0..<slices {
                    if slice == slices / 2 { countAtHalf = statistics?.allocationCount() }
                    let range = slice * n / slices..<(slice + 1) * n / slices
                    if var peak = eventPeak, let counters {
                        for i in range {
                            instance.process(columns, i..<i + 1, decisions: d, created: c)
                            peak.record(after: counters.totals)
                        }
                        eventPeak = peak
                    } else {
                        instance.process(columns, range, decisions: d, created: c)
                    }
                    footprints[slice + 1] = instance.footprint
                    if let baseline, let now = statistics?.allocatedBytes() {
                        allocated[slice + 1] = now - baseline
                    } else {
                        haveBytes = false
                    }
                }
            }
        }
        let countAtEnd = statistics?.allocationCount()

        let retained = instance.retainedEntries
        let footprint = instance.footprint
        var result = MemoryResult(
            source: statistics?.source ?? "unavailable", liveBytes: nil, peakBytes: nil, bytesPerEntry: nil,
            allocationsPerEvent: nil, footprintBytes: footprint, retainedEntries: retained)
        if haveBytes {
            let live = allocated[slices]
            result.liveBytes = live
            result.peakBytes = eventPeak?.bytes ?? allocated.max()
            result.bytesPerEntry = retained > 0 ? Double(live) / Double(retained) : nil
            result.liveBytesGrowthInLastTenth = _growth(from: allocated[slices - 1], to: live)
        }
        if let countAtHalf, let countAtEnd, n - n / 2 > 0 {
            result.allocationsPerEvent = Double(countAtEnd - countAtHalf) / Double(n - n / 2)
        }
        result.footprintGrowthInLastTenth = _growth(from: footprints[slices - 1], to: footprints[slices])
        withExtendedLifetime(instance) {}
        return result
    }
}

/// The most bytes a thread can have held during a run, above its level at the start, from its
/// allocator's per-thread running totals read at the start and after every phase (the
/// strategies' construction, then each event).
///
/// Within a phase the most it can hold is its level at the phase's start plus everything the
/// phase allocates, which is exact when the phase frees only after its last allocation (a
/// table that doubles: the new storage, then the old one freed). Every input to it is a byte
/// count, so it depends on the run alone and not on the allocator's history: jemalloc's own
/// `thread.peak` samples every 64 KiB of traffic, and which transient blocks its samples hit
/// depended on everything the process allocated before.
struct _EventPeak {
    /// The highest level seen, above the start.
    private(set) var bytes = 0
    private let startLevel: Int64
    private var deallocatedAtPhaseStart: UInt64

    init(start totals: (allocated: UInt64, deallocated: UInt64)) {
        startLevel = Int64(bitPattern: totals.allocated &- totals.deallocated)
        deallocatedAtPhaseStart = totals.deallocated
    }

    /// Ends a phase at `totals` and starts the next.
    mutating func record(after totals: (allocated: UInt64, deallocated: UInt64)) {
        let highest = Int64(bitPattern: totals.allocated &- deallocatedAtPhaseStart) &- startLevel
        bytes = max(bytes, Int(highest))
        deallocatedAtPhaseStart = totals.deallocated
    }
}

/// Relative growth from `before` to `after`; `nil` when `before` is not positive.
func _growth(from before: Int, to after: Int) -> Double? {
    before > 0 ? Double(after - before) / Double(before) : nil
}
