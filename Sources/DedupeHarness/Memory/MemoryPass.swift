import Foundation
import PushDedupe

/// One case of the memory pass, described so another process can rebuild it.
struct MemoryCaseSpec: Codable, Sendable {
    /// Index of the result the figures belong to.
    var key: Int
    var workload: WorkloadSpec
    var mode: CaseMode
    var window: String?
    var consumed: String?
    var parameters: CaseParameters
    /// `nil` reads as `memory`.
    var persistence: CasePersistence?
}

/// What the parent sends the memory-pass child on stdin.
struct MemoryPassRequest: Codable, Sendable {
    var cases: [MemoryCaseSpec]
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
/// slices. Runs in a child process with jemalloc preloaded when possible (timings in the parent
/// keep the platform allocator), otherwise in-process.
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
        let columns = EventColumns(WorkloadSource.consumedSweepOperations(count: 10_000, operations: 20_000, round: 0, seed: 1).events)
        let noOp = _AnyCase(
            _NoOpWindow.self, _NoOpConsumedSet.self, mode: .twoLayerGuarded,
            parameters: CaseParameters(windowMilliseconds: 0, windowCapacity: 0, consumedCapacity: 0, falsePositiveRate: 0.5, retentionMilliseconds: 1))
        return (try? noOp._memory(columns, &statistics))?.allocationsPerEvent
    }

    /// Rebuilds the cases of `request` from `catalogue` and runs them.
    static func run(_ request: MemoryPassRequest, catalogue: StrategyCatalogue, statistics: (any AllocatorStatistics)?) throws -> MemoryPassResponse {
        var cache: [WorkloadSpec: EventColumns] = [:]
        var items: [(key: Int, anyCase: _AnyCase, columns: EventColumns)] = []
        for spec in request.cases {
            let columns: EventColumns
            if let cached = cache[spec.workload] {
                columns = cached
            } else {
                guard let workload = spec.workload.make() else { throw HarnessError.invalidPlan("memory pass: unknown workload \(spec.workload)") }
                columns = EventColumns(workload.events)
                cache[spec.workload] = columns
            }
            let window = try spec.window.map { id throws(HarnessError) in
                guard let entry = catalogue.window(id) else { throw .invalidPlan("memory pass: unknown window '\(id)'") }
                return entry
            }
            let consumed = try spec.consumed.map { id throws(HarnessError) in
                guard let entry = catalogue.consumedSet(id) else { throw .invalidPlan("memory pass: unknown consumed set '\(id)'") }
                return entry
            }
            items.append((spec.key, catalogue.makeCase(
                window: window, consumed: consumed, mode: spec.mode, parameters: spec.parameters,
                persistence: spec.persistence ?? .memory), columns))
        }
        return try run(items, statistics: statistics)
    }

    /// The child's main: request on stdin, response on stdout, diagnostics on stderr.
    static func childMain(arguments: [String]) -> Int32 {
        let input = FileHandle.standardInput.readDataToEndOfFile()
        do {
            let request = try JSONDecoder().decode(MemoryPassRequest.self, from: input)
            let response = try run(request, catalogue: .standard, statistics: AllocatorStatisticsDetector.detect())
            FileHandle.standardOutput.write(try JSONEncoder().encode(response))
            return 0
        } catch {
            FileHandle.standardError.write(Data("memory pass: \(error)\n".utf8))
            return 2
        }
    }
}

extension _Run {
    /// The memory pass over every `window-alone`, `consumed-alone` and `two-layer` case. Returns
    /// the allocator source the figures came from.
    mutating func measureMemory() throws -> String {
        report("memory pass")
        let members = cases.indices.filter {
            [CaseMode.windowAlone, .consumedAlone, .twoLayer].contains(cases[$0].mode) && cases[$0].persistence == .memory
        }
        var response: MemoryPassResponse?
        var note = ""
        // The child regenerates workloads from their specs and strategies from the standard
        // catalogue, so a trace or a custom catalogue stays in-process.
        let childCanRebuild = workloads.allSatisfy { $0.spec != nil } && members.allSatisfy {
            cases[$0].windowID.map { StrategyCatalogue.standard.window($0) != nil } ?? true
                && cases[$0].consumedID.map { StrategyCatalogue.standard.consumedSet($0) != nil } ?? true
        }
        if plan.memoryIsolation == .childProcessWhenAvailable, childCanRebuild, let library = ChildProcess.jemallocLibraryPath() {
            let request = MemoryPassRequest(cases: members.map { index in
                MemoryCaseSpec(
                    key: index, workload: workloads[caseWorkload[index]].spec!, mode: cases[index].mode,
                    window: cases[index].windowID, consumed: cases[index].consumedID, parameters: cases[index].parameters,
                    persistence: cases[index].persistence)
            })
            do {
                let child = try ChildProcess.run(
                    executable: ChildProcess.currentExecutablePath(), arguments: ["__memory-pass"],
                    environment: ChildProcess.preloadEnvironment(library: library), input: JSONEncoder().encode(request),
                    stage: "memory pass", timeoutSeconds: MemoryPass.childTimeoutSeconds)
                if child.status == 0 {
                    response = try JSONDecoder().decode(MemoryPassResponse.self, from: child.output)
                } else {
                    note = " (child failed with status \(child.status): \(String(decoding: child.error, as: UTF8.self).prefix(200)); measured in-process)"
                }
            } catch let timeout as ChildProcess.Timeout {
                // A hung child would most likely hang in-process too: stop, naming the stage.
                throw HarnessError.stageFailed(timeout.description)
            } catch {
                note = " (child failed: \(error); measured in-process)"
            }
        }
        if response == nil {
            response = try MemoryPass.run(
                members.map { ($0, cases[$0], workloads[caseWorkload[$0]].columns) },
                statistics: AllocatorStatisticsDetector.detect())
        }
        guard let response else { return "unavailable" }
        for outcome in response.outcomes where results.indices.contains(outcome.key) {
            results[outcome.key].memory = outcome.result
        }
        harnessAllocationsPerEvent = response.harnessAllocationsPerEvent
        return response.source + note
    }
}
