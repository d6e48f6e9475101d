@testable import DedupeMeasurement
@testable import DedupeHarness
import DedupeWorkloads
import PushDedupe

/// A small, fixed-seed `RunResults` with every kind of record, standing in for a harness run.
///
/// Correctness figures follow simple rules (Bloom drops wanted navigations, a small bounded set
/// misses late re-emits, the window-only mode misses re-emits) so the recommendation has a
/// known answer: `hash-deque + set`.
enum SyntheticResults {
    static let workloads = ["same-payload-twice", "marketing-burst"]

    /// The catalogue the golden report classifies workloads with, fixed so that changes to the
    /// real scenario catalogue do not move the golden files.
    static let scenarios = [
        Scenario(id: "same-payload-twice", summary: "The same payload arrives on two paths within milliseconds",
                 category: .publishedSituation, tag: .device) { _ in
            Workload(name: "same-payload-twice", summary: "", routes: [], sources: [], events: [])
        },
        Scenario(id: "marketing-burst", summary: "A campaign burst", category: .stress, tag: .stress) { _ in
            Workload(name: "marketing-burst", summary: "", routes: [], sources: [], events: [])
        },
    ]
    static let windows = ["published-literal", "array-scan", "ring-buffer", "hash-deque"]
    static let consumedSets = ["set", "bounded-lru", "bloom"]
    static let modes = ["fingerprint-only", "envelope-only", "two-layer", "two-layer-guarded"]

    static let parameters = CaseParameters(
        windowMilliseconds: 500, windowCapacity: 64, consumedCapacity: 1024, falsePositiveRate: 0.01,
        retentionMilliseconds: 30_000)

    /// Relative speed of each strategy (the reference is 1).
    static let windowCost: [String: Double] = ["published-literal": 1, "array-scan": 0.9, "ring-buffer": 0.6, "hash-deque": 0.5]
    static let consumedCost: [String: Double] = ["set": 1, "bounded-lru": 1.3, "bloom": 0.7]
    static let consumedBytes: [String: Int] = ["set": 40_960, "bounded-lru": 49_152, "bloom": 1_232]

