import DedupeMeasurement
import DedupeWorkloads
import PushDedupe

extension _Run {
    /// The sweeps of `Guides/Harness.md` § Sweeps. Speed sweeps run only when timing is on;
    /// correctness sweeps run on the representative workload (the first selected stress
    /// scenario, else the first selected one).
    mutating func runSweeps(_ selection: RunSelection) throws(MeasurementError) {
        if plan.measureTiming {
            let windows = Self.liveSetWindows(selection)
            for (dimension, repeatShare) in SweepDimension.liveSetRepeatShares {
                for live in sizing.liveSetSizes {
                    try sweepLiveSet(windows, live: live, dimension: dimension, repeatShare: repeatShare)
                }
            }
            var statistics = plan.measureMemory ? AllocatorStatisticsDetector.detect() : nil
            for consumed in selection.consumedSets where consumed.isSwept {
                for size in sizing.consumedSetSizes { try sweepSetSize(consumed, size: size, statistics: &statistics) }
            }
        }
        guard let representative = workloads.indices.min(by: { (workloads[$0].category == .stress ? 0 : 1, $0) < (workloads[$1].category == .stress ? 0 : 1, $1) }) else { return }
        let referenceSet = selection.referenceConsumedSet
        let companion = selection.companionWindow
        // The window length is chosen for one device's traffic: the sweep runs on every device
        // workload (the representative one when none is selected), one point per workload, keyed
        // on push ids and with the set saved after every consume, as the pick ships: what layer 2
        // catches then is not a reason to lengthen the window.
        let deviceWorkloads = workloads.indices.filter { workloads[$0].tag == .device }
        for window in selection.windows {
            for milliseconds in sizing.windowLengthsMilliseconds {
                var parameters = parameters(window: window, consumed: referenceSet, windowMilliseconds: milliseconds)
                parameters.windowMilliseconds = milliseconds
                for workload in deviceWorkloads.isEmpty ? [representative] : deviceWorkloads {
                    try sweepCorrectness(.windowLength, x: milliseconds, strategy: window.id, workload: workload,
                                         window: window, consumed: referenceSet, parameters: parameters,
                                         identity: .pushID, persistence: referenceSet?.isSnapshottable == true ? .afterEveryConsume : .memory)
                }
            }
        }
        for consumed in selection.consumedSets where consumed.isSwept {
            for capacity in sizing.consumedCapacities {
                var parameters = parameters(window: companion, consumed: consumed, windowMilliseconds: plan.windowMilliseconds)
                parameters.consumedCapacity = capacity
                try sweepCorrectness(.consumedCapacity, x: Double(capacity), strategy: consumed.id, workload: representative,
                                     window: companion, consumed: consumed, parameters: parameters)
            }
        }
        for consumed in selection.consumedSets where consumed.isProbabilistic && consumed.isSwept {
            for bits in sizing.bloomBitsPerEntry {
                var parameters = parameters(window: companion, consumed: consumed, windowMilliseconds: plan.windowMilliseconds)
                // The optimal-k Bloom filter's rate at m/n bits per entry, p = e^(−(m/n)(ln 2)²), from
                // the library's deterministic math; the filter is sized for the workload's envelopes.
                parameters.falsePositiveRate = BloomSizing.falsePositiveRate(forBitsPerEntry: bits)
                parameters.consumedCapacity = max(1, workloads[representative].columns.envelopeCount)
                try sweepCorrectness(.bloomBitsPerEntry, x: bits, strategy: consumed.id, workload: representative,
                                     window: companion, consumed: consumed, parameters: parameters)
            }
        }
    }

    /// ns/consume of `consumed` alone at `size` ids retained, and its bytes per entry.
    private mutating func sweepSetSize(
        _ consumed: ConsumedSetEntry, size: Int, statistics: inout (any AllocatorStatistics)?
    ) throws(MeasurementError) {
        report("sweep \(SweepDimension.consumedSetSize.rawValue) \(consumed.id) \(size)")
        var parameters = parameters(window: nil, consumed: consumed, windowMilliseconds: plan.windowMilliseconds)
        parameters.consumedCapacity = size
        let anyCase = plan.strategies.makeCase(window: nil, consumed: consumed, mode: .consumedAlone, parameters: parameters)
        let operations = min(sizing.sweepEventsRange.upperBound, max(sizing.sweepEventsRange.lowerBound, size / 2))
        let rounds = (0...plan.repetitions).map { round in
            WorkloadSource.consumedSweepOperations(count: size, operations: operations, round: round, seed: plan.seed).events.columns
        }
        // Refilling costs a fill per round; above 2¹⁸ ids the rounds add too few ids to matter.
        let refill = size <= 262_144
        let run = try Self.rethrowing("\(SweepDimension.consumedSetSize.rawValue) \(consumed.id) \(size)") {
            try anyCase._sweepConsumedSet(size, plan.seed, rounds, refill, sizing.latencyBatchSize, &statistics)
        }
        var point = SweepPoint(
            dimension: .consumedSetSize, x: Double(size), strategy: consumed.id,
            nanosecondsPerEvent: SampleStatistics.median(Array(run.nanosecondsPerOperation.dropFirst())),
            bytes: nil, falseDrops: nil, missedDuplicates: nil, events: operations)
        if let liveBytes = run.liveBytes, run.retainedEntries > 0, let statistics {
            point.bytes = Double(liveBytes) / Double(run.retainedEntries)
            point.bytesSource = statistics.source
        } else if run.retainedEntries > 0 {
            point.bytes = Double(run.footprint) / Double(run.retainedEntries)
            point.bytesSource = "footprint"
        }
        point.workload = "consumed-set-\(size)"
        sweeps.append(point)
    }

    /// False drops and missed duplicates of one two-layer pipeline on a whole workload.
    private mutating func sweepCorrectness(
        _ dimension: SweepDimension, x: Double, strategy: String, workload: Int, window: WindowEntry?, consumed: ConsumedSetEntry?,
        parameters: CaseParameters, identity: EnvelopeIdentity = .minted, persistence: Persistence = .memory
    ) throws(MeasurementError) {
        guard window != nil || consumed != nil else { return }
        report("sweep \(dimension.rawValue) \(strategy) \(x)")
        let anyCase = plan.strategies.makeCase(
            window: window, consumed: consumed, mode: .twoLayer, parameters: parameters, persistence: persistence)
        let columns = workloads[workload].columns(identity)
        let run = try Self.rethrowing("\(dimension.rawValue) \(strategy) \(x)") {
            try anyCase._correctness(columns, dimension == .bloomBitsPerEntry ? sizing.falsePositiveProbes : 0, plan.seed, plan.snapshotBytesBound)
        }
        let score = CorrectnessResult(decisions: run.decisions, columns: columns, run: run)
        var point = SweepPoint(
            dimension: dimension, x: x, strategy: strategy, nanosecondsPerEvent: nil,
            bytes: dimension == .bloomBitsPerEntry ? Double(run.consumedFootprint) / Double(max(1, parameters.consumedCapacity)) : nil,
            falseDrops: score.falseDrops, missedDuplicates: score.missedDuplicates, events: score.events)
        point.workload = workloads[workload].id
        point.measuredFalsePositiveRate = run.measuredFalsePositiveRate
        if point.bytes != nil { point.bytesSource = "footprint" }
        sweeps.append(point)
    }
}
