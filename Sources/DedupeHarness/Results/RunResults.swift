import DedupeLifecycle
import DedupeWorkloads

/// Everything one run measured: the single source every report (CSV, Markdown, SVG) and
/// `compare` is derived from. Serialized as JSON; see `Guides/Results.md` for the schema.
///
/// Versioned: a reader refuses a `schemaVersion` it does not know.
public struct RunResults: Sendable, Equatable {
    /// Bumped on any incompatible change of this model. Schema 2 made results self-describing:
    /// guarantees and the parameters each strategy reads, matched errors, the device profile,
    /// workload metadata and latency batches. Schema 3 names every case by its ``CaseID``, adds
    /// identity and persistence, stores each strategy's metadata once (`strategies`) and leaves
    /// out what is derived (ratios, rates, sign tests: `RunResults+Coding.swift`). Schema 4
    /// reads a case's fields from its id, drops the latency histogram, and writes the latency
    /// percentiles and memory figures as arrays. Schema 5 replaces the snapshot-only
    /// `saveCosts` with `stores`, the store layer's measurement. Fields added within a schema are
    /// optional.
    public static let currentSchemaVersion = 5

    public var schemaVersion: Int
    public var environment: EnvironmentInfo
    public var settings: RunSettings
    /// One record per (strategy pair, parameters, workload, mode).
    public var cases: [CaseResult]
    /// Points of the parameter sweeps.
    public var sweeps: [SweepPoint]
    /// The router and NavigationStack policy matrix (optional; absent from runs that did not
    /// simulate the lifecycle).
    public var policies: PolicyResults?
    /// What one device sees, measured on the `device` workloads (or the replayed trace), and the
    /// parameters every case was sized with.
    public var deviceProfile: DeviceProfile?
    /// Every workload the cases ran on, with its description, tag and profile.
    public var workloads: [WorkloadInfo]?
    /// Layer 2's stores, per design: cost per consume, kill sweep, two writers, damage (absent
    /// when the run timed nothing).
    public var stores: StoreResults?

    public init(environment: EnvironmentInfo, settings: RunSettings, cases: [CaseResult], sweeps: [SweepPoint]) {
        self.schemaVersion = Self.currentSchemaVersion
        self.environment = environment
        self.settings = settings
        self.cases = cases
        self.sweeps = sweeps
    }
}

/// How the measuring binary was compiled: only a `release` build's times mean anything.
public enum BuildConfiguration: String, Codable, Sendable, ClosedVocabulary {
    case debug
    case release

    public static let vocabularyName = "build configuration"
}

/// Where and how the run happened.
public struct EnvironmentInfo: Codable, Sendable, Equatable {
    public var toolchain: String
    public var operatingSystem: String
    public var cpuModel: String
    public var coreCount: Int
    /// `jemalloc 5.3.0`, `glibc malloc`, …: the allocator the memory figures come from.
    public var allocator: String
    public var seed: UInt64
    public var gitCommit: String
    /// ISO 8601.
    public var date: String
    /// Reports print a large warning for `debug`.
    public var buildConfiguration: BuildConfiguration
    /// The monotonic clock's measured resolution.
    public var clockResolutionNanoseconds: Double
    /// Cost of the timing loop with a no-op strategy, per event.
    public var harnessOverheadNanosecondsPerEvent: Double
    /// Median cost of one monotonic clock read (added in schema 1, optional).
    public var clockReadNanoseconds: Double?
    /// Events per latency batch: the clock is read once per batch (optional).
    public var latencyBatchSize: Int?
    /// `clockReadNanoseconds / latencyBatchSize`: what batched timing adds to every event (optional).
    public var latencyTimingOverheadNanosecondsPerEvent: Double?
    /// Heap allocations per event of the memory loop itself, with no-op strategies; should be 0
    /// (optional; `nil` when the allocator cannot count).
    public var harnessAllocationsPerEvent: Double?
    /// Wall-clock seconds the whole run took (optional).
    public var runSeconds: Double?