    static func make(seed: UInt64 = 7, buildConfiguration: BuildConfiguration = .release) -> RunResults {
        var random = SplitMix64(seed: seed)
        func jitter() -> Double { 0.97 + Double(random.next() % 61) / 1000 }
        /// `reference`: the reference row's base time, as the harness divides by it.
        /// Ratios are set once every case exists, against its mode's reference, as the harness does.
        func timing(base: Double, reference _: Double) -> TimingResult {
            let samples = (0..<5).map { _ in (base * jitter() * 100).rounded() / 100 }
            let sorted = samples.sorted()
            let median = SampleStatistics.median(samples)!
            return TimingResult(
                samplesNanosecondsPerEvent: samples, medianNanosecondsPerEvent: median, minNanosecondsPerEvent: sorted[0],
                spreadNanosecondsPerEvent: SampleStatistics.spread(samples), eventsPerSecond: 1e9 / median,
                latencyP50Nanoseconds: sorted[2], latencyP90Nanoseconds: sorted[3], latencyP99Nanoseconds: sorted[4],
                latencyP999Nanoseconds: sorted[4] * 2, ratiosToReference: [])
        }
        var cases: [CaseResult] = []
        for (workloadIndex, workload) in workloads.enumerated() {
            let events = workloadIndex == 0 ? 2 : 1200
            let dups = workloadIndex == 0 ? 1 : 300
            for window in windows {
                cases.append(CaseResult(
                    workload: workload, mode: .windowAlone, window: window, consumed: nil, parameters: parameters,
                    timing: timing(base: 20 * windowCost[window]!, reference: 20),
                    memory: MemoryResult(
                        source: "jemalloc", liveBytes: 2048, peakBytes: 4096, bytesPerEntry: 32, allocationsPerEvent: 0,
                        footprintBytes: 2048, retainedEntries: 64),
                    correctness: correctness(events: events, dups: dups, falseDrops: 0, missed: 0)))
            }
            for consumed in consumedSets {
                cases.append(CaseResult(
                    workload: workload, mode: .consumedAlone, window: nil, consumed: consumed, parameters: parameters,
                    timing: timing(base: 20 * consumedCost[consumed]!, reference: 20),
                    memory: MemoryResult(
                        source: "jemalloc", liveBytes: consumedBytes[consumed]!, peakBytes: consumedBytes[consumed]! * 2,
                        bytesPerEntry: Double(consumedBytes[consumed]!) / 1024, allocationsPerEvent: 0,
                        footprintBytes: consumedBytes[consumed]!, retainedEntries: 1024),
                    correctness: correctness(
                        events: events, dups: dups, falseDrops: consumed == "bloom" ? workloadIndex * 3 : 0,
                        missed: consumed == "bounded-lru" ? workloadIndex * 4 : 0, bloom: consumed == "bloom")))
            }
            for mode in modes {
                for window in ["published-literal", "hash-deque"] {
                    for consumed in consumedSets {
                        let missed: Int
                        switch (mode, consumed) {
                        case ("fingerprint-only", _): missed = dups / 3 + 1
                        case (_, "bounded-lru"): missed = workloadIndex * 4
                        default: missed = 0
                        }
                        let falseDrops = consumed == "bloom" && mode != "fingerprint-only" ? workloadIndex * 3 : 0
                        cases.append(CaseResult(
                            workload: workload, mode: CaseMode(rawValue: mode)!,
                            window: mode == "envelope-only" ? nil : window,
                            consumed: mode == "fingerprint-only" ? nil : consumed, parameters: parameters,
                            timing: timing(base: 40 * windowCost[window]! * consumedCost[consumed]!, reference: 40),
                            memory: MemoryResult(
                                source: "jemalloc", liveBytes: consumedBytes[consumed]! + 2048, peakBytes: nil,
                                bytesPerEntry: nil, allocationsPerEvent: 0, footprintBytes: consumedBytes[consumed]! + 2048,
                                retainedEntries: 1088),
                            correctness: correctness(
                                events: events, dups: dups, falseDrops: falseDrops, missed: missed,
                                guarded: mode == "two-layer-guarded", bloom: consumed == "bloom")))
                    }
                }
            }
        }
        cases = cases.map(declared)
        // Modes without one layer produce the same case for every value of that layer.
        var seen: Set<CaseID> = []
        cases = cases.filter { seen.insert($0.id).inserted }
        for index in cases.indices {
            guard let reference = cases.first(where: { $0.workload == cases[index].workload && $0.mode == cases[index].mode && $0.isReference }),
                  let referenceSamples = reference.timing?.samplesNanosecondsPerEvent else { continue }
            cases[index].timing!.reference = reference.id.text
            cases[index].timing!.setRatios(zip(cases[index].timing!.samplesNanosecondsPerEvent, referenceSamples).map { $0 / $1 })
        }
        var sweeps: [SweepPoint] = []
        for window in windows {
            for x in [1.0, 16, 256, 4096] {
                sweeps.append(SweepPoint(
                    dimension: .windowLiveSet, x: x, strategy: window,
                    nanosecondsPerEvent: window == "array-scan" ? 5 + x / 8 : 10 * windowCost[window]! + x.squareRoot() / 10,
                    bytes: 32 * x, falseDrops: nil, missedDuplicates: nil, events: 10_000))
            }
            for x in [50.0, 500, 5000] {
                sweeps.append(SweepPoint(
                    dimension: .windowLength, x: x, strategy: window, nanosecondsPerEvent: nil, bytes: nil,
                    falseDrops: Int(x / 500), missedDuplicates: Int(5000 / x), events: 10_000))
            }
        }
        for consumed in consumedSets {
            for x in [1e3, 1e5, 1e7] {
                sweeps.append(SweepPoint(
                    dimension: .consumedSetSize, x: x, strategy: consumed,
                    nanosecondsPerEvent: 20 * consumedCost[consumed]!, bytes: Double(consumedBytes[consumed]!) / 1024 * x,
                    falseDrops: nil, missedDuplicates: nil, events: Int(x)))
            }
        }
        for x in [64.0, 1024, 16384] {
            sweeps.append(SweepPoint(
                dimension: .consumedCapacity, x: x, strategy: "bounded-lru", nanosecondsPerEvent: nil, bytes: nil,
                falseDrops: 0, missedDuplicates: Int(16384 / x), events: 10_000))
        }
        for x in [4.0, 8, 12, 16] {
            sweeps.append(SweepPoint(
                dimension: .bloomBitsPerEntry, x: x, strategy: "bloom", nanosecondsPerEvent: nil, bytes: x * 1024 / 8,
                falseDrops: Int(64 / x), missedDuplicates: 0, events: 10_000))
        }
        return RunResults(
            environment: EnvironmentInfo(
                toolchain: "Swift 6.3.1", operatingSystem: "Linux 6.1 x86_64", cpuModel: "Synthetic CPU @ 3.0GHz",
                coreCount: 2, allocator: "jemalloc 5.3.0", seed: seed, gitCommit: "0123456789ab",
                date: "2026-01-02T03:04:05Z", buildConfiguration: buildConfiguration,
                clockResolutionNanoseconds: 1, harnessOverheadNanosecondsPerEvent: 0.8),
            settings: RunSettings(quick: true, repetitions: 5, windowMilliseconds: 500, filters: [], traceFile: nil),
            cases: cases, sweeps: sweeps)
    }

