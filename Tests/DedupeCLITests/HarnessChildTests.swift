import DedupeWorkloads
import Foundation
import Testing
@testable import DedupeHarness

/// The harness's child protocol through the built binary: its `main` hands `__harness-child`
/// to the harness before the command line is parsed.
@Suite struct HarnessChildTests {
    static let parameters = CaseParameters(
        windowMilliseconds: 500, windowCapacity: 64, consumedCapacity: 1_024, falsePositiveRate: 0.01, retentionMilliseconds: 30_000)

    /// The directory of the trace's columns file; lives as long as the suite's tests.
    static let files = try! _ChildFiles()

    /// A trace (no spec): the child must rebuild it from the columns file it is sent.
    static func traceWorkload() throws -> ChildWorkload {
        let scenario = try #require(ScenarioCatalogue.scenario(named: "same-payload-twice"))
        let columns = scenario.workload(seed: 3, scale: 1).events.columns
        return ChildWorkload(spec: nil, columnsFile: try files.write(columns, count: columns.count))
    }

    static func call(_ role: String, _ input: Data, environment: [String: String] = [:]) throws -> (status: Int32, output: Data, error: Data) {
        try ChildProcess.run(
            executable: BinaryRunner.executable.path, arguments: [HarnessChild.verb, role], environment: environment,
            input: input, stage: "test child", timeoutSeconds: 120)
    }

    @Test func timingForkOfATrace() throws {
        let request = TimingForkRequest(
            workloads: [try Self.traceWorkload()], timedEvents: [200],
            cases: [
                ChildCaseSpec(key: 1, workload: 0, mode: .consumedAlone, window: nil, consumed: "fifo-set", parameters: Self.parameters),
                ChildCaseSpec(key: 2, workload: 0, mode: .twoLayer, window: "hash-deque", consumed: "set", parameters: Self.parameters),
            ],
            repetitions: 2, batchSize: 16, seed: 42, fork: 1)
        let child = try Self.call("timing", JSONEncoder().encode(request))
        #expect(child.status == 0, "\(String(decoding: child.error, as: UTF8.self))")
        let response = try JSONDecoder().decode(TimingForkResponse.self, from: child.output)
        #expect(response.outcomes.map(\.key) == [1, 2])
        #expect(response.outcomes.allSatisfy { $0.samples.count == 2 && $0.samples.allSatisfy { $0 > 0 } })
    }

    @Test func memoryPassOfATraceUsesJemallocWhenInstalled() throws {
        let request = MemoryPassRequest(
            workloads: [try Self.traceWorkload()], events: [200],
            cases: [ChildCaseSpec(key: 7, workload: 0, mode: .consumedAlone, window: nil, consumed: "set", parameters: Self.parameters)])
        let library = ChildProcess.jemallocLibraryPath()
        let child = try Self.call("memory", JSONEncoder().encode(request), environment: library.map(ChildProcess.preloadEnvironment) ?? [:])
        #expect(child.status == 0, "\(String(decoding: child.error, as: UTF8.self))")
        let response = try JSONDecoder().decode(MemoryPassResponse.self, from: child.output)
        #expect(response.outcomes.map(\.key) == [7])
        if library != nil {
            #expect(response.source.hasPrefix("jemalloc"))
            #expect(response.outcomes[0].result.liveBytes != nil)
        }
    }

    @Test func badRequestsExitTwoWithOneLine() throws {
        let unknownRole = try Self.call("frobnicate", Data())
        #expect(unknownRole.status == 2)
        #expect(String(decoding: unknownRole.error, as: UTF8.self) == "\(HarnessChild.verb): expected one role, \(HarnessChild.Role.allCases.map(\.rawValue).joined(separator: "|"))\n")
        #expect(HarnessChild.Role.allCases.map(\.rawValue) == ["timing", "memory", "store-writer"])
        let garbage = try Self.call("timing", Data("not json".utf8))
        #expect(garbage.status == 2)
        #expect(String(decoding: garbage.error, as: UTF8.self).hasPrefix("\(HarnessChild.verb) timing: "))
        let unknownStrategy = TimingForkRequest(
            workloads: [try Self.traceWorkload()], timedEvents: [10],
            cases: [ChildCaseSpec(key: 0, workload: 0, mode: .consumedAlone, window: nil, consumed: "no-such-set", parameters: Self.parameters)],
            repetitions: 1, batchSize: 16, seed: 1, fork: 1)
        let unknown = try Self.call("timing", JSONEncoder().encode(unknownStrategy))
        #expect(unknown.status == 2)
        #expect(String(decoding: unknown.error, as: UTF8.self).contains("child: unknown consumed set 'no-such-set'"))
    }
}
