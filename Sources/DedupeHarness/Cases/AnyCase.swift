import DedupeMeasurement
import DedupeWorkloads
import PushDedupe

/// A case with its strategy types erased: built once when the list of cases is assembled, from
/// a generic context where `W` and `C` are concrete, so the closures it stores run fully
/// specialized loops. Calling one costs one closure call per run, never per event.
struct _AnyCase: Sendable {
    let mode: CaseMode
    /// The catalogue entries the case runs, `nil` for a layer its mode does not use (set by
    /// `StrategyCatalogue.makeCase`; the types' own ids until then).
    var windowID: String?
    var consumedID: String?
    let parameters: CaseParameters
    let persistence: Persistence
    /// One untimed run; `savedBytesBound` caps what a persisting case writes in snapshots.
    let _correctness: @Sendable (EventColumns, _ probes: Int, _ seed: UInt64, _ savedBytesBound: Int) throws -> _CorrectnessRun
    let _timed: @Sendable (EventColumns, _ untimedPrefix: Int, _ batchSize: Int, _ batches: inout [Double]) throws -> Double
    let _memory: @Sendable (EventColumns, _ statistics: inout (any AllocatorStatistics)?) throws -> MemoryResult
    let _sweepConsumedSet: @Sendable (
        _ fill: Int, _ seed: UInt64, _ rounds: [EventColumns], _ refillEachRound: Bool, _ batchSize: Int,
        _ statistics: inout (any AllocatorStatistics)?
    ) throws -> _ConsumedSweepRun

    init<W: FingerprintWindow, C: ConsumedSet>(
        _: W.Type, _: C.Type, mode: CaseMode, parameters: CaseParameters, persistence: Persistence = .memory
    ) {
        precondition(
            _ConcreteCase<W, C>.builds(mode),
            "\(mode.rawValue) runs with the no-op stand-in for the layer it does not use, not \(W.strategyID)+\(C.strategyID)")
        let consumedConfiguration = parameters.consumedConfiguration
        self.init(
            _ConcreteCase<W, C>.self, mode: mode, parameters: parameters, persistence: persistence,
            windowID: mode.usesWindow ? W.strategyID : nil, consumedID: mode.usesConsumedSet ? C.strategyID : nil
        ) { fill, seed, rounds, refillEachRound, batchSize, statistics in
            try _ConcreteCase<_NoOpWindow, C>.sweepConsumedSet(
                fill: fill, seed: seed, configuration: consumedConfiguration, rounds: rounds,
                refillEachRound: refillEachRound, batchSize: batchSize, statistics: &statistics)
        }
    }

    /// A team's whole pipeline in a two-layer mode, named by its id in the window's place.
    init<P: DedupePipeline>(pipeline _: P.Type, mode: CaseMode, parameters: CaseParameters) {
        self.init(
            _PipelineCase<P>.self, mode: mode, parameters: parameters, persistence: .memory, windowID: P.strategyID,
            consumedID: nil
        ) { _, _, _, _, _, _ in
            throw MeasurementError.invalidPlan("\(P.strategyID) is a whole pipeline, not a consumed set: it has no size sweep")
        }
    }

    private init<L: _CaseLoop>(
        _: L.Type, mode: CaseMode, parameters: CaseParameters, persistence: Persistence, windowID: String?,
        consumedID: String?,
        sweepConsumedSet: @escaping @Sendable (
            Int, UInt64, [EventColumns], Bool, Int, inout (any AllocatorStatistics)?
        ) throws -> _ConsumedSweepRun
    ) {
        self.mode = mode
        self.persistence = persistence
        self.windowID = windowID
        self.consumedID = consumedID
        self.parameters = parameters
        let windowConfiguration = parameters.windowConfiguration
        let consumedConfiguration = parameters.consumedConfiguration
        _correctness = { columns, probes, seed, savedBytesBound in
            var instance = try L(
                mode: mode, window: windowConfiguration, consumed: consumedConfiguration, persistence: persistence)
            instance.relaunch.savedBytesBound = savedBytesBound
            let run = instance.runForCorrectness(columns, probes: probes, seed: seed)
            if let failure = instance.relaunch.failure { throw MeasurementError.invalidPlan(failure) }
            return run
        }
        _timed = { columns, untimedPrefix, batchSize, batches in
            var instance = try L(
                mode: mode, window: windowConfiguration, consumed: consumedConfiguration, persistence: persistence)
            return instance.runTimed(columns, untimedPrefix: untimedPrefix, batchSize: batchSize, batches: &batches)
        }
        _memory = { columns, statistics in
            try L.runForMemory(
                columns, mode: mode, window: windowConfiguration, consumed: consumedConfiguration, persistence: persistence,
                statistics: &statistics)
        }
        _sweepConsumedSet = sweepConsumedSet
    }
}

/// What one untimed run over a whole workload observed.
struct _CorrectnessRun {
    var decisions: [UInt8]
    var windowEvictions: Int
    var consumedEvictions: Int
    var theoreticalFalsePositiveRate: Double?
    var measuredFalsePositiveRate: Double?
    /// The consumed set's structural bytes at the end (0 when the mode uses none).
    var consumedFootprint = 0
    /// Whether the mode's path pops (`two-layer-guarded`), so scoring replays the same pops.
    var poppingPath = false
    /// What the snapshots at relaunches cost, for a `after-every-consume` case.
    var snapshot: SnapshotResult?
}

extension CaseParameters {
    var windowConfiguration: WindowConfiguration {
        WindowConfiguration(window: .nanoseconds(Timestamp.milliseconds(windowMilliseconds).nanoseconds), capacity: windowCapacity)
    }

    var consumedConfiguration: ConsumedSetConfiguration {
        ConsumedSetConfiguration(
            capacity: consumedCapacity, falsePositiveRate: falsePositiveRate,
            retention: .nanoseconds(Timestamp.milliseconds(retentionMilliseconds).nanoseconds),
            expectedRatePerSecond: expectedRatePerSecond ?? ConsumedSetConfiguration().expectedRatePerSecond)
    }
}
