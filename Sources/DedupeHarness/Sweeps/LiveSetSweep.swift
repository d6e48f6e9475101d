import DedupeMeasurement

extension BenchmarkRunner {
    /// Only the live-set speed sweep of `plan` (both repeat shares, every selected window and
    /// the standard-library baseline), as `run` would time it, without the cases, the memory pass
    /// or the other sweeps: for comparing windows quickly. `liveSetSizes` replaces the sizing's
    /// sizes when given.
    ///
    /// - Throws: `MeasurementError` for a bad plan, or for timing a debug build without
    ///   `allowDebugBuild`.
    package static func runLiveSetSweep(
        _ plan: RunPlan, liveSetSizes: [Int]? = nil, progress: @escaping (RunProgress) -> Void
    ) throws(MeasurementError) -> [SweepPoint] {
        if isDebugBuild && !plan.allowDebugBuild {
            throw .invalidPlan("refusing to time a debug build: build with `swift build -c release`, or allow a debug build")
        }
        if let liveSetSizes, let bad = liveSetSizes.first(where: { !(1...(1 << 20)).contains($0) }) {
            throw .invalidPlan("live-set sizes must be from 1 to 1048576, got \(bad)")
        }
        let selection = try plan.selection()
        var sizing = plan.effectiveSizing
        if let liveSetSizes { sizing.liveSetSizes = liveSetSizes }
        var run = _Run(
            plan: plan, sizing: sizing, profile: plan.deviceProfile(loaded: [], sizing: sizing), workloads: [],
            started: MonotonicClock.now(), progress: progress)
        run.phase = .sweeps
        let windows = _Run.liveSetWindows(selection)
        for (dimension, repeatShare) in SweepDimension.liveSetRepeatShares {
            for live in sizing.liveSetSizes {
                try run.sweepLiveSet(windows, live: live, dimension: dimension, repeatShare: repeatShare)
            }
        }
        return run.sweeps
    }
}
