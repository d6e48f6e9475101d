@testable import DedupeHarness
import DedupeWorkloads
import PushDedupe
import Testing

/// The device profile and the sizing derived from it: the set from the stated facts, the window
/// from the measured bursts, on hand-computed traces.
@Suite struct DeviceProfileTests {
    /// e1 A @0 new, e2 B @100 new, e1 replayed @1000 (the longest replay, 1 s), e3 A @3000 new
    /// (a re-tap 3 s after A), e5 B @3010 dup (2,910 ms after B), e3 replayed @3500, e4 C @5000.
    static let workload = trace([
        (0, .payload, 1, 0, .new), (100, .payload, 2, 1, .new), (1_000, .emit, 1, 0, .dup),
        (3_000, .payload, 3, 0, .new), (3_010, .payload, 5, 1, .dup), (3_500, .emit, 3, 0, .dup),
        (5_000, .payload, 4, 2, .new),
    ])

    static let facts = HorizonFacts(pushesPerDay: 100, retentionDays: 2)

    @Test func profileAndSizingFollowTheStatedRules() {
        let profile = DeviceProfile.derive(from: [Self.workload], windowMilliseconds: 500, facts: Self.facts, safetyFactor: 1.5)
        #expect(profile.horizonSource == "facts" && profile.horizonIDs == 200)
        #expect(profile.longestReplayMilliseconds == 1_000 && profile.spanMilliseconds == 5_000)
        #expect(profile.peakPayloadsInWindow == 2)
        #expect(profile.peakIdsPerSecond == 2)
        #expect(profile.replayDelays.count == 2 && profile.replayDelays.max == 1_000 && profile.replayDelays.p50 == 750)
        #expect(profile.wantedRetapDelays.count == 1 && profile.wantedRetapDelays.max == 3_000)
        #expect(profile.duplicatePayloadDelays.count == 1 && profile.duplicatePayloadDelays.max == 2_910)
        // Capacity 200 × 1.5; retention 2 days × 1.5; the window from the measured burst of 2.
        #expect(profile.sizing == DeviceProfile.Sizing(
            windowCapacity: 3, consumedCapacity: 300, retentionMilliseconds: 259_200_000,
            expectedRatePerSecond: 300 / 259_200, falsePositiveRate: 0.01))
        #expect(profile.sizingNote.contains("100 pushes a day"))
    }

    /// A later delivery of the same push counts as a replay of it, as `push-id` identity sees it.
    @Test func redeliveriesOfAPushAreReplays() {
        var workload = trace([(0, .payload, 1, 0, .new), (7_000, .payload, 2, 0, .dup)])
        workload.pushes = [EnvelopeID(high: 9, low: 9)]
        workload.events = WorkloadEvents(workload.events.map { event in
            var event = event
            event.push = 0
            return event
        })
        let profile = DeviceProfile.derive(from: [workload], windowMilliseconds: 500)
        #expect(profile.longestReplayMilliseconds == 7_000 && profile.replayDelays.count == 1)
    }

    /// A trace that spans the horizon and holds a relaunch sizes the set from its own peak; a
    /// shorter one from the facts, saying so.
    @Test func aLongTraceSizesTheHorizonFromItsOwnPeak() {
        let day = 86_400_000.0
        var events: [(Double, EventKind, UInt64, UInt32, Truth)] = (0..<30).map { (Double($0) * day / 10, .payload, UInt64($0), 0, .new) }
        events.insert((day, .relaunch, 0, 0, .unknown), at: 11)
        let long = trace(events)
        let facts = HorizonFacts(pushesPerDay: 1_000, retentionDays: 2)
        let fromTrace = DeviceProfile.derive(from: [long], windowMilliseconds: 500, facts: facts, safetyFactor: 1, trace: true)
        // 10 envelopes a day; any closed 2-day span holds 21.
        #expect(fromTrace.horizonSource == "trace" && fromTrace.horizonIDs == 21 && fromTrace.sizing.consumedCapacity == 21)
        #expect(fromTrace.sizingNote.contains("its own peak"))
        let short = DeviceProfile.derive(from: [Self.workload], windowMilliseconds: 500, facts: facts, safetyFactor: 1, trace: true)
        #expect(short.horizonSource == "facts" && short.horizonIDs == 2_000)
        #expect(short.sizingNote.contains("too short to size the horizon"))
    }

    @Test func floorsKeepEveryStrategyConstructible() {
        let profile = DeviceProfile.derive(
            from: [trace([])], windowMilliseconds: 500, facts: HorizonFacts(pushesPerDay: 0.001, retentionDays: 0.000001), safetyFactor: 1)
        #expect(profile.sizing.consumedCapacity == 1 && profile.sizing.windowCapacity == 1)
        #expect(profile.sizing.retentionMilliseconds == 500)
    }

    /// Times at the ends of `Int64` (a trace may hold any of them) and the largest factor in
    /// range never trap: differences are taken in `Double`, counts saturate.
    @Test func extremeTimesAndFactorsNeverTrap() {
        let edge = trace([])
        var events = Array(edge.events)
        for (index, nanoseconds) in [Int64.min, -1, 0, Int64.max].enumerated() {
            events.append(WorkloadEvent(
                time: Timestamp(nanoseconds: nanoseconds), kind: .payload, envelope: EnvelopeID(high: 1, low: UInt64(index)),
                fingerprint: RouteFingerprint(route: "item:A"), route: 0, source: 0, truth: .new))
        }
        events.append(WorkloadEvent(
            time: Timestamp(nanoseconds: .max), kind: .emit, envelope: EnvelopeID(high: 1, low: 0),
            fingerprint: RouteFingerprint(route: "item:A"), route: 0, source: 0, truth: .dup))
        var workload = edge
        workload.events = WorkloadEvents(events)
        let profile = DeviceProfile.derive(
            from: [workload], windowMilliseconds: 3_600_000, facts: HorizonFacts(pushesPerDay: 1_000_000, retentionDays: 3_650),
            safetyFactor: 1_000, trace: true)
        #expect(profile.longestReplayMilliseconds > 1.8e13)
        #expect(profile.sizing.consumedCapacity == 3_650_000_000_000)
        #expect(profile.sizing.retentionMilliseconds == 3_650 * 86_400_000 * 1_000)
        let parameters = CaseParameters(
            windowMilliseconds: 3_600_000, windowCapacity: 1, consumedCapacity: 1, falsePositiveRate: 0.01,
            retentionMilliseconds: profile.sizing.retentionMilliseconds)
        #expect(Timestamp.milliseconds(parameters.retentionMilliseconds).nanoseconds == .max)
    }

    /// A set covers the horizon when it never forgets, when its capacity holds the horizon's ids,
    /// or when its exact time covers the retention days.
    @Test func horizonFollowsTheDeclaredForgetting() {
        let profile = DeviceProfile.derive(from: [Self.workload], windowMilliseconds: 500, facts: Self.facts, safetyFactor: 1)
        var parameters = CaseParameters(
            windowMilliseconds: 500, windowCapacity: 2, consumedCapacity: 200, falsePositiveRate: 0.01,
            retentionMilliseconds: 172_800_000)
        #expect(profile.horizonCovers(consumed: GuaranteeRecord(.exact), parameters: parameters))
        #expect(profile.horizonCovers(consumed: GuaranteeRecord(.exactForgetsOldest), parameters: parameters))
        #expect(profile.horizonCovers(consumed: GuaranteeRecord(.exactForgetsAfterRetention), parameters: parameters))
        #expect(!profile.horizonCovers(consumed: GuaranteeRecord(.missesOnly), parameters: parameters))
        #expect(profile.horizonCovers(window: GuaranteeRecord(.exactForgetsOldest), parameters: parameters))
        #expect(!profile.horizonCovers(window: GuaranteeRecord(.exactForgetsAfterRetention(fraction: 0.5)), parameters: parameters))
        parameters.consumedCapacity = 199
        parameters.windowCapacity = 1
        parameters.retentionMilliseconds = 172_799_999
        #expect(!profile.horizonCovers(consumed: GuaranteeRecord(.exactForgetsOldest), parameters: parameters))
        #expect(!profile.horizonCovers(consumed: GuaranteeRecord(.exactForgetsAfterRetention), parameters: parameters))
        #expect(!profile.horizonCovers(window: GuaranteeRecord(.exactForgetsOldest), parameters: parameters))
    }

    /// Every case of a catalogue run is built at the profile's sizing, measured on the device
    /// scenarios whatever the workload filter, with the facts the plan gives.
    @Test func casesAreBuiltAtTheProfilesSizing() throws {
        var plan = RunPlan(
            source: .catalogue, quick: true, seed: 3, repetitions: 1, filter: RunFilter(
                windows: ["ring-buffer"], consumedSets: ["fifo-set"], workloads: ["marketing-burst"], modes: ["two-layer"]),
            measureTiming: false, measureMemory: false, runSweeps: false)
        plan.sizing = .tiny
        plan.horizonFacts = HorizonFacts(pushesPerDay: 40, retentionDays: 3)
        let results = try BenchmarkRunner.run(plan) { _ in }
        let profile = try #require(results.deviceProfile)
        #expect(profile.workloads == ScenarioCatalogue.all.filter { $0.tag == .device }.map(\.id))
        #expect(profile.sizing.consumedCapacity == 120)
        let pair = try #require(results.cases.first { !$0.isReference })
        #expect(pair.parameters.consumedCapacity == profile.sizing.consumedCapacity)
        #expect(pair.parameters.windowCapacity == profile.sizing.windowCapacity)
        #expect(pair.parameters.retentionMilliseconds == profile.sizing.retentionMilliseconds)
        #expect(results.settings.safetyFactor == DeviceProfile.defaultSafetyFactor)
        #expect(results.settings.horizonFacts == plan.horizonFacts)
    }
}
