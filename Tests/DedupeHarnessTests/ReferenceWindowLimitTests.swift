import DedupeWorkloads
import PushDedupe
import Testing
@testable import DedupeHarness

/// The published window's bound: it runs while at most 4,096 deliveries fall within one window
/// and its scans stay under 2.5×10⁸ entries; past that its cases stop, and the run says where.
@Suite struct ReferenceWindowLimitTests {
    /// `count` payloads of distinct fingerprints within the first millisecond, all wanted.
    static func burst(_ count: Int) -> Workload {
        var random = SplitMix64(seed: 7)
        let events = (0..<count).map { index in
            WorkloadEvent(
                time: Timestamp(nanoseconds: Int64(index) * 100), kind: .payload, envelope: EnvelopeID(high: random.next(), low: random.next()),
                fingerprint: RouteFingerprint(route: "item:\(index)"), route: UInt32(index), source: 0, truth: .new)
        }
        return Workload(name: "burst", summary: "", routes: (0..<count).map { "item:\($0)" }, sources: ["tap"], events: events)
    }

    /// The limit as a plain model computes it: for each delivery, the deliveries before it since
    /// the last relaunch at most a window (plus 1 µs) earlier, and the running sum.
    static func model(_ workload: Workload, window: Int64, liveBound: Int, scanBound: Int) -> Int? {
        var scanned = 0
        var since = 0
        for (i, event) in workload.events.enumerated() {
            if event.kind == .relaunch { since = i + 1; continue }
            guard !event.kind.isLifecycle else { continue }
            let live = workload.events[since..<i].filter {
                !$0.kind.isLifecycle && Double(event.time.nanoseconds) - Double($0.time.nanoseconds) <= Double(window + 1_000)
            }.count
            scanned += live
            if live > liveBound || scanned > scanBound { return i }
        }
        return nil
    }

    @Test func tenThousandFingerprintsWithinAMillisecondStopAfter4096() throws {
        let workload = Self.burst(10_000)
        let limit = try #require(ReferenceWindowLimit.limit(EventColumns(workload.events), windowMilliseconds: 500))
        #expect(limit.events == 4_097 && limit.liveFingerprints == 4_097 && limit.workloadEvents == 10_000)
        #expect(limit.note(workload: "burst.csv") == "burst.csv: the published window published-literal is O(live) per event and would "
            + "reach more than 4,096 live fingerprints within one window at event 4,098 of 10,000; its cases ran on the first 4,097 "
            + "events, the cases matched against them were matched there, and timing was capped there")
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func theLimitAgreesWithAModel(seed: UInt64) {
        let workload = randomWorkload(seed: seed, events: 1_500, spacingNanoseconds: 2_000_000)
        let columns = EventColumns(workload.events)
        for (live, scans) in [(5, 1_000_000), (1_000, 3_000), (12, 9_000), (10_000, 10_000_000)] {
            let expected = Self.model(workload, window: 50_000_000, liveBound: live, scanBound: scans)
            let limit = ReferenceWindowLimit.limit(columns, windowMilliseconds: 50, liveBound: live, scanBound: scans)
            #expect(limit?.events == expected, "bounds \(live), \(scans)")
        }
    }

    /// Times 2⁶³ ns apart and a window at the limit of `Int64` do not trap.
    @Test func extremeTimesDoNotTrap() {
        let events = [Int64.min, Int64.min + 1, 0, Int64.max - 1, Int64.max].map { time in
            WorkloadEvent(time: Timestamp(nanoseconds: time), kind: .payload, envelope: EnvelopeID(high: 0, low: UInt64(bitPattern: time)),
                          fingerprint: RouteFingerprint(rawValue: 1), route: 0, source: 0, truth: .new)
        }
        let columns = EventColumns(events)
        #expect(ReferenceWindowLimit.limit(columns, windowMilliseconds: .infinity) == nil)
        #expect(ReferenceWindowLimit.limit(columns, windowMilliseconds: .infinity, liveBound: 1, scanBound: 100)?.events == 2)
        #expect(ReferenceWindowLimit.limit(columns, windowMilliseconds: 0, liveBound: 0, scanBound: 100)?.events == 1)
    }

    /// The replay of the burst: the published window's cases run on the first 4,097 events, the
    /// other windows on all 10,000, matched errors on the events both ran, and the results keep
    /// the limit for the note.
    @Test func aReplayOfTheBurstStopsThePublishedWindowAndSaysWhere() throws {
        var plan = RunPlan(
            source: .trace(Self.burst(10_000), fileName: "burst.csv"), seed: 1, repetitions: 1,
            filter: RunFilter(windows: ["hash-deque"], consumedSets: ["set"], modes: ["window-alone", "two-layer"]),
            measureTiming: false, measureMemory: false, runSweeps: false)
        plan.memoryIsolation = .inProcess
        let results = try BenchmarkRunner.run(plan) { _ in }
        let limit = try #require(results.workloads?.first?.referenceWindowLimit)
        #expect(limit.events == 4_097)
        for result in results.cases {
            let correctness = try #require(result.correctness)
            #expect(correctness.events == (result.window == "published-literal" ? 4_097 : 10_000), "\(result.id.text)")
        }
        let hashDeque = try #require(results.cases.first { $0.mode == .windowAlone && $0.window == "hash-deque" })
        let matched = try #require(hashDeque.correctness?.matched)
        #expect(matched.newlyDropped + matched.recoveredNavigations == 0)
    }
}
