import DedupeWorkloads

/// What to run: the command line builds one, `BenchmarkRunner.run` executes it.
package struct RunPlan: Sendable {
    /// Where the workloads come from.
    package enum Source: Sendable {
        /// The scenario catalogue (filtered by `filter.workloads`) plus the sweeps.
        case catalogue
        /// One user trace, already imported.
        case trace(Workload, fileName: String)
    }

    package var source: Source
    /// CI mode: fewer events and sweep points; must finish within 60 s with its timing forks.
    package var quick: Bool
    package var seed: UInt64
    /// Timed repetitions per case in each timing fork (at least 1; default 5).
    package var repetitions: Int
    /// Timing forks: processes the repetitions are spread over (at least 1); `nil` takes the
    /// sizing's ``RunSizing/forks``.
    package var forks: Int?
    /// Where timing forks after the first run.
    package var timingIsolation: TimingIsolation = .childProcessWhenAvailable
    /// Layer-1 window length for every case that does not sweep it.
    package var windowMilliseconds: Double
    package var filter: RunFilter
    /// Measure speed (off for `scenarios`, which only needs correctness).
    package var measureTiming: Bool
    /// Measure allocator statistics.
    package var measureMemory: Bool
    /// Run the parameter sweeps (only with `.catalogue`).
    package var runSweeps: Bool
    /// Time a build with assertions on (`DEBUG`) anyway; its results say `debug` loudly.
    package var allowDebugBuild: Bool = false
    /// The strategies the run selects from.
    package var strategies: StrategyCatalogue = .linked
    /// Where the memory pass runs.
    package var memoryIsolation: MemoryIsolation = .childProcessWhenAvailable
    /// The bytes a persisting case may write in snapshots before it stops (``SnapshotResult/eventsRun``);
    /// smaller only in tests.
    var snapshotBytesBound = _RelaunchState.defaultSavedBytesBound
    /// The factor the device profile's sizing carries over what the profile needs (at least 1).
    package var safetyFactor: Double = DeviceProfile.defaultSafetyFactor
    /// The push rate and retention the consumed set is sized for.
    package var horizonFacts = HorizonFacts()
    /// The recommendation rule's knobs, recorded in the results for the reports.
    package var recommendation = RecommendationSettings()
    /// What timing ratios are against (`--reference`); correctness stays against the published code.
    package var timingReference = TimingReference.published
    /// Receives every reported case's per-event decisions as it is scored (for
    /// `--decisions FILE.csv`); a throw stops the run.
    package var decisionSink: (any DecisionSink)?
    /// Event counts, sweep points and time budgets; `nil` picks ``RunSizing/full`` or
    /// ``RunSizing/quick`` from `quick`.
    package var sizing: RunSizing?

    /// Where the memory pass runs.
    package enum MemoryIsolation: Sendable {
        /// In a child process when this executable hosts children, with jemalloc preloaded when
        /// libjemalloc is installed (so timings keep the platform allocator) and the platform
        /// statistics otherwise, read in a fresh process, away from this one's threads;
        /// in-process when the executable cannot host children. The child rebuilds every workload
        /// (a trace from its events) and resolves strategy ids in the catalogue its executable
        /// registered; ids it does not know make the pass run in-process, with a note in the
        /// allocator source.
        case childProcessWhenAvailable
        /// Always in this process, with whatever statistics it has.
        case inProcess
    }

    /// Where timing forks run.
    package enum TimingIsolation: Sendable {
        /// Fork 0 in this process, every other fork in a fresh child process, when this
        /// executable hosts children (its `main` called ``HarnessChild/runIfRequested(_:catalogue:)``);
        /// otherwise every fork in this process.
        case childProcessWhenAvailable
        /// Every fork in this process (samples keep their shape, without the processes' variance).
        case inProcess
    }

    /// The sizing this plan runs with.
    package var effectiveSizing: RunSizing {
        sizing ?? (quick ? .quick : .full)
    }

    package init(
        source: Source = .catalogue, quick: Bool = false, seed: UInt64 = 42, repetitions: Int = 5,
        windowMilliseconds: Double = 500, filter: RunFilter = RunFilter(), measureTiming: Bool = true,
        measureMemory: Bool = true, runSweeps: Bool = true
    ) {
        self.source = source
        self.quick = quick
        self.seed = seed
        self.repetitions = repetitions
        self.windowMilliseconds = windowMilliseconds
        self.filter = filter
        self.measureTiming = measureTiming
        self.measureMemory = measureMemory
        self.runSweeps = runSweeps
    }
}

