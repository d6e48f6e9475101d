@testable import DedupeMeasurement
@testable import DedupeDecision
@testable import DedupeHarness
import DedupeReports
import DedupeWorkloads
import Foundation
import PushDedupe
import Testing

/// The published pair as one type, the shape most teams' router dedupe has.
struct PublishedAsOne: DedupePipeline {
    static let strategyID = "published-as-one"
    static let guarantee = Guarantee.exact
    var pipeline: TwoLayerPipeline<PublishedLiteralWindow, UnboundedSet>

    init(window: WindowConfiguration, consumed: ConsumedSetConfiguration) throws(ConfigurationError) {
        pipeline = TwoLayerPipeline(window: try PublishedLiteralWindow(configuration: window), consumed: try UnboundedSet(configuration: consumed))
    }

    mutating func receivePayload(_ fingerprint: RouteFingerprint, envelope: EnvelopeID, at now: Timestamp) -> RoutingDecision {
        pipeline.receivePayload(fingerprint, envelope: envelope, at: now)
    }

    mutating func receiveEmit(envelope: EnvelopeID, at now: Timestamp) -> RoutingDecision {
        pipeline.receiveEmit(envelope: envelope, at: now)
    }
}

/// Wrong on purpose: every payload within the window of the last one admitted is dropped,
/// whatever its screen, yet it declares itself exact.
struct DebounceEverything: DedupePipeline {
    static let strategyID = "debounce-everything"
    static let guarantee = Guarantee.exact
    let window: Int64
    var lastAdmitted: Int64?
    var consumed = Set<EnvelopeID>()

    init(window: WindowConfiguration, consumed: ConsumedSetConfiguration) throws(ConfigurationError) {
        self.window = window.window.wholeNanoseconds
    }

    mutating func receivePayload(_ fingerprint: RouteFingerprint, envelope: EnvelopeID, at now: Timestamp) -> RoutingDecision {
        if let lastAdmitted, now.nanoseconds - lastAdmitted <= window { return .suppressedByWindow }
        lastAdmitted = now.nanoseconds
        return receiveEmit(envelope: envelope, at: now)
    }

    mutating func receiveEmit(envelope: EnvelopeID, at now: Timestamp) -> RoutingDecision {
        consumed.insert(envelope).inserted ? .navigated : .suppressedByConsumedSet
    }
}

/// A team's whole pipeline through the harness and the recommendation: named in the window's
/// place, scored against the published code event by event, and, when its drops contradict its
/// declared guarantee, flagged and never recommended.
@Suite struct WholePipelineTests {
    static let results: RunResults = {
        var plan = RunPlan(
            source: .catalogue, seed: 9, repetitions: 1,
            filter: RunFilter(windows: ["published-literal", "hash-deque"], consumedSets: ["set"], modes: ["two-layer", "two-layer-guarded"]),
            measureMemory: false, runSweeps: false)
        var catalogue = StrategyCatalogue.standard
        catalogue.pipelines = [
            PipelineEntry(PublishedAsOne.self, reads: [.windowLength], summary: "the published pair as one type"),
            PipelineEntry(DebounceEverything.self, reads: [.windowLength], summary: "a debounce of every push"),
        ]
        plan.strategies = catalogue
        // A few hundred events per case, for a debug build; no sweeps run.
        var sizing = RunSizing.quick
        sizing.workloadScale = 0.001
        sizing.timingSecondsPerWorkload = 0.01
        sizing.timedEventsRange = 50...400
        sizing.latencyBatchSize = 16
        sizing.falsePositiveProbes = 200
        plan.sizing = sizing
        plan.allowDebugBuild = true
        plan.forks = 1
        return try! BenchmarkRunner.run(plan) { _ in }
    }()

    static func cases(_ id: String) -> [CaseResult] { results.cases.filter { $0.window == id } }

    @Test func aPipelineRunsInBothTwoLayerModesOnEveryWorkloadNamedInTheWindowsPlace() throws {
        let published = Self.cases(PublishedAsOne.strategyID)
        let workloads = Set(Self.results.cases.map(\.workload))
        for mode in [CaseMode.twoLayer, .twoLayerGuarded] {
            #expect(Set(published.filter { $0.mode == mode && $0.choice.isBase }.map(\.workload)) == workloads)
        }
        let first = try #require(published.first)
        #expect(first.consumed == nil && first.windowType == "PublishedAsOne" && first.windowGuarantee?.guaranteeClass == .exact)
        #expect(first.id.text == "\(first.workload)/\(first.mode.rawValue)/published-as-one(window=500ms)/minted/memory")
        // Timed like any other case, with its ratio to the published code.
        #expect(published.contains { $0.timing?.ratiosToReference.isEmpty == false })
    }

