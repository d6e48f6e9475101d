import DedupeStoreLab

/// How big a run is: workload scale, time budgets and sweep points. ``full`` fits the 3-minute
/// budget and ``quick`` the 60-second one on 2 cores (release build), timing forks included; tests
/// pass tiny values.
package struct RunSizing: Sendable, Equatable {
    /// Fraction of each scenario's events used, in (0, 1].
    package var workloadScale: Double
    /// Seconds of timed loops per workload (all cases, all repetitions). The number of events
    /// timed is calibrated from it so the slowest strategies still fit.
    package var timingSecondsPerWorkload: Double
    /// Events timed per case, at most and at least (a workload shorter than the minimum is timed
    /// whole).
    package var timedEventsRange: ClosedRange<Int>
    /// Workloads (of the selected scenarios, stress ones first) that get the full window ×
    /// consumed-set cross product of pipelines; the others get every window with `set` and every
    /// set with the companion window.
    package var crossProductWorkloads: Int
    /// Events per latency batch (the clock is read once per batch).
    package var latencyBatchSize: Int
    /// Never-consumed ids probed to measure a filter's false-positive rate.
    package var falsePositiveProbes: Int
    /// Layer-1 live-set sizes of the `window-live-set` sweep.
    package var liveSetSizes: [Int]
    /// Layer-2 set sizes of the `consumed-set-size` sweep.
    package var consumedSetSizes: [Int]
    /// Window lengths of the `window-length` sweep, in milliseconds.
    package var windowLengthsMilliseconds: [Double]
    /// Capacities of the `consumed-capacity` sweep.
    package var consumedCapacities: [Int]
    /// Bits per entry of the `bloom-bits-per-entry` sweep.
    package var bloomBitsPerEntry: [Double]
    /// Seconds of timed loops per speed-sweep point (one strategy, one size, all repetitions).
    package var timingSecondsPerSweepPoint: Double
    /// Timed operations per speed-sweep point, at most and at least.
    package var sweepEventsRange: ClosedRange<Int>
    /// Timing forks: processes each case's repetitions run in (`Guides/Harness.md`, *Timing*).
    package var forks: Int
    /// The store layer's measurement (`StoreResults`).
    package var stores: StoreSizing

    package init(
        workloadScale: Double, timingSecondsPerWorkload: Double, timedEventsRange: ClosedRange<Int>,
        crossProductWorkloads: Int, latencyBatchSize: Int, falsePositiveProbes: Int, liveSetSizes: [Int],
        consumedSetSizes: [Int], windowLengthsMilliseconds: [Double], consumedCapacities: [Int],
        bloomBitsPerEntry: [Double], timingSecondsPerSweepPoint: Double, sweepEventsRange: ClosedRange<Int>,
        forks: Int = 1, stores: StoreSizing = .quick
    ) {
        self.forks = forks
        self.stores = stores
        self.workloadScale = workloadScale
        self.timingSecondsPerWorkload = timingSecondsPerWorkload
        self.timedEventsRange = timedEventsRange
        self.crossProductWorkloads = crossProductWorkloads
        self.latencyBatchSize = latencyBatchSize
        self.falsePositiveProbes = falsePositiveProbes
        self.liveSetSizes = liveSetSizes
        self.consumedSetSizes = consumedSetSizes
        self.windowLengthsMilliseconds = windowLengthsMilliseconds
        self.consumedCapacities = consumedCapacities
        self.bloomBitsPerEntry = bloomBitsPerEntry
        self.timingSecondsPerSweepPoint = timingSecondsPerSweepPoint
        self.sweepEventsRange = sweepEventsRange
    }

    /// The default run: whole workloads, every sweep point (3-minute budget).
    package static let full = RunSizing(
        workloadScale: 1, timingSecondsPerWorkload: 6, timedEventsRange: 2_000...200_000,
        crossProductWorkloads: 2, latencyBatchSize: 64, falsePositiveProbes: 100_000,
        liveSetSizes: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1_024, 2_048, 4_096],
        consumedSetSizes: [1_000, 4_096, 16_384, 65_536, 262_144, 1_048_576, 4_194_304, 10_000_000],
        windowLengthsMilliseconds: [50, 100, 200, 500, 1_000, 2_000, 5_000],
        consumedCapacities: [64, 256, 1_024, 4_096, 16_384, 65_536],
        bloomBitsPerEntry: [2, 4, 6, 8, 10, 12, 16],
        timingSecondsPerSweepPoint: 0.12, sweepEventsRange: 1_000...100_000, forks: 6, stores: .full)

    /// CI mode: a tenth of each workload, fewer sweep points (60-second budget); still has the
    /// points the targets are stated at (8 and 64 live fingerprints, 65,536 ids).
    package static let quick = RunSizing(
        workloadScale: 0.1, timingSecondsPerWorkload: 0.8, timedEventsRange: 500...20_000,
        crossProductWorkloads: 1, latencyBatchSize: 64, falsePositiveProbes: 20_000,
        liveSetSizes: [1, 8, 64, 512, 4_096],
        consumedSetSizes: [1_000, 65_536],
        windowLengthsMilliseconds: [50, 500, 5_000],
        consumedCapacities: [256, 4_096, 65_536],
        bloomBitsPerEntry: [4, 10, 16],
        timingSecondsPerSweepPoint: 0.04, sweepEventsRange: 500...20_000, forks: 6, stores: .quick)
}