/// Restricts a run to some ids; `nil` means all. Ids are validated by `BenchmarkRunner`.
package struct RunFilter: Sendable, Equatable {
    package var windows: [String]?
    package var consumedSets: [String]?
    package var workloads: [String]?
    package var modes: [String]?
    /// Case ids (``CaseID/text``), or choices without their workload (``StrategyChoice/text``),
    /// to keep; every mode's reference case is kept too, for the ratios and matched errors.
    package var cases: [String]?
    /// Regular expressions (Swift `Regex` syntax); a case whose id has a match of one is kept too.
    package var casePatterns: [String]?

    package init(
        windows: [String]? = nil, consumedSets: [String]? = nil, workloads: [String]? = nil, modes: [String]? = nil,
        cases: [String]? = nil
    ) {
        self.windows = windows
        self.consumedSets = consumedSets
        self.workloads = workloads
        self.modes = modes
        self.cases = cases
    }

    /// What a `--filter KEY=ID,...` clause restricts, by the key it is written with.
    package enum Key: String, CaseIterable, Sendable {
        case window, consumed, workload, mode, `case`
    }

    /// The ids kept for `key`.
    package subscript(key: Key) -> [String]? {
        get {
            switch key {
            case .window: windows
            case .consumed: consumedSets
            case .workload: workloads
            case .mode: modes
            case .case: cases
            }
        }
        set {
            switch key {
            case .window: windows = newValue
            case .consumed: consumedSets = newValue
            case .workload: workloads = newValue
            case .mode: modes = newValue
            case .case: cases = newValue
            }
        }
    }

    /// The filter as `key=id` clauses, one per id, in key order: how the results record it.
    package var clauses: [String] {
        Key.allCases.flatMap { key in (self[key] ?? []).map { "\(key.rawValue)=\($0)" } }
            + (casePatterns ?? []).map { "\(Key.case.rawValue)=/\($0)/" }
    }
}

/// The phases of a run, in the order they run.
package enum RunPhase: String, CaseIterable, Sendable {
    case correctness
    case timing
    case memory
    case sweeps
}

/// Reported before each case starts, for the progress line on stderr.
package struct RunProgress: Sendable {
    /// e.g. `marketing-burst two-layer hash-deque+fifo-set`.
    package var caseLabel: String
    package var completed: Int
    package var total: Int
    package var elapsedSeconds: Double
    /// The phase this step belongs to.
    package var phase: RunPhase
    /// Steps each phase has in all (a phase that does not run has none).
    package var phaseSteps: [RunPhase: Int]
    /// Seconds a phase is planned to take, for an estimate before the phase has measured steps:
    /// from the sizing's budgets (timing, speed sweeps) and, once correctness has run, from its
    /// cases' measured costs (the memory pass, correctness sweeps).
    package var plannedSeconds: [RunPhase: Double]
    /// Events this step runs (0 when not counted), so a phase whose steps differ in size (cases
    /// of a 10⁷-event trace beside small ones, a timing fork in a child beside one repetition)
    /// is estimated by its measured rate in events per second rather than by its mean step.
    package var stepEvents: Int
    /// Events each phase runs in all, for the phases that count them.
    package var phaseEvents: [RunPhase: Int]

    package init(
        caseLabel: String, completed: Int, total: Int, elapsedSeconds: Double, phase: RunPhase = .correctness,
        phaseSteps: [RunPhase: Int] = [:], plannedSeconds: [RunPhase: Double] = [:], stepEvents: Int = 0,
        phaseEvents: [RunPhase: Int] = [:]
    ) {
        self.caseLabel = caseLabel
        self.completed = completed
        self.total = total
        self.elapsedSeconds = elapsedSeconds
        self.phase = phase
        self.phaseSteps = phaseSteps
        self.plannedSeconds = plannedSeconds
        self.stepEvents = stepEvents
        self.phaseEvents = phaseEvents
    }
}

extension RunPlan {
    /// The plan, for ``BenchmarkRunner/run(_:progress:)``, leaving this copy without a trace's
    /// events: the returned plan then holds the only reference to them, so what the harness
    /// releases (the push numbers once the workload is prepared, the columns at the end of the
    /// run) goes, rather than living on in the caller's copy.
    package mutating func handOver() -> RunPlan {
        let plan = self
        releaseTraceEvents()
        return plan
    }

    /// Replaces a trace source by the same trace without its events.
    mutating func releaseTraceEvents() {
        if case let .trace(workload, fileName) = source { source = .trace(workload.withoutEvents, fileName: fileName) }
    }
}
