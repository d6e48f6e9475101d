import PushDedupe

extension _Run {
    /// On a workload with relaunches, labels the case just added `memory` and, for a consumed set
    /// that can snapshot, adds its `snapshot` twin: the same case with the set restored at every
    /// relaunch instead of lost. Elsewhere persistence changes nothing, so there is one row.
    mutating func addSnapshotTwin(
        window: WindowEntry?, consumed: ConsumedSetEntry?, mode: CaseMode, parameters: CaseParameters, workload index: Int
    ) {
        guard mode.usesConsumedSet, !workloads[index].columns.relaunches.isEmpty, let consumed else { return }
        results[results.count - 1].persistence = CasePersistence.memory.rawValue
        guard consumed.isSnapshottable else { return }
        let anyCase = plan.strategies.makeCase(
            window: window, consumed: consumed, mode: mode, parameters: parameters, persistence: .snapshot)
        cases.append(anyCase)
        caseWorkload.append(index)
        // The memory twin's record: the same strategies, guarantees and parameters.
        var result = results[results.count - 1]
        result.persistence = CasePersistence.snapshot.rawValue
        results.append(result)
    }
}
