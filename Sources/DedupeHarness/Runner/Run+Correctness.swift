import DedupeWorkloads
import PushDedupe

/// One case's decision for every event of its workload, handed to ``RunPlan/decisionSink`` so a
/// user can audit any single navigation.
public struct CaseDecisions: Sendable {
    public var workload: Workload
    public var mode: CaseMode
    public var window: String?
    public var consumed: String?
    /// One ``CaseDecision`` raw value per event of `workload`, in order.
    public var decisions: [UInt8]

    public init(workload: Workload, mode: CaseMode, window: String?, consumed: String?, decisions: [UInt8]) {
        self.workload = workload
        self.mode = mode
        self.window = window
        self.consumed = consumed
        self.decisions = decisions
    }

    /// The decision on event `index`.
    public func decision(at index: Int) -> CaseDecision {
        CaseDecision(rawValue: decisions[index]) ?? .notApplicable
    }
}

extension _Run {
    /// The reference strategies of `mode`: `seed-literal` and/or `set`, for the layers it uses.
    static func referenceIDs(_ mode: CaseMode) -> (window: String?, consumed: String?) {
        (mode.usesWindow ? StrategyCatalogue.referenceWindowID : nil,
         mode.usesConsumedSet ? StrategyCatalogue.referenceConsumedSetID : nil)
    }

    func isReference(_ index: Int) -> Bool {
        let ids = Self.referenceIDs(cases[index].mode)
        return cases[index].windowID == ids.window && cases[index].consumedID == ids.consumed
    }

    /// One untimed run of every case over its whole workload, scored against the truth and
    /// matched event by event with the reference case of its mode on the same workload. The
    /// reference cases of a workload are scored first; a reference the suite does not contain
    /// (filtered out) is run for the matching only and not reported.
    ///
    /// The cases' measured costs also plan the progress line's estimate of the memory pass (it
    /// runs its cases once more over the same workloads) and of the correctness sweeps.
    mutating func scoreCorrectness() throws(HarnessError) {
        var seconds = [Double](repeating: 0, count: cases.count)
        var byWorkload = [[Int]](repeating: [], count: workloads.count)
        for index in cases.indices { byWorkload[caseWorkload[index]].append(index) }
        for (workloadIndex, indices) in byWorkload.enumerated() where !indices.isEmpty {
            let columns = workloads[workloadIndex].columns
            // A `snapshot` twin is matched with the reference restored the same way.
            var references: [String: (label: String, decisions: [UInt8])] = [:]
            let ordered = indices.filter(isReference) + indices.filter { !isReference($0) }
            for index in ordered {
                report(label(index))
                let mode = cases[index].mode
                let persistence = cases[index].persistence
                let key = "\(mode.rawValue) \(persistence.rawValue)"
                let start = MonotonicClock.now()
                let run = try Self.rethrowing(label(index)) {
                    try cases[index]._correctness(columns, sizing.falsePositiveProbes, plan.seed)
                }
                seconds[index] = Double(MonotonicClock.now() - start) / 1e9
                var correctness = CorrectnessResult(decisions: run.decisions, columns: columns, run: run)
                if references[key] == nil {
                    if isReference(index) {
                        references[key] = (cases[index].referenceLabel, run.decisions)
                    } else if let reference = try referenceDecisions(
                        mode, persistence: persistence, workload: workloadIndex, parameters: cases[index].parameters) {
                        references[key] = reference
                    }
                }
                if let reference = references[key] {
                    correctness.matched = MatchedErrors(
                        decisions: run.decisions, referenceDecisions: reference.decisions, truths: columns.truths,
                        reference: reference.label)
                }
                results[index].correctness = correctness
                results[index].snapshot = run.snapshot
                if let sink = plan.decisionSink {
                    let decisions = CaseDecisions(
                        workload: workloads[workloadIndex].workload, mode: mode, window: cases[index].windowID,
                        consumed: cases[index].consumedID, decisions: run.decisions)
                    do {
                        try sink(decisions)
                    } catch {
                        throw .invalidPlan("cannot write the decisions: \(error)")
                    }
                }
            }
        }
        if plan.measureMemory {
            plannedSeconds[.memory] = cases.indices
                .filter { [CaseMode.windowAlone, .consumedAlone, .twoLayer].contains(cases[$0].mode) }
                .reduce(0) { $0 + seconds[$1] }
        }
        if correctnessSweepPoints > 0, !seconds.isEmpty {
            plannedSeconds[.sweeps, default: 0] += Double(correctnessSweepPoints) * seconds.reduce(0, +) / Double(seconds.count)
        }
    }

    /// The reference case's decisions for `mode` on a workload, run with `parameters`; `nil` when
    /// the catalogue lacks a reference strategy.
    private func referenceDecisions(
        _ mode: CaseMode, persistence: CasePersistence, workload: Int, parameters: CaseParameters
    ) throws(HarnessError) -> (label: String, decisions: [UInt8])? {
        let ids = Self.referenceIDs(mode)
        let window = ids.window.flatMap(plan.strategies.window)
        let consumed = ids.consumed.flatMap(plan.strategies.consumedSet)
        guard (ids.window == nil) == (window == nil), (ids.consumed == nil) == (consumed == nil) else { return nil }
        let reference = plan.strategies.makeCase(
            window: window, consumed: consumed, mode: mode, parameters: parameters, persistence: persistence)
        let label = reference.referenceLabel
        let run = try Self.rethrowing(label) {
            try reference._correctness(workloads[workload].columns, 0, plan.seed)
        }
        return (label, run.decisions)
    }
}
