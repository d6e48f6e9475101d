import DedupeMeasurement
import DedupeWorkloads
import PushDedupe

extension _Run {
    /// The standard-library window `hash-deque` is measured against in the live-set sweep; not in
    /// any catalogue.
    static let standardLibraryBaseline = WindowEntry(
        StandardLibraryWindow.self, reads: [.windowLength, .windowReservation],
        summary: "Baseline: Dictionary of fingerprint to time, plus an expiry ring")

    /// The windows the live-set sweep times: the selected ones, then, when `hash-deque` is among
    /// them, the standard-library baseline.
    static func liveSetWindows(_ selection: RunSelection) -> [WindowEntry] {
        selection.windows.contains { $0.id == HashDequeWindow.strategyID }
            ? selection.windows + [standardLibraryBaseline] : selection.windows
    }

    /// ns/admit of each of `windows` alone with `live` fingerprints live in the window at steady
    /// state and a share `repeatShare` of repeats, as points of `dimension`.
    ///
    /// One input is generated for the point, before anything is timed, and every window runs a
    /// prefix of it: its first `2·live + 100` events fill the window untimed, and the events timed
    /// after them are calibrated per window to `timingSecondsPerSweepPoint`. The windows' rounds
    /// are interleaved, in an order rotated every round, so the machine's drift lands on all of
    /// them alike; round 0 is a warm-up and the point is the median of the other `repetitions`.
    mutating func sweepLiveSet(
        _ windows: [WindowEntry], live: Int, dimension: SweepDimension, repeatShare: Double
    ) throws(MeasurementError) {
        let warm = 2 * live + 100
        let windowLength = Duration.nanoseconds(Int64((plan.windowMilliseconds * 1_000_000).rounded()))
        let input = SweepWorkload.liveSet(
            live: live, repeatShare: repeatShare, window: windowLength, warm: warm, timed: sizing.sweepEventsRange.upperBound,
            seed: plan.seed).events.columns
        let calibrationCount = sizing.sweepEventsRange.lowerBound
        var cases: [(id: String, anyCase: _AnyCase, columns: EventColumns, samples: [Double])] = []
        var scratch: [Double] = []
        for window in windows {
            let label = "\(dimension.rawValue) \(window.id) \(live)"
            report("sweep \(label)")
            var parameters = parameters(window: window, consumed: nil, windowMilliseconds: plan.windowMilliseconds)
            // Room for every live fingerprint, so the speed is not bought with evictions.
            parameters.windowCapacity = max(parameters.windowCapacity, 2 * live)
            let anyCase = plan.strategies.makeCase(window: window, consumed: nil, mode: .windowAlone, parameters: parameters)
            let calibration = try Self.rethrowing(label) {
                try anyCase._timed(input.prefix(warm + calibrationCount), warm, sizing.latencyBatchSize, &scratch)
            }
            let perEvent = max(calibration / Double(calibrationCount), 1e-3)
            let affordable = Int(sizing.timingSecondsPerSweepPoint * 1e9 / (Double(plan.repetitions + 1) * perEvent))
            let timed = min(sizing.sweepEventsRange.upperBound, max(calibrationCount, affordable))
            cases.append((window.id, anyCase, input.prefix(warm + timed), []))
        }
        for round in 0...plan.repetitions {
            for offset in cases.indices {
                let index = (offset + round) % cases.count
                scratch.removeAll(keepingCapacity: true)
                let columns = cases[index].columns
                let nanoseconds = try Self.rethrowing("\(dimension.rawValue) \(cases[index].id) \(live)") {
                    try cases[index].anyCase._timed(columns, warm, sizing.latencyBatchSize, &scratch)
                }
                if round > 0 { cases[index].samples.append(nanoseconds / Double(columns.count - warm)) }
            }
        }
        for timed in cases {
            var point = SweepPoint(
                dimension: dimension, x: Double(live), strategy: timed.id,
                nanosecondsPerEvent: SampleStatistics.median(timed.samples), bytes: nil, falseDrops: nil,
                missedDuplicates: nil, events: timed.columns.count - warm)
            point.workload = "sweep"
            sweeps.append(point)
        }
    }
}
