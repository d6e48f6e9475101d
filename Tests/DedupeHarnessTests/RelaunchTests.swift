import DedupeWorkloads
import PushDedupe
import Testing
@testable import DedupeHarness

/// Relaunches through the harness: a relaunch in the middle of every scenario, with each
/// consumed set persisting in memory (lost) and by snapshot (restored).
@Suite struct RelaunchTests {
    /// The first 300 events of `workload` (a prefix of a consistent workload is consistent), with
    /// a relaunch inserted before the event at the middle.
    static func withRelaunchInTheMiddle(_ workload: Workload) -> (events: [WorkloadEvent], relaunch: Int) {
        var events = Array(workload.events.prefix(300))
        let middle = events.count / 2
        let time = middle < events.count ? events[middle].time : (events.last?.time ?? Timestamp(nanoseconds: 0))
        events.insert(.relaunch(at: time), at: middle)
        return (events, middle)
    }

    static func decisions(
        _ entry: ConsumedSetEntry, _ events: [WorkloadEvent], mode: CaseMode, persistence: Persistence
    ) throws -> [UInt8] {
        let configuration = entry.defaultConfiguration ?? ConsumedSetConfiguration()
        var parameters = CaseParameters(
            windowMilliseconds: 500, windowCapacity: 4_096, consumedCapacity: configuration.capacity,
            falsePositiveRate: configuration.falsePositiveRate,
            retentionMilliseconds: Double(configuration.retention.wholeNanoseconds) / 1e6)
        // Tables small enough to snapshot and rebuild cheaply at each relaunch in a debug build,
        // yet above the 300 events (nothing is evicted, as at full size) and above the 256 up to
        // which debug builds walk lanes; time-sized filters hold 3,000 ids (100 ids/s over 30 s).
        parameters.expectedRatePerSecond = min(configuration.expectedRatePerSecond, 100)
        parameters.consumedCapacity = min(parameters.consumedCapacity, 1_024)
        let anyCase = StrategyCatalogue.standard.makeCase(
            window: StrategyCatalogue.standard.window("hash-deque"), consumed: entry, mode: mode, parameters: parameters,
            persistence: persistence)
        return try anyCase._correctness(EventColumns(events), 0, 1, _RelaunchState.defaultSavedBytesBound).decisions
    }

