import DedupeWorkloads
import PushDedupe
import Testing
@testable import DedupeHarness

/// The prepared-input stage: the workload's columns, and every prefix the timing phase reads cut
/// from them, equal to the columns of the prefix's events.
@Suite struct EventColumnsTests {
    /// The first 400 events of the first scenario with emits among them, a relaunch inserted
    /// every 37 events, so prefixes cut through relaunches, replays and emits alike.
    static let workload: Workload = {
        let base = ScenarioCatalogue.all.lazy.map { $0.workload(seed: 5, scale: 0.01) }
            .first { $0.events.prefix(400).contains { $0.kind == .emit } }!
        var events: [WorkloadEvent] = []
        for (index, event) in base.events.prefix(400).enumerated() {
            if index % 37 == 36 { events.append(.relaunch(at: event.time)) }
            events.append(event)
        }
        return Workload(name: base.name, summary: "", routes: base.routes, sources: base.sources, events: events, pushes: base.pushes)
    }()

    @Test func theWorkloadMixesPayloadsEmitsAndRelaunches() {
        let kinds = Set(Self.workload.events.map(\.kind))
        #expect(kinds == [.payload, .emit, .relaunch])
        #expect(Self.workload.firstInconsistency() == nil)
    }

    @Test func everyPrefixEqualsTheColumnsOfThePrefix() {
        let events = Self.workload.events
        let columns = EventColumns(events)
        for count in 0...events.count {
            #expect(columns.prefix(count) == EventColumns(events.prefix(count)), "prefix \(count)")
        }
        #expect(columns.prefix(events.count + 5) == columns)
    }

    @Test func thePayloadsOfEveryPrefixEqualTheColumnsOfItsPayloads() {
        let events = Self.workload.events
        let columns = EventColumns(events)
        for count in stride(from: 0, through: events.count, by: 7) {
            let expected = EventColumns(events.prefix(count).filter { $0.kind == .payload })
            #expect(columns.prefix(count).payloads() == expected, "prefix \(count)")
        }
    }

    /// Slots are renumbered in order of first appearance: a payload subset whose envelopes first
    /// appear out of the full order (an emit of a pre-existing envelope, as a sweep's re-emits
    /// are) still matches the columns built from it.
    @Test func payloadSlotsAreRenumberedDensely() {
        let events = WorkloadSource.consumedSweepOperations(count: 50, operations: 200, round: 1, seed: 9).events
        let columns = EventColumns(events)
        #expect(columns.payloads() == EventColumns(events.filter { $0.kind == .payload }))
        #expect(columns.payloads().envelopeCount == 100)
    }

    /// The prepared-input stage reads the workload's own columns: the minted ones share every
    /// array with the workload (nothing converted or renumbered again).
    @Test func aPreparedWorkloadSharesTheWorkloadsColumns() {
        var loaded = LoadedWorkload(id: "w", category: nil, tag: nil, workload: Self.workload, spec: nil)
        loaded.prepare(keepEvents: false)
        func address<T>(_ array: [T]) -> UnsafeRawPointer? { array.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) } }
        let own = Self.workload.events.columns
        #expect(loaded.columns == own.flaggingActionCompletions())
        #expect(address(loaded.columns.times) == address(own.times))
        #expect(address(loaded.columns.envelopeSlot) == address(own.envelopeSlot))
        #expect(address(loaded.columns.envelopeTable) == address(own.envelopeTable))
        #expect(loaded.workload.events.isEmpty)
    }

    /// A run with correctness, timing and the in-process memory pass over the prepared columns.
    @Test(arguments: [false, true])
    func aRunMeasuresEveryPhaseOnThePreparedColumns(catalogue: Bool) throws {
        var plan = catalogue ? RunPlan(source: .catalogue, seed: 3, repetitions: 2) : scoringPlan(Self.workload, windows: nil, consumed: nil)
        plan.strategies = .toys
        plan.sizing = .tiny
        plan.allowDebugBuild = true
        plan.memoryIsolation = .inProcess
        plan.measureTiming = true
        plan.measureMemory = true
        plan.runSweeps = catalogue
        if catalogue { plan.filter.workloads = ScenarioCatalogue.all.prefix(3).map(\.id) }
        let results = try BenchmarkRunner.run(plan, progress: { _ in })
        #expect(results.cases.allSatisfy { $0.correctness != nil })
        #expect(results.cases.filter(\.choice.isBase).allSatisfy { $0.timing != nil })
        #expect(results.cases.filter { !$0.choice.isBase }.allSatisfy { $0.timing == nil && $0.memory == nil })
        #expect(results.cases.filter { $0.mode == .twoLayer && $0.choice.isBase }.allSatisfy { $0.memory != nil })
    }
}