    @Test func thePublishedPairAsOneTypeDecidesLikeThePublishedPair() throws {
        for result in Self.cases(PublishedAsOne.strategyID) {
            let pair = try #require(Self.results.cases.first {
                $0.workload == result.workload && $0.mode == result.mode && $0.window == "published-literal" && $0.consumed == "set"
                    && $0.identity == result.identity && $0.persistence == .memory
            })
            let (mine, theirs) = (try #require(result.correctness), try #require(pair.correctness))
            #expect(mine.falseDrops == theirs.falseDrops && mine.missedDuplicates == theirs.missedDuplicates, "\(result.id)")
            // The causes of its misses may differ: the pair has `snapshot` twins, a pipeline none.
            #expect(mine.droppedByCause == theirs.droppedByCause, "\(result.id)")
            #expect(mine.missedByCause.values.reduce(0, +) == mine.missedDuplicates, "\(result.id)")
            #expect(mine.matched?.newlyDropped == theirs.matched?.newlyDropped, "\(result.id)")
            #expect(result.guaranteeContradiction == nil)
        }
    }

    @Test func theResultsFileReadsAPipelineCaseBack() throws {
        let decoded = try JSONDecoder().decode(RunResults.self, from: JSONEncoder().encode(Self.results))
        #expect(decoded.cases.map(\.id) == Self.results.cases.map(\.id))
        #expect(decoded.cases.first { $0.window == DebounceEverything.strategyID }?.windowType == "DebounceEverything")
    }

    @Test func droppingWhatItsGuaranteeRulesOutIsFlaggedAndNeverRecommended() throws {
        let debounce = Self.cases(DebounceEverything.strategyID)
        let dropped = debounce.compactMap { $0.correctness?.droppedByCause[ErrorCause.windowDropOutside] }.reduce(0, +)
        #expect(dropped > 0)
        #expect(debounce.contains { $0.guaranteeContradiction?.hasPrefix("declared exact, yet dropped") == true })
        // No built-in case contradicts its declaration.
        #expect(Self.results.cases.filter { $0.window != DebounceEverything.strategyID }.allSatisfy { $0.guaranteeContradiction == nil })

        let recommendation = Recommendation.make(from: Self.results)
        #expect(recommendation.winner?.window != DebounceEverything.strategyID)
        let assessed = recommendation.assessments.filter { $0.candidate.window == DebounceEverything.strategyID }
        #expect(!assessed.isEmpty)
        #expect(assessed.allSatisfy { $0.excludedBy == .guarantee && $0.reason?.contains(ErrorCause.windowDropOutside) == true })
        let headline = MarkdownReport.headline(Self.results, recommendation: recommendation)
        #expect(headline.contains("**Flagged: `two-layer/debounce-everything(window=500ms)/"))
    }

    /// A pick that is a team's pipeline prints adoption code that names the team's type.
    @Test func theAdoptionCodeOfAPipelineNamesTheTeamsType() throws {
        let recommendation = Recommendation.make(from: Self.results)
        let candidate = try #require(recommendation.assessments.map(\.candidate).first { $0.window == PublishedAsOne.strategyID })
        let code = AdoptionCode.swift(candidate, store: nil)
        #expect(code.contains("var dedupe = try PublishedAsOne(window: WindowConfiguration(window: .milliseconds(500)), consumed: ConsumedSetConfiguration())"), "\(code)")
        #expect(code.contains("dedupe.receivePayload(RouteFingerprint(route: route), envelope: envelope, at: now)"))
        #expect(code.contains("dedupe.receiveEmit(envelope: envelope, at: now)"))
    }

    /// A timing fork, in the child, rebuilds a pipeline case from its id in the catalogue the
    /// executable registered, as it does a window and a set.
    @Test func aTimingForkRebuildsAPipelineCaseFromItsID() throws {
        var catalogue = StrategyCatalogue.standard
        catalogue.pipelines = [PipelineEntry(PublishedAsOne.self, reads: [.windowLength], summary: "")]
        let parameters = CaseParameters(
            windowMilliseconds: 500, windowCapacity: 4, consumedCapacity: 1_024, falsePositiveRate: 0.01, retentionMilliseconds: 30_000)
        let files = try _ChildFiles()
        let events = try #require(ScenarioCatalogue.all.first).workload(seed: 3, scale: 0.002).events
        let columns = WorkloadEvents(Array(events.prefix(300)).filter { $0.kind != .relaunch }).columns
        let request = TimingForkRequest(
            workloads: [ChildWorkload(spec: nil, columnsFile: try files.write(columns, count: columns.count))],
            timedEvents: [min(150, columns.count)],
            cases: [
                ChildCaseSpec(key: 1, workload: 0, mode: .twoLayer, window: PublishedAsOne.strategyID, consumed: nil, parameters: parameters),
                ChildCaseSpec(key: 2, workload: 0, mode: .twoLayerGuarded, window: PublishedAsOne.strategyID, consumed: nil, parameters: parameters),
            ],
            repetitions: 2, batchSize: 16, seed: 1, fork: 1)
        let response = try TimingFork.run(request, catalogue: catalogue)
        #expect(response.outcomes.map(\.key) == [1, 2])
        #expect(response.outcomes.allSatisfy { $0.samples.count == 2 && $0.samples.allSatisfy { $0 > 0 && $0.isFinite } })
        #expect(throws: MeasurementError.invalidPlan("child: unknown pipeline 'published-as-one'")) {
            try TimingFork.run(request, catalogue: .standard)
        }
    }
}
