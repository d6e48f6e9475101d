import DedupeStoreLab
import DedupeLifecycle
import DedupeWorkloads

/// Everything one run measured: the single source every report (CSV, Markdown, SVG) and
/// `compare` is derived from. Serialized as JSON; see `Guides/Results.md` for the schema.
///
/// Versioned: a reader refuses a `schemaVersion` it does not know.
package struct RunResults: Sendable, Equatable {
    /// Bumped on any incompatible change of this model. Schema 2 made results self-describing:
    /// guarantees and the parameters each strategy reads, matched errors, the device profile,
    /// workload metadata and latency batches. Schema 3 names every case by its ``CaseID``, adds
    /// identity and persistence, stores each strategy's metadata once (`strategies`) and leaves
    /// out what is derived (ratios, rates, sign tests: `RunResults+Coding.swift`). Schema 4
    /// reads a case's fields from its id, drops the latency histogram, and writes the latency
    /// percentiles and memory figures as arrays. Schema 5 replaces the snapshot-only
    /// `saveCosts` with `stores`, the store layer's measurement. Fields added within a schema are
    /// optional.
    package static let currentSchemaVersion = 5

    package var schemaVersion: Int
    package var environment: EnvironmentInfo
    package var settings: RunSettings
    /// One record per (strategy pair, parameters, workload, mode).
    package var cases: [CaseResult]
    /// Points of the parameter sweeps.
    package var sweeps: [SweepPoint]
    /// The router and NavigationStack policy matrix (optional; absent from runs that did not
    /// simulate the lifecycle).
    package var policies: PolicyResults?
    /// What one device sees, measured on the `device` workloads (or the replayed trace), and the
    /// parameters every case was sized with.
    package var deviceProfile: DeviceProfile?
    /// Every workload the cases ran on, with its description, tag and profile.
    package var workloads: [WorkloadInfo]?
    /// Layer 2's stores, per design: cost per consume, kill sweep, two writers, damage (absent
    /// when the run timed nothing).
    package var stores: StoreResults?
    /// The pipeline behind the router at scaled fetch latencies (absent from a trace's run and
    /// from older files).
    package var routerLatencySweep: RouterLatencySweep?

    package init(environment: EnvironmentInfo, settings: RunSettings, cases: [CaseResult], sweeps: [SweepPoint]) {
        self.schemaVersion = Self.currentSchemaVersion
        self.environment = environment
        self.settings = settings
        self.cases = cases
        self.sweeps = sweeps
    }
}

/// How the measuring binary was compiled: only a `release` build's times mean anything.
package enum BuildConfiguration: String, Codable, Sendable, ClosedVocabulary {
    case debug
    case release

    package static let vocabularyName = "build configuration"
}

/// Where and how the run happened.
package struct EnvironmentInfo: Codable, Sendable, Equatable {
    package var toolchain: String
    package var operatingSystem: String
    package var cpuModel: String
    package var coreCount: Int
    /// `jemalloc 5.3.0`, `glibc malloc`, …: the allocator the memory figures come from.
    package var allocator: String
    package var seed: UInt64
    package var gitCommit: String
    /// ISO 8601.
    package var date: String
    /// Reports print a large warning for `debug`.
    package var buildConfiguration: BuildConfiguration
    /// The monotonic clock's measured resolution.
    package var clockResolutionNanoseconds: Double
    /// Cost of the timing loop with a no-op strategy, per event.
    package var harnessOverheadNanosecondsPerEvent: Double
    /// Median cost of one monotonic clock read (added in schema 1, optional).
    package var clockReadNanoseconds: Double?
    /// Events per latency batch: the clock is read once per batch (optional).
    package var latencyBatchSize: Int?
    /// `clockReadNanoseconds / latencyBatchSize`: what batched timing adds to every event (optional).
    package var latencyTimingOverheadNanosecondsPerEvent: Double?
    /// Heap allocations per event of the memory loop itself, with no-op strategies; should be 0
    /// (optional; `nil` when the allocator cannot count).
    package var harnessAllocationsPerEvent: Double?
    /// Wall-clock seconds the whole run took (optional).
    package var runSeconds: Double?

    package init(
        toolchain: String, operatingSystem: String, cpuModel: String, coreCount: Int, allocator: String,
        seed: UInt64, gitCommit: String, date: String, buildConfiguration: BuildConfiguration,
        clockResolutionNanoseconds: Double, harnessOverheadNanosecondsPerEvent: Double
    ) {
        self.toolchain = toolchain
        self.operatingSystem = operatingSystem
        self.cpuModel = cpuModel
        self.coreCount = coreCount
        self.allocator = allocator
        self.seed = seed
        self.gitCommit = gitCommit
        self.date = date
        self.buildConfiguration = buildConfiguration
        self.clockResolutionNanoseconds = clockResolutionNanoseconds
        self.harnessOverheadNanosecondsPerEvent = harnessOverheadNanosecondsPerEvent
    }
}

