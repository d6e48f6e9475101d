import DedupeHarness

extension CSVReport {
    static let storesFileName = "stores.csv"
    static let storeDamageFileName = "store-damage.csv"

    /// `stores.csv`: one row per design × durability × retained size (`section` `cost`: at the
    /// pick's size, with the structure alone as design `none`; `sweep`: the size sweep), with the
    /// design's kill-sweep and two-writer figures and damaged files destroyed on every row of it.
    package static func stores(_ results: RunResults) -> CSVTable {
        var table = CSVTable(header: [
            "section", "design", "durability", "retained", "consumes", "median_ns", "p99_ns", "max_ns", "mean_ns",
            "bytes_per_consume", "compactions", "folder_bytes", "restore_us", "kill_points", "kill_retained",
            "kill_acknowledged", "kill_lost", "kill_repairs", "kill_torn_tails_cut", "two_writer_consumes",
            "two_writer_acknowledged", "two_writer_lost", "damage_destroyed", "not_measured",
        ])
        guard let stores = results.stores else { return table }
        for (section, rows) in [("cost", stores.costs), ("sweep", stores.sweep)] {
            for row in rows {
                let kill = stores.kills.first { $0.design == row.design }
                let two = stores.twoWriters.first { $0.design == row.design }
                let damage = stores.damage.filter { $0.design == row.design }
                table.rows.append([
                    section, row.design, row.durability, String(row.retained), String(row.consumes),
                    NumberText.exact(row.medianNanoseconds), NumberText.exact(row.p99Nanoseconds), NumberText.exact(row.maxNanoseconds),
                    NumberText.exact(row.meanNanoseconds), NumberText.exact(row.bytesPerConsume), String(row.compactions),
                    String(row.folderBytes), NumberText.exact(row.restoreMicroseconds),
                    text(kill.map(\.killPoints)), text(kill.map(\.retained)), text(kill.map(\.acknowledged)), text(kill.map(\.lost)),
                    text(kill.map(\.repairs)), text(kill.map(\.tornTailsCut)), text(two.map(\.consumesPerWriter)),
                    text(two.map(\.acknowledged)), text(two.map(\.lost)),
                    damage.isEmpty ? "" : String(damage.reduce(0) { $0 + $1.destroyed }),
                    [kill?.skipped, two?.skipped].compactMap { $0 }.first ?? "",
                ])
            }
        }
        return table
    }

    /// `store-damage.csv`: one row per design × kind of damage.
    package static func storeDamage(_ results: RunResults) -> CSVTable {
        var table = CSVTable(header: ["design", "damage", "ids", "trials", "lost_max", "lost_total", "destroyed", "not_applicable"])
        for row in results.stores?.damage ?? [] {
            table.rows.append([
                row.design, row.kind.rawValue, String(row.ids), String(row.trials), String(row.lostMax), String(row.lostTotal),
                String(row.destroyed), row.notApplicable ?? "",
            ])
        }
        return table
    }

    private static func text(_ value: Int?) -> String { value.map(String.init) ?? "" }
}
