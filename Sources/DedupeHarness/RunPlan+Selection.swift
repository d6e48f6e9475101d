import DedupeMeasurement
import DedupeWorkloads

/// The strategies, modes and scenarios a plan selects, validated against the catalogue.
struct RunSelection {
    var windows: [WindowEntry]
    var consumedSets: [ConsumedSetEntry]
    var modes: [CaseMode]
    var scenarios: [Scenario]

    /// The set every window is paired with: the reference set, else the first selected.
    var referenceConsumedSet: ConsumedSetEntry? {
        consumedSets.first { $0.id == StrategyCatalogue.referenceConsumedSetID } ?? consumedSets.first
    }

    /// The window every set is paired with: the companion window, else the first selected that is
    /// not the reference, else the reference.
    var companionWindow: WindowEntry? {
        windows.first { $0.id == StrategyCatalogue.companionWindowID }
            ?? windows.first { $0.id != StrategyCatalogue.referenceWindowID } ?? windows.first
    }
}

extension RunPlan {
    /// Validates the plan and resolves its filters.
    ///
    /// - Throws: `MeasurementError.invalidPlan` naming the unknown id and listing the valid ones, or
    ///   the bad setting.
    func selection() throws(MeasurementError) -> RunSelection {
        guard repetitions >= 1 else { throw .invalidPlan("repetitions must be at least 1, got \(repetitions)") }
        guard windowMilliseconds.isFinite, windowMilliseconds >= 0 else {
            throw .invalidPlan("window must be a non-negative number of milliseconds, got \(windowMilliseconds)")
        }
        guard safetyFactor.isFinite, safetyFactor >= 1, safetyFactor <= 1_000 else {
            throw .invalidPlan("safety factor must be a number from 1 to 1000, got \(safetyFactor)")
        }
        do {
            _ = try horizonFacts.validated()
        } catch {
            throw .invalidPlan("\(error)")
        }
        let sizing = effectiveSizing
        guard sizing.workloadScale > 0, sizing.workloadScale <= 1 else {
            throw .invalidPlan("workload scale must be in (0, 1], got \(sizing.workloadScale)")
        }
        let windows = try Self.pick(filter.windows, from: strategies.windows, id: \.id, kind: "window")
        let consumedSets = try Self.pick(filter.consumedSets, from: strategies.consumedSets, id: \.id, kind: "consumed set")
        let modes = try Self.pick(filter.modes, from: CaseMode.allCases, id: \.rawValue, kind: "mode")
        let scenarios: [Scenario]
        switch source {
        case .catalogue:
            scenarios = try Self.pick(filter.workloads, from: ScenarioCatalogue.all, id: \.id, kind: "workload")
        case .trace:
            scenarios = []
        }
        return RunSelection(windows: windows, consumedSets: consumedSets, modes: modes, scenarios: scenarios)
    }

    /// The elements of `all` named by `ids` (all of them for `nil`), in catalogue order.
    private static func pick<Element>(
        _ ids: [String]?, from all: [Element], id: (Element) -> String, kind: String
    ) throws(MeasurementError) -> [Element] {
        guard let ids else { return all }
        let valid = all.map(id)
        for requested in ids where !valid.contains(requested) {
            throw .invalidPlan("unknown \(kind) '\(requested)'; valid \(kind)s: \(valid.joined(separator: ", "))")
        }
        return all.filter { ids.contains(id($0)) }
    }
}
