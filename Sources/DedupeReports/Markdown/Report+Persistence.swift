import DedupeDecision
import DedupeHarness
import DedupeWorkloads

extension MarkdownReport {
    /// The pick's strategies and the published code's at every identity and persistence they ran
    /// with: what keying on the push's id and persisting the set each buy.
    static func twinsSection(_ recommendation: Recommendation) -> String {
        let groups = [recommendation.published()?.choice.base, recommendation.winner?.choice.base].compactMap { $0 }
        guard !groups.isEmpty else { return "" }
        var out = "## Identity and persistence\n\n"
        out += "`minted` keys each payload on a fresh id (the published code's `UUID()`); `push-id` on the id the push carries. "
        out += "`memory` loses the consumed set at a kill, `on-background` keeps what was saved at the last "
        out += "`didEnterBackground`, `after-every-consume` what was saved after every consume. Matched against the published code "
        out += "as it ships.\n\n"
        var table = MarkdownTable(
            header: ["Strategies", "Identity", "Persistence", "Missed dups", "Newly missed", "False drops", "Newly dropped", "Snapshot"],
            alignRight: [3, 4, 5, 6, 7])
        var seen: Set<StrategyChoice> = []
        for base in groups where seen.insert(base).inserted {
            for candidate in recommendation.everyChoice where candidate.choice.base == base {
                table.rows.append([
                    "`\(base.strategiesText)`", candidate.choice.identity?.rawValue ?? "—", candidate.choice.persistence?.rawValue ?? "—",
                    "\(candidate.missedDuplicates)/\(candidate.dupEvents)", String(candidate.newlyMissed),
                    "\(candidate.falseDrops)/\(candidate.newEvents)", String(candidate.newlyDropped),
                    candidate.snapshotBytes.map { NumberText.bytes(Double($0)) } ?? "—",
                ])
            }
        }
        return out + table.render() + "\n"
    }

    /// Per consumed set, in `two-layer` on the workloads with relaunches: missed duplicates under
    /// each persistence (at `push-id` identity where the workload has push ids), and what the
    /// snapshots cost. Empty when no workload relaunched.
    static func persistenceSection(_ results: RunResults) -> String {
        let persisting = results.cases.filter { $0.mode == ReferenceStrategies.mode && $0.persistence == .afterEveryConsume }
        guard !persisting.isEmpty else { return "" }
        let relaunching = Set(persisting.map(\.workload))
        var out = "## Persistence across relaunches\n\n"
        out += "On the \(relaunching.count) workload(s) with `relaunch` events (\(relaunching.sorted().map(MarkdownText.code).joined(separator: ", "))), "
        out += "summed; each row at the identity its strategies do best with. Snapshot bytes: the largest written; µs: means "
        out += "from the correctness run (release builds only).\n\n"
        var table = MarkdownTable(
            header: ["Pipeline", "Missed: memory → on-background → after-every-consume", "Snapshot bytes", "Snapshot µs", "Restore µs"],
            alignRight: [2, 3, 4])
        var order: [StrategyChoice] = []
        var rows: [StrategyChoice: [Persistence: (missed: Int, bytes: Int, snapshot: Double, restore: Double, count: Int)]] = [:]
        let identity: (CaseResult) -> Bool = { result in
            result.identity == .pushID || !results.cases.contains { $0.workload == result.workload && $0.identity == .pushID }
        }
        for result in results.cases where result.mode == ReferenceStrategies.mode && relaunching.contains(result.workload) && identity(result) {
            guard let persistence = result.persistence, let correctness = result.correctness else { continue }
            let base = result.choice.base
            if rows[base] == nil { order.append(base) }
            var cell = rows[base, default: [:]][persistence] ?? (0, 0, 0, 0, 0)
            cell.missed += correctness.missedDuplicates
            if let snapshot = result.snapshot {
                cell.bytes = max(cell.bytes, snapshot.maximumBytes)
                cell.snapshot += snapshot.meanSnapshotNanoseconds
                cell.restore += snapshot.meanRestoreNanoseconds
                cell.count += 1
            }
            rows[base, default: [:]][persistence] = cell
        }
        for base in order {
            guard let cells = rows[base], let snapshot = cells[.afterEveryConsume] else { continue }
            let missed = [Persistence.memory, .onBackground, .afterEveryConsume].map { cells[$0].map { String($0.missed) } ?? "—" }.joined(separator: " → ")
            let n = Double(max(1, snapshot.count))
            table.rows.append([
                "`\(base.strategiesText)`", missed, NumberText.bytes(Double(snapshot.bytes)),
                NumberText.significant(snapshot.snapshot / n / 1_000), NumberText.significant(snapshot.restore / n / 1_000),
            ])
        }
        return out + table.render() + "\n"
    }
}
