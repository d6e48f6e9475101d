import Testing
import PushDedupe
@testable import DedupeWorkloads

@Suite struct SweepWorkloadTests {
    @Test(arguments: [(1, 0.0), (16, 0.3), (256, 0.5), (1_000, 0.9)])
    func hitsItsLiveSetSizeAndDuplicateRatio(live: Int, ratio: Double) {
        let parameters = SweepParameters(liveFingerprints: live, duplicateRatio: ratio, events: 20_000)
        let workload = SweepWorkload.make(parameters, seed: 5)
        #expect(workload.events.count == 20_000)
        #expect(workload.firstInconsistency() == nil)
        #expect(workload.count(.dup) == Int((20_000 * ratio).rounded()))

        // Distinct fingerprints among the events of the trailing window, at every new arrival
        // after the first window (steady state).
        let window = parameters.window.wholeNanoseconds
        let arrivals = workload.events.filter { $0.truth == .new }
        var lower = 0
        var liveSizes: [Int] = []
        for (upper, event) in arrivals.enumerated() {
            while arrivals[lower].time.nanoseconds < event.time.nanoseconds - window { lower += 1 }
            if event.time.nanoseconds >= window { liveSizes.append(upper - lower + 1) }
        }
        #expect(!liveSizes.isEmpty)
        #expect(liveSizes.allSatisfy { $0 == live || $0 == live + 1 })

        // Duplicates repeat a fingerprint seen at most one window earlier, and never add one.
        var seenAt: [RouteFingerprint: Int64] = [:]
        for event in workload.events {
            if event.truth == .new {
                #expect(seenAt[event.fingerprint] == nil)
                seenAt[event.fingerprint] = event.time.nanoseconds
            } else if let first = seenAt[event.fingerprint] {
                #expect(event.time.nanoseconds - first <= window && event.time.nanoseconds > first)
            } else {
                Issue.record("duplicate of an unseen fingerprint")
            }
        }
    }

    @Test func emitShareSplitsTheDuplicates() {
        let all = SweepWorkload.make(.init(liveFingerprints: 8, duplicateRatio: 0.5, events: 4_000, emitShare: 1), seed: 2)
        #expect(all.events.filter { $0.truth == .dup }.allSatisfy { $0.kind == .emit })
        let none = SweepWorkload.make(.init(liveFingerprints: 8, duplicateRatio: 0.5, events: 4_000, emitShare: 0), seed: 2)
        #expect(none.events.allSatisfy { $0.kind == .payload })
    }

    @Test func badParametersAreRejectedByValidateAndClampedByMake() {
        #expect(throws: ConfigurationError.self) {
            try SweepParameters(liveFingerprints: 0, duplicateRatio: 0.1, events: 10).validate()
        }
        #expect(throws: ConfigurationError.self) {
            try SweepParameters(liveFingerprints: 4, duplicateRatio: 1, events: 10).validate()
        }
        let clamped = SweepWorkload.make(.init(liveFingerprints: -3, duplicateRatio: 2, events: 10), seed: 1)
        #expect(clamped.events.count == 10)
        #expect(clamped.count(.new) == 1)
        #expect(SweepWorkload.make(.init(liveFingerprints: 4, duplicateRatio: 0.5, events: 0), seed: 1).events.isEmpty)
    }

    @Test func deterministicPerSeed() {
        let parameters = SweepParameters(liveFingerprints: 64, duplicateRatio: 0.4, events: 3_000)
        #expect(TraceWriter.encode(SweepWorkload.make(parameters, seed: 9)) == TraceWriter.encode(SweepWorkload.make(parameters, seed: 9)))
        #expect(TraceWriter.encode(SweepWorkload.make(parameters, seed: 9)) != TraceWriter.encode(SweepWorkload.make(parameters, seed: 10)))
    }

    /// The live-set sweep's input: exactly `warm + timed` payloads, a repeat being a payload of a
    /// fingerprint first seen at most one window earlier (so every exact window suppresses it)
    /// and every other payload a fingerprint never seen before; the timed events carry the
    /// repeat share they are named for, at every size the sweep runs, small to large.
    @Test(arguments: [(1, 0.0), (8, 0.0), (8, 0.5), (64, 0.5), (1_024, 0.5), (4_096, 0.5), (4_096, 0.0)])
    func liveSetInputHasItsRepeatShare(live: Int, share: Double) {
        let warm = 2 * live + 100
        let timed = 20_000
        let workload = SweepWorkload.liveSet(live: live, repeatShare: share, warm: warm, timed: timed, seed: 42)
        #expect(workload.events.count == warm + timed)
        #expect(workload.events.allSatisfy { $0.kind == .payload })
        #expect(workload.firstInconsistency() == nil)
        let window = Int64(500_000_000)
        var firstSeen: [RouteFingerprint: Int64] = [:]
        var repeatsTimed = 0
        for (index, event) in workload.events.enumerated() {
            if let first = firstSeen[event.fingerprint] {
                #expect(event.truth == .dup)
                #expect(event.time.nanoseconds > first && event.time.nanoseconds - first <= window, "event \(index)")
                if index >= warm { repeatsTimed += 1 }
            } else {
                #expect(event.truth == .new)
                firstSeen[event.fingerprint] = event.time.nanoseconds
            }
        }
        let measured = Double(repeatsTimed) / Double(timed)
        #expect(abs(measured - share) < 0.02, "repeat share of the timed events: \(measured)")
    }

    @Test func liveSetInputIsDeterministicPerSeed() {
        let first = SweepWorkload.liveSet(live: 64, repeatShare: 0.5, warm: 228, timed: 2_000, seed: 7)
        let again = SweepWorkload.liveSet(live: 64, repeatShare: 0.5, warm: 228, timed: 2_000, seed: 7)
        let other = SweepWorkload.liveSet(live: 64, repeatShare: 0.5, warm: 228, timed: 2_000, seed: 8)
        #expect(TraceWriter.encode(first) == TraceWriter.encode(again))
        #expect(TraceWriter.encode(first) != TraceWriter.encode(other))
    }
}
