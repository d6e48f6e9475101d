import DedupeHarness
import DedupeWorkloads
import PushDedupe
import Testing

/// The device profile and the sizing derived from it, on a hand-computed trace.
@Suite struct DeviceProfileTests {
    /// e1 A @0 new, e2 B @100 new, e1 replayed @1000 (the longest replay, 1 s), e3 A @3000 new
    /// (a re-tap 3 s after A), e5 B @3010 dup (2,910 ms after B), e3 replayed @3500, e4 C @5000.
    static let workload = trace([
        (0, .payload, 1, 0, .new), (100, .payload, 2, 1, .new), (1_000, .emit, 1, 0, .dup),
        (3_000, .payload, 3, 0, .new), (3_010, .payload, 5, 1, .dup), (3_500, .emit, 3, 0, .dup),
        (5_000, .payload, 4, 2, .new),
    ])

    @Test func profileAndSizingFollowTheStatedRules() {
        let profile = DeviceProfile.derive(from: [Self.workload], windowMilliseconds: 500, safetyFactor: 4)
        #expect(profile.longestReplayMilliseconds == 1_000)
        // Within any 1 s: {0, 100} or {3000, 3010}.
        #expect(profile.peakEnvelopesInLongestReplay == 2)
        #expect(profile.peakPayloadsInWindow == 2)
        #expect(profile.peakIdsPerSecond == 2)
        #expect(profile.replayDelays.count == 2 && profile.replayDelays.max == 1_000 && profile.replayDelays.p50 == 750)
        #expect(profile.wantedRetapDelays.count == 1 && profile.wantedRetapDelays.max == 3_000)
        #expect(profile.duplicatePayloadDelays.count == 1 && profile.duplicatePayloadDelays.max == 2_910)
        #expect(profile.sizing == DeviceProfile.Sizing(
            windowCapacity: 8, consumedCapacity: 8, retentionMilliseconds: 4_000, expectedRatePerSecond: 2,
            falsePositiveRate: 0.01))
    }

    @Test func floorsKeepEveryStrategyConstructible() {
        let profile = DeviceProfile.derive(from: [trace([])], windowMilliseconds: 500, safetyFactor: 4)
        #expect(profile.sizing.consumedCapacity == 1 && profile.sizing.windowCapacity == 1)
        #expect(profile.sizing.retentionMilliseconds == 500)
    }

    /// A set covers the longest replay at the peak when it never forgets, when its capacity holds
    /// the peak envelopes of the longest replay, or when its exact time covers the replay.
    @Test func horizonFollowsTheDeclaredForgetting() {
        let profile = DeviceProfile.derive(from: [Self.workload], windowMilliseconds: 500, safetyFactor: 4)
        var parameters = CaseParameters(
            windowMilliseconds: 500, windowCapacity: 2, consumedCapacity: 2, falsePositiveRate: 0.01, retentionMilliseconds: 1_000)
        #expect(profile.horizonCovers(consumed: GuaranteeRecord(.exact), parameters: parameters))
        #expect(profile.horizonCovers(consumed: GuaranteeRecord(.exactForgetsOldest), parameters: parameters))
        #expect(profile.horizonCovers(consumed: GuaranteeRecord(.exactForgetsAfterRetention), parameters: parameters))
        #expect(!profile.horizonCovers(consumed: GuaranteeRecord(.missesOnly), parameters: parameters))
        #expect(profile.horizonCovers(window: GuaranteeRecord(.exactForgetsOldest), parameters: parameters))
        #expect(!profile.horizonCovers(window: GuaranteeRecord(.exactForgetsAfterRetention(fraction: 0.5)), parameters: parameters))
        parameters.consumedCapacity = 1
        parameters.windowCapacity = 1
        parameters.retentionMilliseconds = 999
        #expect(!profile.horizonCovers(consumed: GuaranteeRecord(.exactForgetsOldest), parameters: parameters))
        #expect(!profile.horizonCovers(consumed: GuaranteeRecord(.exactForgetsAfterRetention), parameters: parameters))
        #expect(!profile.horizonCovers(window: GuaranteeRecord(.exactForgetsOldest), parameters: parameters))
    }

    /// Every case of a catalogue run is built at the profile's sizing, measured on the device
    /// scenarios whatever the workload filter.
    @Test func casesAreBuiltAtTheProfilesSizing() throws {
        var plan = RunPlan(
            source: .catalogue, quick: true, seed: 3, repetitions: 1, filter: RunFilter(
                windows: ["ring-buffer"], consumedSets: ["fifo-set"], workloads: ["marketing-burst"], modes: ["two-layer"]),
            measureTiming: false, measureMemory: false, runSweeps: false)
        plan.sizing = .tiny
        let results = try BenchmarkRunner.run(plan) { _ in }
        let profile = try #require(results.deviceProfile)
        #expect(profile.workloads == ScenarioCatalogue.all.filter { $0.tag == .device }.map(\.id))
        let pair = try #require(results.cases.first)
        #expect(pair.parameters.consumedCapacity == profile.sizing.consumedCapacity)
        #expect(pair.parameters.windowCapacity == profile.sizing.windowCapacity)
        #expect(pair.parameters.retentionMilliseconds == profile.sizing.retentionMilliseconds)
        #expect(results.settings.safetyFactor == 4)
    }
}
