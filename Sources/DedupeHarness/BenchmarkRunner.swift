import DedupeMeasurement
import DedupeStoreLab
import DedupeWorkloads
import PushDedupe

/// Runs a plan: correctness of every case, then timing, the memory pass and the sweeps.
/// See `Guides/Harness.md` for the suite and the methods.
package enum BenchmarkRunner {
    /// Runs every selected case and returns the results.
    ///
    /// - Throws: `MeasurementError` for a bad plan (unknown id, bad setting, a strategy rejecting its
    ///   configuration), or for timing a debug build without `allowDebugBuild`.
    /// The plan is consumed: a replayed trace's push numbers are released once its workload is
    /// prepared (unless a ``RunPlan/decisionSink`` needs the events), and its columns at the end of
    /// the run, so pass the last copy of a large trace.
    ///
    /// - Complexity: per case, one correctness run and one memory run over its whole workload,
    ///   plus `repetitions + 2` timed runs over at most `timedEventsRange.upperBound` events; time
    ///   is bounded by the sizing's budgets, not by the number of events.
    package static func run(_ plan: consuming RunPlan, progress: (RunProgress) -> Void) throws -> RunResults {
        // Moved, not copied: a copy left in this frame would hold a trace's events to the end.
        var owned = consume plan
        return try withoutActuallyEscaping(progress) { progress in try run(&owned, reporting: progress) }
    }

    private static func run(_ plan: inout RunPlan, reporting progress: @escaping (RunProgress) -> Void) throws -> RunResults {
        if plan.measureTiming && isDebugBuild && !plan.allowDebugBuild {
            throw MeasurementError.invalidPlan(
                "refusing to time a debug build: build with `swift build -c release`, or allow a debug build (its results are marked debug)")
        }
        let started = MonotonicClock.now()
        let selection = try plan.selection()
        try plan.timingReference.validate(in: plan.strategies)
        let sizing = plan.effectiveSizing
        var workloads = loadWorkloads(plan, selection: selection, sizing: sizing)
        let profile = plan.deviceProfile(loaded: workloads, sizing: sizing)
        // The plan's copy of a trace goes first, so the loaded one is the last to hold its events.
        plan.releaseTraceEvents()
        for index in workloads.indices { workloads[index].prepare(keepEvents: plan.decisionSink != nil) }
        var run = _Run(plan: plan, sizing: sizing, profile: profile, workloads: workloads, started: started, progress: progress)
        run.assembleCases(selection)
        if plan.filter.cases != nil || plan.filter.casePatterns != nil { try run.keepCases(plan.filter.cases, patterns: plan.filter.casePatterns) }
        run.limitReferenceWindow()
        try run.scoreCorrectness()
        // Correctness only and a few small workloads: every catalogue run has it, quick or not.
        let routerLatency = try run.sweepRouterLatency()
        var timingCalibration: (resolution: Double, readCost: Double)?
        if plan.measureTiming {
            timingCalibration = MonotonicClock.calibrate()
            run.phase = .timing
            try run.measureTiming()
        }
        var allocatorSource: String?
        if plan.measureMemory {
            run.phase = .memory
            allocatorSource = try run.measureMemory()
        }
        // A debug build's byte loops say nothing about a phone's store, as its timings say nothing.
        // A store's cost does not depend on the traffic, so a replayed trace is not charged the
        // minutes of kills and writers again: its pick takes the reference run's store.
        var stores: StoreResults?
        if plan.measureTiming && !isDebugBuild, case .catalogue = plan.source {
            stores = try StoreMeasurement.run(
                retained: profile.sizing.consumedCapacity, sizing: sizing.stores, seed: plan.seed,
                writer: HarnessChild.canHostChildren ? HarnessChild.storeWriter : nil)
        }
        if plan.runSweeps, case .catalogue = plan.source {
            run.phase = .sweeps
            try run.runSweeps(selection)
        }
        var environment = EnvironmentProbe.collect(
            seed: plan.seed, allocator: allocatorSource ?? "not measured",
            buildConfiguration: isDebugBuild ? .debug : .release,
            clockResolution: timingCalibration?.resolution ?? 0, harnessOverhead: run.harnessOverhead ?? 0)
        if let timingCalibration {
            environment.clockReadNanoseconds = timingCalibration.readCost
            environment.latencyBatchSize = sizing.latencyBatchSize
            environment.latencyTimingOverheadNanosecondsPerEvent = timingCalibration.readCost / Double(sizing.latencyBatchSize)
        }
        environment.harnessAllocationsPerEvent = run.harnessAllocationsPerEvent
        environment.runSeconds = Double(MonotonicClock.now() - started) / 1e9
        var results = RunResults(environment: environment, settings: plan.settings, cases: run.results, sweeps: run.sweeps)
        results.deviceProfile = profile
        results.stores = stores
        results.routerLatencySweep = routerLatency
        results.workloads = workloads.indices.map { index in
            var info = workloads[index].info(windowMilliseconds: plan.windowMilliseconds)
            info.referenceWindowLimit = run.referenceLimits[index]
            return info
        }
        return results
    }

    static var isDebugBuild: Bool {
        #if DEBUG
        return true
        #else
        return false
        #endif
    }

    /// The plan's workloads, not prepared yet (``LoadedWorkload/prepare(keepEvents:)``).
    private static func loadWorkloads(_ plan: RunPlan, selection: RunSelection, sizing: RunSizing) -> [LoadedWorkload] {
        switch plan.source {
        case let .trace(workload, fileName):
            return [LoadedWorkload(id: fileName, category: nil, tag: nil, workload: workload, spec: nil)]
        case .catalogue:
            return selection.scenarios.map { scenario in
                let spec = WorkloadSpec.scenario(id: scenario.id, seed: plan.seed, scale: sizing.workloadScale)
                return LoadedWorkload(
                    id: scenario.id, category: scenario.category, tag: scenario.tag,
                    workload: WorkloadSource.scenarioWorkload(scenario, seed: plan.seed, scale: sizing.workloadScale),
                    spec: spec)
            }
        }
    }
}

