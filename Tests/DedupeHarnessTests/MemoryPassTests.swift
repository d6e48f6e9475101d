import DedupeMeasurement
import DedupeWorkloads
import Foundation
import Testing
@testable import DedupeHarness

/// Allocator statistics that advance by fixed steps on every read, so the pass's arithmetic can
/// be checked exactly.
struct ScriptedStatistics: AllocatorStatistics {
    var source: String { "scripted" }
    var bytes = 0
    var allocations = 0

    mutating func allocatedBytes() -> Int? {
        bytes += 100
        return bytes
    }

    mutating func allocationCount() -> Int? {
        allocations += 10
        return allocations
    }
}

@Suite struct MemoryPassTests {
    /// 200 events: two payloads, then an emit of the second one's envelope, on three routes.
    static let workload: Workload = {
        var events: [(Double, EventKind, UInt64, UInt32, Truth)] = []
        for index in 0..<200 {
            let isEmit = index % 3 == 2
            let envelope = UInt64(isEmit ? index - 1 : index)
            events.append((Double(index) * 10, isEmit ? .emit : .payload, envelope, UInt32(index % 3), isEmit ? .dup : .new))
        }
        return trace(events)
    }()

    static func anyCase(_ mode: CaseMode = .twoLayer) -> _AnyCase {
        let catalogue = StrategyCatalogue.toys
        return catalogue.makeCase(
            window: mode.usesWindow ? catalogue.window("published-literal") : nil,
            consumed: mode.usesConsumedSet ? catalogue.consumedSet("set") : nil, mode: mode,
            parameters: CaseParameters(windowMilliseconds: 500, windowCapacity: 64, consumedCapacity: 1_024, falsePositiveRate: 0.01, retentionMilliseconds: 30_000))
    }

    @Test func arithmeticFromScriptedReadings() throws {
        var statistics: (any AllocatorStatistics)? = ScriptedStatistics()
        let result = try Self.anyCase()._memory(EventColumns(Self.workload.events), &statistics)
        // Reads: baseline 100, after construction 200, then one per tenth: 300 … 1200.
        #expect(result.source == "scripted")
        #expect(result.liveBytes == 1_100)
        #expect(result.peakBytes == 1_100)
        #expect(result.liveBytesGrowthInLastTenth == 0.1)
        // Two counts 10 apart over the second half's 100 events.
        #expect(result.allocationsPerEvent == 0.1)
        #expect(result.retainedEntries > 0)
        #expect(result.bytesPerEntry == 1_100 / Double(result.retainedEntries))
    }

    @Test func worksWithoutStatistics() throws {
        var statistics: (any AllocatorStatistics)? = nil
        let result = try Self.anyCase()._memory(EventColumns(Self.workload.events), &statistics)
        #expect(result.source == "unavailable")
        #expect(result.liveBytes == nil && result.peakBytes == nil && result.allocationsPerEvent == nil)
        #expect(result.footprintBytes > 0 && result.retainedEntries > 0)
        #expect(result.footprintGrowthInLastTenth != nil)
    }

    @Test func worksWithThePlatformFallback() throws {
        let response = try MemoryPass.run(
            [(0, Self.anyCase(.consumedAlone), EventColumns(Self.workload.events))], statistics: AllocatorStatisticsDetector.detect())
        let result = try #require(response.outcomes.first?.result)
        #expect(result.source == (AllocatorStatisticsDetector.detect()?.source ?? "unavailable"))
        #expect(result.retainedEntries == 134)
    }

    @Test func noOpLoopAllocatesNothingWhereCountable() {
        var statistics = AllocatorStatisticsDetector.detect()
        let perEvent = MemoryPass.harnessAllocations(statistics: &statistics)
        if statistics?.allocationCount() != nil {
            #expect(perEvent == 0)
        } else {
            #expect(perEvent == nil)
        }
    }

    @Test func childRequestRoundTrips() throws {
        let scenario = try #require(ScenarioCatalogue.all.first)
        let parameters = CaseParameters(windowMilliseconds: 500, windowCapacity: 64, consumedCapacity: 1_024, falsePositiveRate: 0.01, retentionMilliseconds: 30_000)
        // A scenario by its spec and a trace by a columns file: both reach the child.
        let files = try _ChildFiles()
        let columns = EventColumns(Self.workload.events)
        let workloads = [
            ChildWorkload(spec: .scenario(id: scenario.id, seed: 1, scale: 1), columnsFile: nil),
            ChildWorkload(spec: nil, columnsFile: try files.write(columns, count: columns.count)),
        ]
        let events = [1_000, columns.count]
        let request = MemoryPassRequest(workloads: workloads, events: events, cases: [
            ChildCaseSpec(key: 3, workload: 0, mode: .windowAlone, window: "published-literal", consumed: nil, parameters: parameters),
            ChildCaseSpec(key: 5, workload: 1, mode: .consumedAlone, window: nil, consumed: "set", parameters: parameters),
        ])
        let decoded = try JSONDecoder().decode(MemoryPassRequest.self, from: JSONEncoder().encode(request))
        #expect(try decoded.workloads[1].makeColumns() == columns)
        let response = try MemoryPass.run(decoded, catalogue: .toys, statistics: nil)
        let again = try JSONDecoder().decode(MemoryPassResponse.self, from: JSONEncoder().encode(response))
        #expect(again.outcomes.map(\.key) == [3, 5])
        #expect(again.source == "unavailable")
        // The trace's case sees the same figures as in-process.
        let inProcess = try MemoryPass.run([(5, Self.anyCase(.consumedAlone), EventColumns(Self.workload.events))], statistics: nil)
        #expect(again.outcomes[1].result == inProcess.outcomes[0].result)
        for (spec, message) in [
            (ChildCaseSpec(key: 0, workload: 0, mode: .windowAlone, window: "no-such-window", consumed: nil, parameters: parameters),
             "child: unknown window 'no-such-window'"),
            (ChildCaseSpec(key: 0, workload: 2, mode: .windowAlone, window: "published-literal", consumed: nil, parameters: parameters),
             "memory pass: case 0 names workload 2 of 2"),
        ] {
            #expect(throws: MeasurementError.invalidPlan(message)) {
                try MemoryPass.run(MemoryPassRequest(workloads: workloads, events: events, cases: [spec]), catalogue: .toys, statistics: nil)
            }
        }
    }

    @Test func runRecordsMemoryForLayerAndTwoLayerCases() throws {
        var plan = scoringPlan(Self.workload, windows: nil, consumed: nil)
        plan.measureMemory = true
        let results = try BenchmarkRunner.run(plan) { _ in }
        for result in results.cases {
            let modes: [CaseMode] = [.windowAlone, .consumedAlone, .twoLayer]
            let hasMemory = result.memory != nil
            #expect(hasMemory == (modes.contains(result.mode) && result.choice.isBase))
        }
    }
}