/// The knobs the run used, so a result file explains itself.
package struct RunSettings: Codable, Sendable, Equatable {
    package var quick: Bool
    package var repetitions: Int
    package var windowMilliseconds: Double
    /// The filters given on the command line, verbatim (`window=ring-buffer`, …).
    package var filters: [String]
    /// `nil` for generated workloads; the file name for `replay`.
    package var traceFile: String?
    /// How `replay` labelled an unlabelled trace from its push ids (optional; absent when the
    /// trace carried its own labels or no push ids).
    package var traceTruth: String?
    /// Timing forks each case's `repetitions` ran in, so every case has `forks × repetitions`
    /// samples (optional; absent from runs before forks, which `compare` refuses).
    package var forks: Int?
    /// Whether forks after the first ran in child processes (`false`: all in one process).
    package var forksInChildProcesses: Bool?
    /// The factor the device profile's sizing carries.
    package var safetyFactor: Double?
    /// The push rate and retention the consumed set was sized for.
    package var horizonFacts: HorizonFacts?
    /// The recommendation rule's knobs.
    package var recommendation: RecommendationSettings?
    /// What the timing ratios are against (``TimingReference/text``: `none`, or
    /// `window=ID,consumed=ID`); absent for the published code (`published-literal` / `set`).
    package var timingReference: String?
}

/// One case: a workload and a ``StrategyChoice`` (mode, strategies with the parameters they read,
/// identity, persistence), named by ``id``.
package struct CaseResult: Sendable, Equatable {
    /// Workload id: a scenario id, a sweep id, or the trace's file name.
    package var workload: String
    /// How the events reach the strategies.
    package var mode: CaseMode
    /// Window catalogue entry id, `nil` when the mode uses no window.
    package var window: String?
    /// Consumed-set catalogue entry id, `nil` when the mode uses no consumed set.
    package var consumed: String?
    /// The parameters the strategies were built with.
    package var parameters: CaseParameters
    package var timing: TimingResult?
    package var memory: MemoryResult?
    package var correctness: CorrectnessResult?
    /// The window's declared guarantee; `nil` when the mode uses no window.
    package var windowGuarantee: GuaranteeRecord?
    /// The consumed set's declared guarantee; `nil` when the mode uses none.
    package var consumedGuarantee: GuaranteeRecord?
    /// The parameters the window reads, as declared at its registration.
    package var windowReads: [StrategyParameter]?
    /// The parameters the consumed set reads, as declared at its registration.
    package var consumedReads: [StrategyParameter]?
    /// The Swift type names of the two layers (`HashDequeWindow`), for the adoption code the
    /// reports print.
    package var windowType: String?
    package var consumedType: String?
    /// How layer 2 derives envelope ids; `nil` when the mode uses no consumed set.
    package var identity: EnvelopeIdentity?
    /// What the consumed set keeps across a relaunch; `nil` when the mode uses none.
    package var persistence: Persistence?
    /// A persisting case's snapshot sizes and times (optional).
    package var snapshot: SnapshotResult?
    /// The `case` id a decoded file stored, until decoding has checked it against the fields.
    var storedID: String?

    package init(
        workload: String, mode: CaseMode, window: String?, consumed: String?, parameters: CaseParameters,
        timing: TimingResult?, memory: MemoryResult?, correctness: CorrectnessResult?,
        identity: EnvelopeIdentity? = nil, persistence: Persistence? = nil
    ) {
        self.workload = workload
        self.mode = mode
        self.window = window
        self.consumed = consumed
        self.parameters = parameters
        self.timing = timing
        self.memory = memory
        self.correctness = correctness
        self.identity = mode.usesConsumedSet ? identity ?? .minted : nil
        self.persistence = mode.usesConsumedSet ? persistence ?? .memory : nil
    }

    /// What the case ran, without its workload.
    package var choice: StrategyChoice {
        StrategyChoice(
            mode: mode, window: window.map { LayerKey(id: $0, reads: windowReads ?? [], parameters) },
            consumed: consumed.map { LayerKey(id: $0, reads: consumedReads ?? [], parameters) },
            identity: identity, persistence: persistence)
    }

    /// The case's one identity.
    package var id: CaseID { CaseID(workload: workload, choice: choice) }
}

package struct CaseParameters: Codable, Sendable, Equatable, Hashable {
    package var windowMilliseconds: Double
    package var windowCapacity: Int
    package var consumedCapacity: Int
    package var falsePositiveRate: Double
    package var retentionMilliseconds: Double
    /// Time-bounded filters' expected ids per second (optional; `nil` means the library default).
    package var expectedRatePerSecond: Double?
}

