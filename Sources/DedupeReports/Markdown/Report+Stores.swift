import DedupeStoreLab
import DedupeDecision
import DedupeHarness
import PushDedupe

extension MarkdownReport {
    /// ` with the `journal` store` after a persisting pick's label; empty otherwise.
    static func storeClause(_ store: StorePick?, _ winner: Candidate) -> String {
        guard let store, winner.persists else { return "" }
        return " with the `\(store.design)` store"
    }

    /// What the pick costs per push on the calling thread, structure and store, and why that
    /// store; `nil` when the pick keeps its set in memory or the run measured no store.
    static func storeCostSentence(_ store: StorePick?, _ winner: Candidate, results: RunResults) -> String? {
        guard winner.persists, let stores = results.stores else { return nil }
        guard let store else {
            let excluded = stores.costs.compactMap { row in
                row.design == StoreCost.structureDesign || row.durability != StoreDurability.processKill.rawValue ? nil
                    : StorePick.exclusion(row.design, stores).map { "`\(row.design)` (\($0))" }
            }
            return "No store design passes the store rule (\(StorePick.ruleText)): " + excluded.joined(separator: "; ") + "."
        }
        var out = "Per push on the calling thread at \(stores.retained) ids, the set with the `\(store.design)` store costs "
        out += "\(nanoseconds(store.cost.medianNanoseconds)) median and \(nanoseconds(store.cost.p99Nanoseconds)) p99"
        if let structure = store.structure {
            out += " (the set alone: \(nanoseconds(structure.medianNanoseconds)) and \(nanoseconds(structure.p99Nanoseconds)))"
        }
        out += ", writing \(NumberText.significant(store.cost.bytesPerConsume)) bytes per consume"
        if store.design != DedupeStore.Design.snapshot.rawValue,
           let snapshot = stores.costs.first(where: { $0.design == DedupeStore.Design.snapshot.rawValue && $0.durability == StoreDurability.processKill.rawValue }) {
            out += "; the `snapshot` design costs \(nanoseconds(snapshot.medianNanoseconds)) and \(nanoseconds(snapshot.p99Nanoseconds))"
        }
        out += ". The store is picked by measurement, \(StorePick.ruleText)"
        if !store.excluded.isEmpty {
            out += "; excluded: " + store.excluded.map { "`\($0.design)` (\($0.reason))" }.joined(separator: "; ")
        }
        return out + "."
    }

    /// `412 ns`, `3.1 µs`, `1.2 ms`.
    static func nanoseconds(_ value: Double) -> String {
        if value >= 1e6 { return NumberText.significant(value / 1e6) + " ms" }
        if value >= 1e4 { return NumberText.significant(value / 1e3) + " µs" }
        return NumberText.significant(value) + " ns"
    }

    /// `## Stores`: per design at the pick's size, what a consume costs and what survived; the
    /// rows, the sweep and the damage matrix are in `stores.csv` and `store-damage.csv`.
    static func storesSection(_ results: RunResults, recommendation: Recommendation, chart: Bool) -> String {
        guard let stores = results.stores else { return "" }
        var out = "## Stores\n\n"
        out += "How layer 2's ids are kept across launches (`Guides/Stores.md`): each consume timed on its own on the calling thread, "
        out += "at the pick's \(stores.retained) ids, kill durability (power-loss: p99 with a flush per consume). Lost: acknowledged ids "
        out += "a restore did not know after SIGKILL points (sets of \(stores.kills.first?.retained ?? 0) ids) and with two writer "
        out += "processes (\(stores.twoWriters.first?.consumesPerWriter ?? 0) consumes each); damaged files destroyed must be 0. "
        if let explored = stores.explored?.first {
            out += "Explored: contract violations in every interleaving of two or three stores on one file with at most "
            out += "\(explored.preemptions) preemptions, and a kill or an I/O error at every step of those with at most "
            out += "\(explored.faultPreemptions) (`StoreExplorer`); must be 0. "
        }
        out += "[`stores.csv`](stores.csv) has every row and the size sweep, [`store-damage.csv`](store-damage.csv) the damage matrix.\n\n"
        var table = MarkdownTable(
            header: ["Store", "Median", "p99", "Max", "Bytes/consume", "Restore µs", "Power-loss p99", "Killed: lost/acked",
                     "Two writers: lost/acked", "Damaged: destroyed/tried", "Explored: violations/schedules"],
            alignRight: Set(1...10))
        let kill = StoreDurability.processKill.rawValue
        for row in stores.costs where row.durability == kill {
            let isStructure = row.design == StoreCost.structureDesign
            let name = isStructure ? "none (the set alone)" : "`\(row.design)`" + (recommendation.store?.design == row.design ? " ◀" : "")
            let power = stores.costs.first { $0.design == row.design && $0.durability == StoreDurability.powerLoss.rawValue }
            let killed = stores.kills.first { $0.design == row.design }
            let two = stores.twoWriters.first { $0.design == row.design }
            let damage = stores.damage.filter { $0.design == row.design }
            let explored = stores.explored?.first { $0.design == row.design }.map { "\($0.violations)/\($0.schedules)" } ?? "—"
            table.rows.append([
                name, nanoseconds(row.medianNanoseconds), nanoseconds(row.p99Nanoseconds), nanoseconds(row.maxNanoseconds),
                isStructure ? "—" : NumberText.significant(row.bytesPerConsume),
                row.restoreMicroseconds.map(NumberText.significant) ?? "—",
                power.map { nanoseconds($0.p99Nanoseconds) } ?? "—",
                killed.map { $0.skipped == nil ? "\($0.lost)/\($0.acknowledged) (\($0.killPoints) kills)" : "not run" } ?? "—",
                two.map { $0.skipped == nil ? "\($0.lost)/\($0.acknowledged)" : "not run" } ?? "—",
                damage.isEmpty ? "—" : "\(damage.reduce(0) { $0 + $1.destroyed })/\(damage.reduce(0) { $0 + $1.trials })",
                explored,
            ])
        }
        out += table.render() + "\n"
        let violated = (stores.explored ?? []).filter { $0.violations > 0 }
        for summary in violated {
            out += "`\(summary.design)` broke the contract in \(summary.violations) explored schedules; the shortest of each kind:\n\n"
            out += summary.examples.map { "- \($0)\n" }.joined() + "\n"
        }
        if chart { out += "![\(ChartReport.storeChartCaption)](\(ChartReport.storeChartFileName))\n\n" }
        return out
    }
}

extension Candidate {
    /// Whether the candidate keeps its consumed set across launches.
    var persists: Bool { choice.persistence == .afterEveryConsume || choice.persistence == .onBackground }
}
