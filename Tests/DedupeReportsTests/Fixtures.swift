@testable import DedupeHarness
import PushDedupe

/// Small hand-built results for unit tests.
enum Fixtures {
    static let parameters = CaseParameters(
        windowMilliseconds: 500, windowCapacity: 64, consumedCapacity: 1024, falsePositiveRate: 0.01,
        retentionMilliseconds: 30_000)

    static func rate(_ count: Int, _ total: Int) -> Rate {
        Rate(wilson: count, of: total)
    }

    static func correctness(
        new: Int = 90, dup: Int = 10, falseDrops: Int = 0, missed: Int = 0, newlyDropped: Int = 0, newlyMissed: Int = 0
    ) -> CorrectnessResult {
        var result = CorrectnessResult(
            events: new + dup, newEvents: new, dupEvents: dup, falseDrops: falseDrops, missedDuplicates: missed,
            skippedEmits: 0, duplicateScreens: missed, lostNavigations: falseDrops,
            falseDropRate: rate(falseDrops, new), missedDuplicateRate: rate(missed, dup), suppressedByWindow: 0,
            suppressedByConsumedSet: dup - missed, suppressedByGuard: 0, windowEvictions: 0, consumedEvictions: 0,
            theoreticalFalsePositiveRate: nil, measuredFalsePositiveRate: nil)
        result.matched = MatchedErrors(
            reference: "two-layer published-literal+set", newlyDropped: newlyDropped, newlyMissed: newlyMissed,
            recoveredNavigations: 0, newlyBlockedDuplicates: 0)
        return result
    }

    static func timing(_ ns: Double) -> TimingResult {
        TimingResult(
            samplesNanosecondsPerEvent: [ns, ns, ns], medianNanosecondsPerEvent: ns, minNanosecondsPerEvent: ns,
            spreadNanosecondsPerEvent: 0, eventsPerSecond: 1e9 / ns, latencyP50Nanoseconds: ns, latencyP90Nanoseconds: ns,
            latencyP99Nanoseconds: ns, latencyP999Nanoseconds: ns, ratiosToReference: [])
    }

    static func memory(_ bytes: Int) -> MemoryResult {
        MemoryResult(
            source: "jemalloc", liveBytes: bytes, peakBytes: bytes, bytesPerEntry: 8, allocationsPerEvent: 0,
            footprintBytes: bytes, retainedEntries: bytes / 8)
    }

    /// A two-layer case; the set is exact unless `guarantee` says otherwise, the window always.
    static func pipeline(
        _ window: String, _ consumed: String, ns: Double, bytes: Int, falseDrops: Int = 0, missed: Int = 0,
        newlyDropped: Int = 0, newlyMissed: Int = 0, workload: String = "w", mode: CaseMode = .twoLayer,
        guarantee: Guarantee = .exact, parameters: CaseParameters = parameters
    ) -> CaseResult {
        var result = CaseResult(
            workload: workload, mode: mode, window: window, consumed: consumed, parameters: parameters,
            timing: timing(ns), memory: memory(bytes),
            correctness: correctness(falseDrops: falseDrops, missed: missed, newlyDropped: newlyDropped, newlyMissed: newlyMissed))
        result.windowGuarantee = GuaranteeRecord(.exact)
        result.consumedGuarantee = GuaranteeRecord(guarantee)
        result.windowReads = [.windowLength]
        result.consumedReads = [.capacity]
        return result
    }

    /// `cases` as a run records them: each case's reference is its mode's on its workload, and
    /// its ratios are against that case's samples, repetition by repetition.
    static func referenced(_ cases: [CaseResult]) -> [CaseResult] {
        cases.map { result in
            var copy = result
            guard let reference = cases.first(where: { $0.workload == result.workload && $0.mode == result.mode && $0.isReference })
            else { return copy }
            copy.correctness?.matched?.reference = reference.id.text
            if let samples = reference.timing?.samplesNanosecondsPerEvent, copy.timing != nil {
                copy.timing!.reference = reference.id.text
                copy.timing!.setRatios(zip(copy.timing!.samplesNanosecondsPerEvent, samples).map { $0 / $1 })
            }
            return copy
        }
    }

    static func results(_ cases: [CaseResult]? = nil, sweeps: [SweepPoint]? = nil) -> RunResults {
        RunResults(
            environment: EnvironmentInfo(
                toolchain: "t", operatingSystem: "o", cpuModel: "c", coreCount: 2, allocator: "a", seed: 1, gitCommit: "g",
                date: "d", buildConfiguration: .release, clockResolutionNanoseconds: 1,
                harnessOverheadNanosecondsPerEvent: 1),
            settings: RunSettings(quick: true, repetitions: 3, windowMilliseconds: 500, filters: [], traceFile: nil),
            cases: referenced(cases ?? [
                pipeline("published-literal", "set", ns: 40, bytes: 4000),
                pipeline("hash-deque", "set", ns: 20, bytes: 4000),
                pipeline("hash-deque", "bloom", ns: 10, bytes: 500, falseDrops: 1, newlyDropped: 1, guarantee: .mayDrop(forgetting: .never)),
            ]),
            sweeps: sweeps ?? [
                SweepPoint(dimension: .windowLiveSet, x: 1, strategy: "a<b&c", nanosecondsPerEvent: 5, bytes: 8,
                           falseDrops: nil, missedDuplicates: nil, events: 10),
                SweepPoint(dimension: .windowLiveSet, x: 100, strategy: "a<b&c", nanosecondsPerEvent: 9, bytes: 800,
                           falseDrops: nil, missedDuplicates: nil, events: 10),
                SweepPoint(dimension: .windowLength, x: 50, strategy: "ring-buffer", nanosecondsPerEvent: nil, bytes: nil,
                           falseDrops: 0, missedDuplicates: 4, events: 10),
            ])
    }
}
