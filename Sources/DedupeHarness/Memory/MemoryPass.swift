import DedupeMeasurement
import DedupeWorkloads
import Foundation
import PushDedupe

/// What the parent sends the memory-pass child on stdin: every workload the cases run on (a
/// trace as a columns file of the events the pass runs) and the cases by strategy id.
struct MemoryPassRequest: Codable, Sendable {
    var workloads: [ChildWorkload]
    /// Events of each workload the pass runs (its first ones); parallel to `workloads`.
    var events: [Int]
    var cases: [ChildCaseSpec]
}

/// What the child writes on stdout.
struct MemoryPassResponse: Codable, Sendable {
    struct Outcome: Codable, Sendable {
        var key: Int
        var result: MemoryResult
    }

    /// The allocator the figures come from, or `unavailable`.
    var source: String
    var outcomes: [Outcome]
    /// Allocations per event of the memory loop with no-op strategies (should be 0).
    var harnessAllocationsPerEvent: Double?
}

/// The memory pass: each case run once, slice by slice, with allocator statistics read between
/// slices. Runs in a child process when this executable hosts children, with jemalloc preloaded
/// when installed (timings in the parent keep the platform allocator), otherwise in-process.
enum MemoryPass {
    /// How long the child may run. The whole default suite takes about three minutes, its memory
    /// pass well under one, so only a hung child reaches this.
    static let childTimeoutSeconds = 900.0

    /// Runs `cases` on `columns` in this process with `statistics` (or none).
    static func run(
        _ items: [(key: Int, anyCase: _AnyCase, columns: EventColumns)], statistics: (any AllocatorStatistics)?
    ) throws -> MemoryPassResponse {
        var statistics = statistics
        var outcomes: [MemoryPassResponse.Outcome] = []
        for item in items {
            let result = try item.anyCase._memory(item.columns, &statistics)
            outcomes.append(.init(key: item.key, result: result))
        }
        return MemoryPassResponse(
            source: statistics?.source ?? "unavailable", outcomes: outcomes,
            harnessAllocationsPerEvent: harnessAllocations(statistics: &statistics))
    }

    /// Allocations per event of the memory loop itself, measured with no-op strategies on 20,000
    /// synthetic events.
    static func harnessAllocations(statistics: inout (any AllocatorStatistics)?) -> Double? {
        let columns = WorkloadSource.consumedSweepOperations(count: 10_000, operations: 20_000, round: 0, seed: 1).events.columns
        let noOp = _AnyCase(
            _NoOpWindow.self, _NoOpConsumedSet.self, mode: .twoLayerGuarded,
            parameters: CaseParameters(windowMilliseconds: 0, windowCapacity: 0, consumedCapacity: 0, falsePositiveRate: 0.5, retentionMilliseconds: 1))
        return (try? noOp._memory(columns, &statistics))?.allocationsPerEvent
    }

    /// Rebuilds the cases of `request` from `catalogue` and runs them.
    static func run(_ request: MemoryPassRequest, catalogue: StrategyCatalogue, statistics: (any AllocatorStatistics)?) throws -> MemoryPassResponse {
        var columns: [Int: EventColumns] = [:]
        var items: [(key: Int, anyCase: _AnyCase, columns: EventColumns)] = []
        for spec in request.cases {
            guard request.workloads.indices.contains(spec.workload) else {
                throw MeasurementError.invalidPlan("memory pass: case \(spec.key) names workload \(spec.workload) of \(request.workloads.count)")
            }
            let workloadColumns: EventColumns
            if let built = columns[spec.workload] {
                workloadColumns = built
            } else {
                let limit = request.events.indices.contains(spec.workload) ? request.events[spec.workload] : nil
                workloadColumns = try request.workloads[spec.workload].makeColumns(limit: limit)
                columns[spec.workload] = workloadColumns
            }
            items.append((spec.key, try spec.makeCase(catalogue), spec.events.map { workloadColumns.prefix($0) } ?? workloadColumns))
        }
        return try run(items, statistics: statistics)
    }
}

extension _Run {
    /// The memory pass over every `window-alone`, `consumed-alone` and `two-layer` case. Returns
    /// the allocator source the figures came from.
    mutating func measureMemory() throws -> String {
        report("memory pass")
        let members = cases.indices.filter {
            [CaseMode.windowAlone, .consumedAlone, .twoLayer].contains(cases[$0].mode) && results[$0].choice.isBase
        }
        var response: MemoryPassResponse?
        var note = ""
        // The child rebuilds every workload (a trace from its events) and resolves the strategies
        // against the catalogue its executable registered; one it does not know fails the child,
        // and the pass runs here instead, saying so. Without jemalloc the child still runs it:
        // glibc's figures are process-wide, and here, with this process's other threads, the
        // readings differed between two runs on a loaded machine.
        if plan.memoryIsolation == .childProcessWhenAvailable, HarnessChild.canHostChildren {
            let environment = ChildProcess.jemallocLibraryPath().map(ChildProcess.preloadEnvironment(library:)) ?? [:]
            var request = MemoryPassRequest(workloads: [], events: [], cases: members.map(childSpec))
            for index in workloads.indices {
                let events = members.filter { caseWorkload[$0] == index }.map(memoryEvents).max() ?? 0
                request.events.append(events)
                request.workloads.append(events > 0 ? try childWorkload(index, events: events) : ChildWorkload(spec: workloads[index].spec))
            }
            for position in request.cases.indices { request.cases[position].events = memoryEvents(members[position]) }
            do {
                response = try HarnessChild.call(
                    .memory, request, environment: environment, stage: "memory pass",
                    timeoutSeconds: MemoryPass.childTimeoutSeconds) as MemoryPassResponse
            } catch let timeout as ChildProcess.Timeout {
                // A hung child would most likely hang in-process too: stop, naming the stage.
                throw MeasurementError.stageFailed(timeout.description)
            } catch {
                note = " (\(error); measured in-process)"
            }
        }
        if response == nil {
            response = try MemoryPass.run(
                members.map { ($0, cases[$0], workloads[caseWorkload[$0]].columns.prefix(memoryEvents($0))) },
                statistics: AllocatorStatisticsDetector.detect())
        }
        guard let response else { return "unavailable" }
        for outcome in response.outcomes where results.indices.contains(outcome.key) {
            results[outcome.key].memory = outcome.result
        }
        harnessAllocationsPerEvent = response.harnessAllocationsPerEvent
        return response.source + note
    }

    /// Events case `index` runs in the memory pass: its whole workload, or as far as the
    /// published window runs on it.
    func memoryEvents(_ index: Int) -> Int {
        eventLimit(index) ?? workloads[caseWorkload[index]].columns.count
    }
}