extension RunPlan {
    var settings: RunSettings {
        var settings = RunSettings(
            quick: quick, repetitions: repetitions, windowMilliseconds: windowMilliseconds, filters: filter.clauses, traceFile: nil)
        if case let .trace(workload, fileName) = source {
            settings.traceFile = fileName
            settings.traceTruth = workload.inferredTruth?.description
        }
        settings.safetyFactor = safetyFactor
        settings.horizonFacts = horizonFacts
        if measureTiming {
            settings.forks = max(1, forks ?? effectiveSizing.forks)
            settings.forksInChildProcesses = settings.forks! > 1 && timingIsolation == .childProcessWhenAvailable
                && HarnessChild.canHostChildren
        }
        settings.recommendation = recommendation
        settings.timingReference = timingReference.text
        return settings
    }
}

/// A workload loaded for the run: the prepared-input stage. Its columns are the workload's own
/// (shared, not copied), with taps flagged and the `push-id` slots derived once, here; correctness,
/// timing (prefixes cut from them), the in-process memory pass and the correctness sweeps read them.
struct LoadedWorkload {
    var id: String
    var category: Scenario.Category?
    /// `device` or `stress`; `nil` for a trace.
    var tag: Scenario.Tag?
    /// The workload. Once prepared its events are kept only where something still reads them as
    /// rows (the decisions file names every event); otherwise only its names, routes, sources and
    /// pushes stay, so a 10⁷-event trace is held once, as `columns`.
    var workload: Workload
    /// The columns under `minted` identity: every payload its own envelope.
    var columns: EventColumns
    /// The columns under `push-id` identity; `nil` when no delivery says which push it is, so
    /// the identity cannot change a decision.
    var pushIDColumns: EventColumns?
    /// How a harness child regenerates it; `nil` for a trace (the child is sent its events).
    var spec: WorkloadSpec?

    /// The workload, not prepared yet: `columns` are its columns as they are.
    init(id: String, category: Scenario.Category?, tag: Scenario.Tag?, workload: Workload, spec: WorkloadSpec?) {
        self.id = id
        self.category = category
        self.tag = tag
        self.workload = workload
        self.columns = workload.events.columns
        self.spec = spec
    }

    /// Flags the action completions in the workload's columns and derives the slots the `push-id` identity
    /// gives (sharing every other column); then releases the workload's events unless
    /// `keepEvents` (the columns stay).
    mutating func prepare(keepEvents: Bool) {
        columns = workload.events.columns.flaggingActionCompletions()
        pushIDColumns = workload.hasPushIDs ? columns.reidentified(byPush: workload.events.pushes, ids: workload.pushes) : nil
        if !keepEvents { workload = workload.withoutEvents }
    }

    /// The columns layer 2 sees under `identity`.
    func columns(_ identity: EnvelopeIdentity?) -> EventColumns {
        identity == .pushID ? pushIDColumns ?? columns : columns
    }

    /// The identities that can change a decision on this workload.
    var identities: [EnvelopeIdentity] { pushIDColumns == nil ? [.minted] : [.minted, .pushID] }

    /// The persistences that can change a decision on this workload: all three with a relaunch,
    /// `memory` alone without one.
    var persistences: [Persistence] { columns.relaunches.isEmpty ? [.memory] : Persistence.allCases }
}

extension Workload {
    /// The workload without its events: its names, routes, sources and pushes.
    var withoutEvents: Workload {
        var workload = self
        workload.events = WorkloadEvents()
        return workload
    }
}
