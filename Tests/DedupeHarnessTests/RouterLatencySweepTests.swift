@testable import DedupeHarness
import DedupeWorkloads
import Foundation
import Testing

/// The router latency sweep: the pipeline behind the router with every fetch scaled.
@Suite struct RouterLatencySweepTests {
    static let workloads = ["async-completion-after-retap", "typical-app-week", "messaging-app-week"]

    /// The sweep's candidate alone, correctness only, on `workloads`.
    static func plan(seed: UInt64, workloads: [String] = Self.workloads) -> RunPlan {
        var plan = RunPlan(
            source: .catalogue, seed: seed, repetitions: 1, windowMilliseconds: 500,
            filter: RunFilter(windows: ["hash-deque"], consumedSets: ["fifo-set"], workloads: workloads, modes: ["two-layer-guarded"]),
            measureTiming: false, measureMemory: false, runSweeps: false)
        plan.quick = true
        plan.memoryIsolation = .inProcess
        return plan
    }

    @Test func isDeterministicForASeedAndAtScaleOneMatchesTheRunsOwnCase() throws {
        var reports: [RunProgress] = []
        let results = try BenchmarkRunner.run(Self.plan(seed: 42)) { reports.append($0) }
        let sweep = try #require(results.routerLatencySweep)
        #expect(sweep.points.map(\.scale) == RouterLatencySweep.scales)
        #expect(sweep.workloads == Self.workloads)
        #expect(reports.last.map { $0.completed + 1 == $0.total } == true)
        #expect(try BenchmarkRunner.run(Self.plan(seed: 42)) { _ in }.routerLatencySweep == sweep)

        // The run's own case of the same choice, each workload at the identity and persistence
        // that can change a decision on it (push-id and after-every-consume, where they exist).
        var missed = 0, duplicates = 0, dropped = 0, wanted = 0
        for workload in Self.workloads {
            let cases = results.cases.filter { $0.workload == workload && $0.mode == .twoLayerGuarded && $0.consumed == "fifo-set" }
            let exact = cases.first { $0.identity == .pushID && $0.persistence == .afterEveryConsume }
            let result = try #require(exact ?? cases.first { $0.choice.isBase })
            let correctness = try #require(result.correctness)
            missed += correctness.missedDuplicates
            duplicates += correctness.dupEvents
            dropped += correctness.falseDrops
            wanted += correctness.newEvents
        }
        let atOne = try #require(sweep.points.first { $0.scale == 1 })
        #expect(atOne == RouterLatencySweep.Point(scale: 1, missed: missed, duplicates: duplicates, dropped: dropped, wanted: wanted))
        #expect(sweep.choice.hasPrefix("two-layer-guarded/hash-deque(") && sweep.choice.hasSuffix("/push-id/after-every-consume"))
    }

    /// The longer every fetch, the longer the loading guard holds, so it lets fewer duplicates
    /// through; it may also hold over a wanted tap, so drops are not asserted.
    @Test func missedDuplicatesDoNotIncreaseWithTheFetch() throws {
        let results = try BenchmarkRunner.run(Self.plan(seed: 7, workloads: ["async-completion-after-retap"])) { _ in }
        let missed = try #require(results.routerLatencySweep).points.map(\.missed)
        #expect(zip(missed, missed.dropFirst()).allSatisfy { $0 >= $1 }, "\(missed)")
        #expect(missed.first! > missed.last!)
    }

    /// A run without a workload whose actions draw a fetch has no sweep, and reads back without one.
    @Test func isAbsentWithoutAFetchDrawingWorkload() throws {
        let results = try BenchmarkRunner.run(Self.plan(seed: 42, workloads: ["button-double-tap"])) { _ in }
        #expect(results.routerLatencySweep == nil)
        let decoded = try JSONDecoder().decode(RunResults.self, from: JSONEncoder().encode(results))
        #expect(decoded.routerLatencySweep == nil)
    }
}