    /// The guarantees and parameters the library declares for these ids.
    static let guarantees: [String: Guarantee] = [
        "published-literal": .exact, "array-scan": .exact, "hash-deque": .exact, "ring-buffer": .exactForgetsOldest,
        "set": .exact, "bounded-lru": .exactForgetsOldest, "bloom": .mayDrop(forgetting: .never),
    ]
    static let reads: [String: [StrategyParameter]] = [
        "published-literal": [.windowLength, .windowReservation], "array-scan": [.windowLength, .windowReservation],
        "hash-deque": [.windowLength, .windowReservation], "ring-buffer": [.windowLength, .windowCapacity],
        "set": [.reservation], "bounded-lru": [.capacity], "bloom": [.capacity, .falsePositiveRate],
    ]

    static func declared(_ result: CaseResult) -> CaseResult {
        var copy = result
        if let window = result.window {
            copy.windowGuarantee = guarantees[window].map(GuaranteeRecord.init)
            copy.windowReads = reads[window]
        }
        if let consumed = result.consumed {
            copy.consumedGuarantee = guarantees[consumed].map(GuaranteeRecord.init)
            copy.consumedReads = reads[consumed]
        }
        return copy
    }

    static func correctness(
        events: Int, dups: Int, falseDrops: Int, missed: Int, guarded: Bool = false, bloom: Bool = false
    ) -> CorrectnessResult {
        let news = events - dups
        let suppressed = dups - missed
        return CorrectnessResult(
            events: events, newEvents: news, dupEvents: dups, falseDrops: falseDrops, missedDuplicates: missed,
            skippedEmits: falseDrops, duplicateScreens: guarded ? 0 : missed, lostNavigations: falseDrops,
            falseDropRate: wilson(falseDrops, news), missedDuplicateRate: wilson(missed, dups),
            suppressedByWindow: suppressed / 2 + falseDrops, suppressedByConsumedSet: suppressed - suppressed / 2,
            suppressedByGuard: 0, windowEvictions: 0, consumedEvictions: missed,
            theoreticalFalsePositiveRate: bloom ? 0.01 : nil, measuredFalsePositiveRate: bloom ? 0.0125 : nil)
    }

    /// The 95% Wilson score interval, as the harness computes it (a file re-derives it).
    static func wilson(_ count: Int, _ total: Int) -> Rate {
        Rate(wilson: count, of: total)
    }
}
