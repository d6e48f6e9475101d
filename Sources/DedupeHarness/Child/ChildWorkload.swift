import DedupeMeasurement
import DedupeWorkloads
import Foundation
import PushDedupe

/// A workload as a child process receives it: regenerated from its spec (a catalogue scenario),
/// or, for a trace, read from a binary columns file the parent wrote with the events the child
/// needs (``ColumnsFile``): never the whole workload as JSON.
struct ChildWorkload: Codable, Sendable, Hashable {
    var spec: WorkloadSpec?
    /// The ``ColumnsFile`` of a workload with no spec.
    var columnsFile: String?

    /// The columns of the workload's first `limit` events (all of them when `nil`).
    ///
    /// - Complexity: a generation of the whole workload for a spec; O(events read) for a file.
    func makeColumns(limit: Int? = nil) throws -> EventColumns {
        if let spec {
            guard let workload = spec.make() else { throw MeasurementError.invalidPlan("child: unknown workload \(spec)") }
            return workload.events.columns.prefix(max(0, limit ?? workload.events.count)).flaggingActionCompletions()
        }
        guard let columnsFile else { throw MeasurementError.invalidPlan("child: a workload has neither a spec nor a columns file") }
        return try ColumnsFile.read(columnsFile, limit: limit)
    }
}

/// The directory of the columns files a run writes for its children; removed with everything in
/// it when the run ends (the last reference goes), successfully or not.
final class _ChildFiles: @unchecked Sendable {
    let directory: String
    private var written = 0

    init() throws(MeasurementError) {
        var template = Array((NSTemporaryDirectory() + "/dedupe-bench-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw .stageFailed("cannot create a temporary directory for the child processes' events")
        }
        directory = String(cString: made)
    }

    /// Writes the first `count` events of `columns` to a new file and returns its path.
    func write(_ columns: EventColumns, count: Int) throws(MeasurementError) -> String {
        written += 1
        let path = directory + "/workload-\(written).columns"
        do {
            try ColumnsFile.write(columns, count: count, to: path)
        } catch {
            throw .stageFailed("cannot write the child processes' events: \(error)")
        }
        return path
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }
}

extension _Run {
    /// How a child rebuilds workload `index` with at least its first `count` events: by its spec,
    /// or from a columns file of exactly those events, written now.
    mutating func childWorkload(_ index: Int, events count: Int) throws(MeasurementError) -> ChildWorkload {
        let workload = workloads[index]
        if let spec = workload.spec { return ChildWorkload(spec: spec, columnsFile: nil) }
        if childFiles == nil { childFiles = try _ChildFiles() }
        return ChildWorkload(spec: nil, columnsFile: try childFiles!.write(workload.columns, count: count))
    }
}

/// One case as a child process rebuilds it: strategy ids resolved against the child's catalogue.
struct ChildCaseSpec: Codable, Sendable {
    /// Index of the result the figures belong to.
    var key: Int
    /// Index into the request's workloads.
    var workload: Int
    var mode: CaseMode
    var window: String?
    var consumed: String?
    var parameters: CaseParameters
    /// `nil` reads as `memory`.
    var persistence: Persistence?
    /// The case runs on the workload's first this many events; `nil`: every event the child
    /// was sent.
    var events: Int?

    /// The case, built from `catalogue`.
    func makeCase(_ catalogue: StrategyCatalogue) throws(MeasurementError) -> _AnyCase {
        if consumed == nil, mode.usesConsumedSet, let id = window {
            guard let pipeline = catalogue.pipeline(id) else { throw .invalidPlan("child: unknown pipeline '\(id)'") }
            return catalogue.makeCase(pipeline: pipeline, mode: mode, parameters: parameters)
        }
        let windowEntry = try window.map { id throws(MeasurementError) in
            guard let entry = catalogue.window(id) else { throw .invalidPlan("child: unknown window '\(id)'") }
            return entry
        }
        let consumedEntry = try consumed.map { id throws(MeasurementError) in
            guard let entry = catalogue.consumedSet(id) else { throw .invalidPlan("child: unknown consumed set '\(id)'") }
            return entry
        }
        return catalogue.makeCase(
            window: windowEntry, consumed: consumedEntry, mode: mode, parameters: parameters, persistence: persistence ?? .memory)
    }
}

extension _Run {
    /// Case `index` as a child rebuilds it.
    func childSpec(_ index: Int) -> ChildCaseSpec {
        ChildCaseSpec(
            key: index, workload: caseWorkload[index], mode: cases[index].mode, window: cases[index].windowID,
            consumed: cases[index].consumedID, parameters: cases[index].parameters, persistence: cases[index].persistence)
    }
}