package struct TimingResult: Sendable, Equatable {
    /// ns/event of each repetition, fork by fork (`forks` blocks of equal length), each in the
    /// order run.
    package var samplesNanosecondsPerEvent: [Double]
    package var medianNanosecondsPerEvent: Double
    package var minNanosecondsPerEvent: Double
    /// Interquartile range of the samples, ns/event.
    package var spreadNanosecondsPerEvent: Double
    package var eventsPerSecond: Double
    /// Per-event latency percentiles from batched timing.
    package var latencyP50Nanoseconds: Double
    package var latencyP90Nanoseconds: Double
    package var latencyP99Nanoseconds: Double
    package var latencyP999Nanoseconds: Double
    /// Per repetition: this case's ns/event over the reference row's in the same fork and
    /// repetition.
    package var ratiosToReference: [Double]
    /// Events timed per repetition (the first events of the workload; optional).
    package var timedEvents: Int?
    /// Median and interquartile range of `ratiosToReference` (optional).
    package var ratioToReferenceMedian: Double?
    package var ratioToReferenceSpread: Double?
    /// The reference row the ratios are against, e.g. `two-layer published-literal+set` (optional).
    package var reference: String?
    /// How many timing forks the samples and ratios span (optional; absent before forks).
    package var forks: Int?
}

package struct MemoryResult: Sendable, Equatable {
    /// `jemalloc` (mallctl statistics), `glibc-mallinfo2`, or `unavailable`.
    package var source: String
    /// Bytes still allocated by the strategies after the run.
    package var liveBytes: Int?
    /// The highest allocated bytes during the run, above the starting point.
    package var peakBytes: Int?
    /// `liveBytes` over the entries retained at the end.
    package var bytesPerEntry: Double?
    /// Heap allocations per event over the second half of the run (steady state).
    package var allocationsPerEvent: Double?
    /// The strategies' own structural `footprint`, for comparison.
    package var footprintBytes: Int
    /// Entries retained at the end (`count`).
    package var retainedEntries: Int
    /// Growth of `liveBytes` over the last tenth of the run, relative (0.03 = 3%; optional).
    package var liveBytesGrowthInLastTenth: Double?
    /// Growth of the structural footprint over the last tenth of the run, relative (optional).
    package var footprintGrowthInLastTenth: Double?
}

/// A proportion with its 95% Wilson score interval.
package struct Rate: Codable, Sendable, Equatable {
    package var count: Int
    package var total: Int
    package var value: Double
    package var lower95: Double
    package var upper95: Double
}

package struct CorrectnessResult: Sendable, Equatable {
    package var events: Int
    package var newEvents: Int
    package var dupEvents: Int
    /// Truth `new`, suppressed.
    package var falseDrops: Int
    /// Truth `dup`, reached the screen.
    package var missedDuplicates: Int
    /// Emits of envelopes whose payload the strategy suppressed, so they never existed.
    package var skippedEmits: Int
    /// Navigations that pushed the route already on top of the path.
    package var duplicateScreens: Int
    /// Wanted navigations the user never got.
    package var lostNavigations: Int
    package var falseDropRate: Rate
    package var missedDuplicateRate: Rate
    package var suppressedByWindow: Int
    package var suppressedByConsumedSet: Int
    package var suppressedByGuard: Int
    package var windowEvictions: Int
    package var consumedEvictions: Int
    /// Filters only: theory at the final fill.
    package var theoreticalFalsePositiveRate: Double?
    /// Filters only: measured on never-consumed probe ids after the run.
    package var measuredFalsePositiveRate: Double?
    /// Errors matched event by event against the reference case on the same events (the
    /// reference pair `published-literal + set` in the same mode, or the layer's reference in a
    /// single-layer mode); `nil` when no reference could be run.
    package var matched: MatchedErrors?
    /// Missed duplicates and false drops by named cause (``ErrorCause``); each sums to its count.
    package var missedByCause: [String: Int] = [:]
    package var droppedByCause: [String: Int] = [:]
}

/// One point of a parameter sweep.
package struct SweepPoint: Codable, Sendable, Equatable {
    /// What was swept; written as its raw value (`window-length`).
    package var dimension: SweepDimension
    /// The swept value, in the dimension's unit (entries, ids, ms, bits).
    package var x: Double
    /// The strategy id whose curve this point belongs to.
    package var strategy: String
    package var nanosecondsPerEvent: Double?
    package var bytes: Double?
    package var falseDrops: Int?
    package var missedDuplicates: Int?
    package var events: Int
    /// Where `bytes` comes from: an allocator source, or `footprint` (optional).
    package var bytesSource: String?
    /// The workload the point was measured on (optional).
    package var workload: String?
    /// Filters: measured false-positive rate at the point (optional).
    package var measuredFalsePositiveRate: Double?
}