    /// A restored set answers every later consume as if the process had never died; a set kept
    /// in memory answers like a fresh set fed only the events after the relaunch.
    @Test(arguments: ScenarioCatalogue.all.map(\.id))
    func aRelaunchInTheMiddleRestoresOrLosesTheConsumedSet(scenario id: String) throws {
        let workload = try #require(ScenarioCatalogue.scenario(named: id)).workload(seed: 11, scale: 0.002)
        let (events, relaunch) = Self.withRelaunchInTheMiddle(workload)
        let uninterrupted = workload.events.prefix(300).filter { $0.kind != .relaunch }
        #expect(Workload(name: id, summary: "", routes: workload.routes, sources: workload.sources, events: events,
                         pushes: workload.pushes).firstInconsistency() == nil)
        for entry in StrategyCatalogue.standard.consumedSets {
            let restored = try Self.decisions(entry, events, mode: .consumedAlone, persistence: .afterEveryConsume)
            let lost = try Self.decisions(entry, events, mode: .consumedAlone, persistence: .memory)
            #expect(restored[relaunch] == CaseDecision.notApplicable.rawValue && lost[relaunch] == restored[relaunch])
            if !workload.events.prefix(300).contains(where: { $0.kind == .relaunch }) {
                let reference = try Self.decisions(entry, uninterrupted, mode: .consumedAlone, persistence: .memory)
                var expected = reference
                expected.insert(CaseDecision.notApplicable.rawValue, at: relaunch)
                #expect(restored == expected, "\(id) \(entry.id): snapshot differs from the uninterrupted run")
            }
            let suffix = Array(events[(relaunch + 1)...])
            let fresh = try Self.decisions(entry, suffix, mode: .consumedAlone, persistence: .memory)
            #expect(Array(lost[(relaunch + 1)...]) == fresh, "\(id) \(entry.id): memory differs from a fresh start")
        }
    }

    /// `count` fresh envelopes a second apart per segment, each segment followed by a background
    /// and a relaunch, so an exact set's snapshot grows at every save point.
    static func growingSegments(_ segments: Int, of count: Int) -> [WorkloadEvent] {
        var events: [WorkloadEvent] = []
        var second: Int64 = 0
        for segment in 0..<segments {
            for i in 0..<count {
                second += 1
                events.append(WorkloadEvent(
                    time: Timestamp(nanoseconds: second * 1_000_000_000), kind: .payload,
                    envelope: EnvelopeID(high: UInt64(segment + 1), low: UInt64(i + 1)),
                    fingerprint: RouteFingerprint(route: "item:\(i)"), route: UInt32(i), source: 0, truth: .new))
            }
            events.append(.background(at: Timestamp(nanoseconds: second * 1_000_000_000)))
            events.append(.relaunch(at: Timestamp(nanoseconds: second * 1_000_000_000)))
        }
        return events
    }

    /// A persisting case stops at the first save point where its snapshots pass the bound, and
    /// decides the events before it as the unbounded run does; a case kept in memory never saves,
    /// so never stops.
    @Test(arguments: [Persistence.afterEveryConsume, .onBackground])
    func aPersistingCaseStopsWhereItsSnapshotsPassTheBound(persistence: Persistence) throws {
        let events = Self.growingSegments(4, of: 50)
        let columns = EventColumns(events)
        let entry = try #require(StrategyCatalogue.standard.consumedSet("set"))
        let parameters = CaseParameters(
            windowMilliseconds: 500, windowCapacity: 64, consumedCapacity: 1_024, falsePositiveRate: 0.01,
            retentionMilliseconds: 30_000)
        func run(_ persistence: Persistence, bound: Int, on columns: EventColumns = columns) throws -> _CorrectnessRun {
            try StrategyCatalogue.standard.makeCase(
                window: nil, consumed: entry, mode: .consumedAlone, parameters: parameters, persistence: persistence
            )._correctness(columns, 0, 1, bound)
        }
        let whole = try run(persistence, bound: _RelaunchState.defaultSavedBytesBound)
        #expect(whole.decisions.count == events.count && whole.snapshot?.eventsRun == nil)
        // The first segment alone saves once: with that many bytes allowed, the second save
        // passes the bound and the case stops at that marker.
        let firstSave = try #require(run(persistence, bound: .max, on: columns.prefix(52)).snapshot?.maximumBytes)
        let bounded = try run(persistence, bound: firstSave)
        let savePoints = events.indices.filter { events[$0].kind == (persistence == .afterEveryConsume ? .relaunch : .background) }
        let stop = try #require(bounded.snapshot?.eventsRun)
        #expect(stop == savePoints[1], "\(persistence): stopped at \(stop), save points \(savePoints)")
        #expect(bounded.decisions == Array(whole.decisions.prefix(stop)))
        let memory = try run(.memory, bound: 1)
        #expect(memory.decisions.count == events.count && memory.snapshot == nil)
    }

    /// A whole run where every persisting twin stops at its first save point: each says where,
    /// and the twins that ran every event still attribute their errors (naming no cause from a
    /// twin past the events it ran).
    @Test func aRunWhosePersistingTwinsStopEarlyStillScoresEveryCase() throws {
        var plan = RunPlan(source: .catalogue, seed: 4, repetitions: 1, measureTiming: false, measureMemory: false, runSweeps: false)
        plan.filter = RunFilter(windows: ["hash-deque"], consumedSets: ["set"], workloads: ["stale-initial-notification"], modes: ["two-layer"])
        plan.sizing = .tiny
        plan.allowDebugBuild = true
        plan.snapshotBytesBound = 1
        let results = try BenchmarkRunner.run(plan) { _ in }
        let persisting = results.cases.filter { $0.persistence != .memory }
        #expect(!persisting.isEmpty)
        for result in results.cases {
            let correctness = try #require(result.correctness, "\(result.id.text)")
            if result.persistence == .memory {
                #expect(result.snapshot == nil)
                #expect(correctness.missedDuplicates == correctness.missedByCause.values.reduce(0, +), "\(result.id.text)")
            } else {
                let eventsRun = try #require(result.snapshot?.eventsRun, "\(result.id.text)")
                #expect(correctness.events <= eventsRun)
            }
        }
    }

    /// At a relaunch the window is lost in every persistence: a payload repeated across it is
    /// admitted again.
    @Test func theWindowIsAlwaysLost() throws {
        let route = RouteFingerprint(route: "item:1")
        let first = WorkloadEvent(time: Timestamp(nanoseconds: 0), kind: .payload, envelope: EnvelopeID(high: 1, low: 1),
                                  fingerprint: route, route: 0, source: 0, truth: .new)
        var second = first
        second.envelope = EnvelopeID(high: 2, low: 2)
        second.time = Timestamp(nanoseconds: 2_000_000)
        second.truth = .dup
        let events = [first, .relaunch(at: Timestamp(nanoseconds: 1_000_000)), second]
        for persistence in Persistence.allCases {
            let decisions = try Self.decisions(
                try #require(StrategyCatalogue.standard.consumedSet("fifo-set")), events, mode: .twoLayerGuarded,
                persistence: persistence)
            #expect(decisions == [CaseDecision.navigated, .notApplicable, .navigated].map(\.rawValue), "\(persistence)")
        }
    }

    /// The real-world relaunch scenario: the stale notification is the same push delivered again
    /// after a relaunch, so every exact set kept in memory, or keyed on minted ids, lets it
    /// through; keyed on the push's id and restored from its snapshot, each stops it.
    @Test func staleInitialNotificationsGetThroughOnlyWithoutASnapshot() throws {
        // The first quarter of the scenario: about 150 of its 600 relaunches, each of which saves
        // and restores every persisting set (all 600 made this the slowest test).
        var workload = try #require(ScenarioCatalogue.scenario(named: "stale-initial-notification")).workload(seed: 4, scale: 1)
        workload.events.keepFirst(workload.events.count / 4)
        var plan = RunPlan(
            source: .trace(workload, fileName: "stale-initial-notification"), seed: 4, repetitions: 1, measureTiming: false,
            measureMemory: false, runSweeps: false)
        let exact = ["set", "fifo-set", "bounded-lru", "rotating-sets", "direct-mapped", "recent-ids-10", "recent-ids-100", "id-time-map", "last-id"]
        plan.filter = RunFilter(windows: ["hash-deque"], consumedSets: exact, modes: ["two-layer"])
        // The standard sets at a capacity that still holds every episode, cheap to rebuild.
        plan.strategies = StrategyCatalogue(
            windows: StrategyCatalogue.standard.windows,
            consumedSets: StrategyCatalogue.standard.consumedSets.map { entry in
                // Profile-sized sets (no pinned configuration) are small already.
                var small = entry
                small.defaultConfiguration?.capacity = min(entry.defaultConfiguration?.capacity ?? 0, 8_192)
                return small
            })
        plan.sizing = .tiny
        plan.allowDebugBuild = true
        let results = try BenchmarkRunner.run(plan) { _ in }
        for consumed in exact {
            let rows = results.cases.filter { $0.consumed == consumed }
            let memory = try #require(rows.first { $0.identity == .pushID && $0.persistence == .memory }?.correctness, "\(consumed)")
            let minted = try #require(rows.first { $0.identity == .minted && $0.persistence == .afterEveryConsume }?.correctness, "\(consumed)")
            #expect(minted.missedDuplicates == memory.missedDuplicates, "\(consumed): a minted id is new after the relaunch")
            let snapshot = try #require(rows.first { $0.identity == .pushID && $0.persistence == .afterEveryConsume }, "\(consumed)")
            #expect(memory.missedDuplicates == memory.dupEvents && memory.dupEvents > 0, "\(consumed) in memory")
            let relaunches = try #require(snapshot.snapshot?.relaunches)
            #expect(relaunches > 0 && (snapshot.snapshot?.maximumBytes ?? 0) > 0)
            let restored = try #require(snapshot.correctness)
            // `rotating-sets` (30 s) and `id-time-map` (5 s) forget a notification by the next
            // relaunch, 30 s–10 min later, and `last-id` as soon as another push is consumed in
            // between; the sets that hold every episode's id stop every one.
            if ["rotating-sets", "id-time-map", "last-id"].contains(consumed) {
                #expect(restored.missedDuplicates <= memory.missedDuplicates, "\(consumed) restored")
            } else {
                #expect(restored.missedDuplicates == 0, "\(consumed) restored")
            }
            #expect(restored.falseDrops == 0)
        }
    }
}
