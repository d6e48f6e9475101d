import DedupeHarness

extension MarkdownReport {
    /// `two-layer` rows of the workloads with relaunches, each consumed set once with its state
    /// lost at every relaunch (`memory`) and once restored from a snapshot (`snapshot`), with
    /// what the snapshots cost. Empty when no workload relaunched.
    static func persistenceSection(_ results: RunResults) -> String {
        let snapshots = results.cases.filter { $0.isSnapshotPersistence && $0.mode == ReferenceStrategies.mode }
        guard !snapshots.isEmpty else { return "" }
        var out = "## Persistence across relaunches\n\n"
        out += "On workloads with `relaunch` events the app's process is killed and started again: windows and "
        out += "the navigation path are always lost. `memory` loses the consumed set too; `snapshot` restores it "
        out += "from the bytes written at the relaunch. Snapshot sizes and times are means per relaunch, from the "
        out += "correctness run (meaningful in release builds only).\n\n"
        var table = MarkdownTable(
            header: ["Workload", "Strategy", "Missed dups (memory → snapshot)", "False drops (memory → snapshot)",
                     "Snapshot bytes", "Snapshot µs", "Restore µs"],
            alignRight: [2, 3, 4, 5, 6])
        for snapshot in snapshots {
            let memory = results.cases.first {
                $0.persistence == CasePersistence.memory.rawValue && $0.workload == snapshot.workload && $0.mode == snapshot.mode
                    && $0.window == snapshot.window && $0.consumed == snapshot.consumed && $0.parameters == snapshot.parameters
            }
            func pair(_ value: (CorrectnessResult) -> Int) -> String {
                "\(memory?.correctness.map(value).map(String.init) ?? "—") → \(snapshot.correctness.map(value).map(String.init) ?? "—")"
            }
            let cost = snapshot.snapshot
            table.rows.append([
                "`\(snapshot.workload)`", "`\(memory?.strategyLabel ?? snapshot.strategyLabel)`",
                pair(\.missedDuplicates), pair(\.falseDrops),
                cost.map { NumberText.bytes($0.meanBytes) } ?? "—",
                cost.map { NumberText.significant($0.meanSnapshotNanoseconds / 1_000) } ?? "—",
                cost.map { NumberText.significant($0.meanRestoreNanoseconds / 1_000) } ?? "—",
            ])
        }
        return out + table.render() + "\n"
    }
}