    public init(
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
public struct RunSettings: Codable, Sendable, Equatable {
    public var quick: Bool
    public var repetitions: Int
    public var windowMilliseconds: Double
    /// The filters given on the command line, verbatim (`window=ring-buffer`, …).
    public var filters: [String]
    /// `nil` for generated workloads; the file name for `replay`.
    public var traceFile: String?
    /// How `replay` labelled an unlabelled trace from its push ids (optional; absent when the
    /// trace carried its own labels or no push ids).
    public var traceTruth: String?
    /// Timing forks each case's `repetitions` ran in, so every case has `forks × repetitions`
    /// samples (optional; absent from runs before forks, which `compare` refuses).
    public var forks: Int?
    /// Whether forks after the first ran in child processes (`false`: all in one process).
    public var forksInChildProcesses: Bool?
    /// The factor the device profile's sizing carries.
    public var safetyFactor: Double?
    /// The push rate and retention the consumed set was sized for.
    public var horizonFacts: HorizonFacts?
    /// The recommendation rule's knobs.
    public var recommendation: RecommendationSettings?
    /// What the timing ratios are against (``TimingReference/text``: `none`, or
    /// `window=ID,consumed=ID`); absent for the published code (`seed-literal` / `set`).
    public var timingReference: String?
}

/// One case: a workload and a ``StrategyChoice`` (mode, strategies with the parameters they read,
/// identity, persistence), named by ``id``.
public struct CaseResult: Sendable, Equatable {
    /// Workload id: a scenario id, a sweep id, or the trace's file name.
    public var workload: String
    /// How the events reach the strategies.
    public var mode: CaseMode
    /// Window catalogue entry id, `nil` when the mode uses no window.
    public var window: String?
    /// Consumed-set catalogue entry id, `nil` when the mode uses no consumed set.
    public var consumed: String?
    /// The parameters the strategies were built with.
    public var parameters: CaseParameters
    public var timing: TimingResult?
    public var memory: MemoryResult?
    public var correctness: CorrectnessResult?
    /// The window's declared guarantee; `nil` when the mode uses no window.
    public var windowGuarantee: GuaranteeRecord?
    /// The consumed set's declared guarantee; `nil` when the mode uses none.
    public var consumedGuarantee: GuaranteeRecord?
    /// The parameters the window reads, as declared at its registration.
    public var windowReads: [StrategyParameter]?
    /// The parameters the consumed set reads, as declared at its registration.
    public var consumedReads: [StrategyParameter]?
    /// The Swift type names of the two layers (`HashDequeWindow`), for the adoption code the
    /// reports print.
    public var windowType: String?
    public var consumedType: String?
    /// How layer 2 derives envelope ids; `nil` when the mode uses no consumed set.
    public var identity: EnvelopeIdentity?
    /// What the consumed set keeps across a relaunch; `nil` when the mode uses none.
    public var persistence: Persistence?
    /// A persisting case's snapshot sizes and times (optional).
    public var snapshot: SnapshotResult?
    /// The `case` id a decoded file stored, until decoding has checked it against the fields.
    var storedID: String?

    public init(
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
    public var choice: StrategyChoice {
        StrategyChoice(
            mode: mode, window: window.map { LayerKey(id: $0, reads: windowReads ?? [], parameters) },
            consumed: consumed.map { LayerKey(id: $0, reads: consumedReads ?? [], parameters) },
            identity: identity, persistence: persistence)
    }

    /// The case's one identity.
    public var id: CaseID { CaseID(workload: workload, choice: choice) }
}

public struct CaseParameters: Codable, Sendable, Equatable, Hashable {
    public var windowMilliseconds: Double
    public var windowCapacity: Int
    public var consumedCapacity: Int
    public var falsePositiveRate: Double
    public var retentionMilliseconds: Double
    /// Time-bounded filters' expected ids per second (optional; `nil` means the library default).
    public var expectedRatePerSecond: Double?
}

public struct TimingResult: Sendable, Equatable {
    /// ns/event of each repetition, fork by fork (`forks` blocks of equal length), each in the
    /// order run.
    public var samplesNanosecondsPerEvent: [Double]
    public var medianNanosecondsPerEvent: Double
    public var minNanosecondsPerEvent: Double
    /// Interquartile range of the samples, ns/event.
    public var spreadNanosecondsPerEvent: Double
    public var eventsPerSecond: Double
    /// Per-event latency percentiles from batched timing.
    public var latencyP50Nanoseconds: Double
    public var latencyP90Nanoseconds: Double
    public var latencyP99Nanoseconds: Double
    public var latencyP999Nanoseconds: Double
    /// Per repetition: this case's ns/event over the reference row's in the same fork and
    /// repetition.
    public var ratiosToReference: [Double]
    /// Events timed per repetition (the first events of the workload; optional).
    public var timedEvents: Int?
    /// Median and interquartile range of `ratiosToReference` (optional).
    public var ratioToReferenceMedian: Double?
    public var ratioToReferenceSpread: Double?
    /// The reference row the ratios are against, e.g. `two-layer seed-literal+set` (optional).
    public var reference: String?
    /// How many timing forks the samples and ratios span (optional; absent before forks).
    public var forks: Int?
}

public struct MemoryResult: Sendable, Equatable {
    /// `jemalloc` (mallctl statistics), `glibc-mallinfo2`, or `unavailable`.
    public var source: String
    /// Bytes still allocated by the strategies after the run.
    public var liveBytes: Int?
    /// The highest allocated bytes during the run, above the starting point.
    public var peakBytes: Int?
    /// `liveBytes` over the entries retained at the end.
    public var bytesPerEntry: Double?
    /// Heap allocations per event over the second half of the run (steady state).
    public var allocationsPerEvent: Double?
    /// The strategies' own structural `footprint`, for comparison.
    public var footprintBytes: Int
    /// Entries retained at the end (`count`).
    public var retainedEntries: Int
    /// Growth of `liveBytes` over the last tenth of the run, relative (0.03 = 3%; optional).
    public var liveBytesGrowthInLastTenth: Double?
    /// Growth of the structural footprint over the last tenth of the run, relative (optional).
    public var footprintGrowthInLastTenth: Double?
}

/// A proportion with its 95% Wilson score interval.
public struct Rate: Codable, Sendable, Equatable {
    public var count: Int
    public var total: Int
    public var value: Double
    public var lower95: Double
    public var upper95: Double
}

public struct CorrectnessResult: Sendable, Equatable {
    public var events: Int
    public var newEvents: Int
    public var dupEvents: Int
    /// Truth `new`, suppressed.
    public var falseDrops: Int
    /// Truth `dup`, reached the screen.
    public var missedDuplicates: Int
    /// Emits of envelopes whose payload the strategy suppressed, so they never existed.
    public var skippedEmits: Int
    /// Navigations that pushed the route already on top of the path.
    public var duplicateScreens: Int
    /// Wanted navigations the user never got.
    public var lostNavigations: Int
    public var falseDropRate: Rate
    public var missedDuplicateRate: Rate
    public var suppressedByWindow: Int
    public var suppressedByConsumedSet: Int
    public var suppressedByGuard: Int
    public var windowEvictions: Int
    public var consumedEvictions: Int
    /// Filters only: theory at the final fill.
    public var theoreticalFalsePositiveRate: Double?
    /// Filters only: measured on never-consumed probe ids after the run.
    public var measuredFalsePositiveRate: Double?
    /// Errors matched event by event against the reference case on the same events (the
    /// reference pair `seed-literal + set` in the same mode, or the layer's reference in a
    /// single-layer mode); `nil` when no reference could be run.
    public var matched: MatchedErrors?
    /// Missed duplicates and false drops by named cause (``ErrorCause``); each sums to its count.
    public var missedByCause: [String: Int] = [:]
    public var droppedByCause: [String: Int] = [:]
}

/// One point of a parameter sweep.
public struct SweepPoint: Codable, Sendable, Equatable {
    /// What was swept; written as its raw value (`window-length`).
    public var dimension: SweepDimension
    /// The swept value, in the dimension's unit (entries, ids, ms, bits).
    public var x: Double
    /// The strategy id whose curve this point belongs to.
    public var strategy: String
    public var nanosecondsPerEvent: Double?
    public var bytes: Double?
    public var falseDrops: Int?
    public var missedDuplicates: Int?
    public var events: Int
    /// Where `bytes` comes from: an allocator source, or `footprint` (optional).
    public var bytesSource: String?
    /// The workload the point was measured on (optional).
    public var workload: String?
    /// Filters: measured false-positive rate at the point (optional).
    public var measuredFalsePositiveRate: Double?
}
