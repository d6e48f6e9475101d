@testable import DedupeHarness
import DedupeWorkloads
import Foundation
import Testing

@Suite struct DeterminismTests {
    /// A debug-allowed run of everything (timing, in-process memory, sweeps) on the catalogue.
    static func fullPlan(seed: UInt64) -> RunPlan {
        var plan = RunPlan(source: .catalogue, seed: seed, repetitions: 2)
        plan.strategies = .toys
        plan.sizing = .tiny
        plan.allowDebugBuild = true
        plan.memoryIsolation = .inProcess
        return plan
    }

    /// The figures that are not timings and not allocator readings. (A speed sweep point's
    /// `events` is calibrated from the clock, so it is a timing figure.)
    static func nonTiming(_ results: RunResults) -> [String] {
        results.cases.map {
            "\($0.id) \($0.parameters) \(Self.sorted($0.correctness)) \($0.memory.map { "\($0.footprintBytes) \($0.retainedEntries)" } ?? "-")"
        } + results.sweeps.map {
            "\($0.dimension.rawValue) \($0.x) \($0.strategy) \(String(describing: $0.falseDrops)) \(String(describing: $0.missedDuplicates)) \($0.nanosecondsPerEvent == nil ? $0.events : -1) \(String(describing: $0.measuredFalsePositiveRate))"
        }
    }

    /// The correctness figures as JSON with sorted keys: a dictionary's description follows its
    /// hashing, which is seeded per process.
    static func sorted(_ correctness: CorrectnessResult?) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return correctness.flatMap { try? encoder.encode($0) }.map { String(decoding: $0, as: UTF8.self) } ?? "-"
    }

    @Test func nonTimingFiguresRepeatForOneSeed() throws {
        var reports: [RunProgress] = []
        let first = try BenchmarkRunner.run(Self.fullPlan(seed: 7)) { reports.append($0) }
        // The progress line counts every step it announces.
        #expect(reports.last.map { $0.completed + 1 == $0.total } == true)
        #expect(reports.allSatisfy { $0.completed < $0.total })
        let second = try BenchmarkRunner.run(Self.fullPlan(seed: 7)) { _ in }
        #expect(Self.nonTiming(first) == Self.nonTiming(second))
        #expect(!first.cases.isEmpty)
        #expect(first.environment.buildConfiguration == .debug)
        #expect(first.environment.seed == 7)
    }

    @Test func everyCaseIsTimedAndComparedWithItsReference() throws {
        let results = try BenchmarkRunner.run(Self.fullPlan(seed: 3)) { _ in }
        for result in results.cases where result.choice.isBase {
            let timing = try #require(result.timing)
            #expect(timing.samplesNanosecondsPerEvent.count == 2)
            #expect(timing.ratiosToReference.count == 2)
            #expect(timing.latencyP50Nanoseconds <= timing.latencyP999Nanoseconds)
        }
        let reference = try #require(result(results, "two-layer", window: "published-literal", consumed: "set")?.timing)
        #expect(reference.ratiosToReference == [1, 1])
        #expect(results.environment.latencyBatchSize == 16)
        #expect((results.environment.clockReadNanoseconds ?? 0) > 0)
    }

    @Test func sweepsHaveTheTargetPoints() throws {
        let results = try BenchmarkRunner.run(Self.fullPlan(seed: 3)) { _ in }
        let live = Set(results.sweeps.filter { $0.dimension == .windowLiveSet }.map { Int($0.x) })
        #expect(live.isSuperset(of: [8, 64]))
        for dimension in ["window-live-set", "window-live-set-50pct-repeats", "consumed-set-size", "window-length", "consumed-capacity", "bloom-bits-per-entry"] {
            #expect(results.sweeps.contains { $0.dimension.rawValue == dimension }, "missing \(dimension)")
        }
        #expect(RunSizing.full.liveSetSizes.contains(8) && RunSizing.full.liveSetSizes.contains(64))
        #expect(RunSizing.quick.liveSetSizes.contains(8) && RunSizing.quick.liveSetSizes.contains(64))
        #expect(RunSizing.full.consumedSetSizes.contains(65_536) && RunSizing.quick.consumedSetSizes.contains(65_536))
        #expect(RunSizing.full.consumedSetSizes.first == 1_000 && RunSizing.full.consumedSetSizes.last == 10_000_000)
        // Only filters are swept over bits per entry.
        #expect(results.sweeps.filter { $0.dimension == .bloomBitsPerEntry }.allSatisfy { $0.strategy == "toy-filter" })
    }

    @Test func referenceRowsAreAddedWhenFilteredOut() throws {
        var plan = Self.fullPlan(seed: 5)
        plan.runSweeps = false
        plan.measureMemory = false
        plan.filter = RunFilter(windows: ["tiny-window"], consumedSets: ["tiny-fifo"], workloads: ["same-payload-twice"])
        let results = try BenchmarkRunner.run(plan) { _ in }
        #expect(result(results, "two-layer", window: "published-literal", consumed: "set") != nil)
        #expect(result(results, "window-alone", window: "published-literal") != nil)
        #expect(result(results, "consumed-alone", consumed: "set") != nil)
        let pipeline = try #require(result(results, "two-layer-guarded", window: "tiny-window", consumed: "tiny-fifo"))
        // One reference per mode for timing, its own mode's; the router's cases are matched with
        // the published code as it ships (`two-layer`).
        let reference = "same-payload-twice/two-layer-guarded/published-literal(window=500ms)+set/minted/memory"
        #expect(pipeline.timing?.reference == reference)
        #expect(pipeline.correctness?.matched?.reference == "same-payload-twice/two-layer/published-literal(window=500ms)+set/minted/memory")
        #expect(pipeline.timing?.ratiosToReference.count == 2)
        // Without timing the references are still run: every matched error needs one.
        plan.measureTiming = false
        let untimed = try BenchmarkRunner.run(plan) { _ in }
        #expect(result(untimed, "two-layer", window: "published-literal", consumed: "set")?.correctness != nil)
    }
}
