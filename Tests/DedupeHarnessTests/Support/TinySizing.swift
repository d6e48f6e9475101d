@testable import DedupeHarness

extension RunSizing {
    /// Small enough for a debug build: a few hundred events per case and sweep point.
    static let tiny = RunSizing(
        workloadScale: 0.001, timingSecondsPerWorkload: 0.01, timedEventsRange: 50...400,
        crossProductWorkloads: 1, latencyBatchSize: 16, falsePositiveProbes: 2_000,
        liveSetSizes: [1, 8, 64], consumedSetSizes: [1_000], windowLengthsMilliseconds: [50, 500, 5_000],
        consumedCapacities: [1, 64], bloomBitsPerEntry: [4, 10], timingSecondsPerSweepPoint: 0.002,
        sweepEventsRange: 50...200)
}
