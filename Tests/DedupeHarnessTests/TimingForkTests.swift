import DedupeMeasurement
import DedupeWorkloads
import Foundation
import PushDedupe
import Testing
@testable import DedupeHarness

/// Timing forks: the samples' shape, and the child's side of the protocol run in-process (the
/// test runner is no child host, so a run here keeps every fork in this process).
@Suite struct TimingForkTests {
    @Test func forksMultiplyTheSamplesAndKeepRatiosWithinAFork() throws {
        var plan = DeterminismTests.fullPlan(seed: 3)
        plan.forks = 3
        plan.runSweeps = false
        plan.measureMemory = false
        let results = try BenchmarkRunner.run(plan) { _ in }
        #expect(results.settings.forks == 3)
        #expect(results.settings.forksInChildProcesses == false)
        #expect(!HarnessChild.canHostChildren)
        for result in results.cases where result.choice.isBase {
            let timing = try #require(result.timing)
            #expect(timing.forks == 3)
            #expect(timing.samplesNanosecondsPerEvent.count == 6)
            #expect(timing.ratiosToReference.count == 6)
        }
        let reference = try #require(result(results, "two-layer", window: "published-literal", consumed: "set")?.timing)
        #expect(reference.ratiosToReference == [Double](repeating: 1, count: 6))
    }

    @Test func childSideMeasuresEveryCaseOfTheRequest() throws {
        let parameters = CaseParameters(windowMilliseconds: 500, windowCapacity: 64, consumedCapacity: 1_024, falsePositiveRate: 0.01, retentionMilliseconds: 30_000)
        let files = try _ChildFiles()
        let columns = EventColumns(MemoryPassTests.workload.events)
        let workload = ChildWorkload(spec: nil, columnsFile: try files.write(columns, count: columns.count))
        let request = TimingForkRequest(
            workloads: [workload], timedEvents: [150],
            cases: [
                ChildCaseSpec(key: 4, workload: 0, mode: .windowAlone, window: "published-literal", consumed: nil, parameters: parameters),
                ChildCaseSpec(key: 9, workload: 0, mode: .twoLayer, window: "published-literal", consumed: "set", parameters: parameters),
            ],
            repetitions: 3, batchSize: 16, seed: 1, fork: 2)
        let decoded = try JSONDecoder().decode(TimingForkRequest.self, from: JSONEncoder().encode(request))
        let response = try TimingFork.run(decoded, catalogue: .toys)
        #expect(response.outcomes.map(\.key) == [4, 9])
        #expect(response.outcomes.allSatisfy { $0.samples.count == 3 && $0.samples.allSatisfy { $0 > 0 && $0.isFinite } })
        var malformed = request
        malformed.timedEvents = []
        #expect(throws: MeasurementError.invalidPlan("timing fork: malformed request")) { try TimingFork.run(malformed, catalogue: .toys) }
        var unknown = request
        unknown.cases[0].window = "no-such-window"
        #expect(throws: MeasurementError.invalidPlan("child: unknown window 'no-such-window'")) { try TimingFork.run(unknown, catalogue: .toys) }
    }

    @Test func forkZeroKeepsTheSingleProcessOrderAndOtherForksShuffleAnew() {
        #expect(TimingFork.orderSeed(42, workload: 3, fork: 0) == 42 ^ DeterministicHashing.mix64(4))
        let seeds = Set((0..<8).map { TimingFork.orderSeed(42, workload: 3, fork: $0) })
        #expect(seeds.count == 8)
    }
}
