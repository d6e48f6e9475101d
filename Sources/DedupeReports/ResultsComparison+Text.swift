import DedupeMeasurement
import DedupeDecision
import DedupeWorkloads
import DedupeHarness
import Foundation

extension ResultsComparison {
    /// The terminal summary: what was compared and how, the verdict, the top regressions by
    /// effect and why each flagged one was flagged, then the largest unflagged slowdowns.
    package func summaryText(top: Int = 10) -> String {
        let forks = units.first.map { "\($0.change.baselineForks) and \($0.change.currentForks)" } ?? "no"
        let regressions = units.filter { $0.verdict == .regression }.sorted { $0.change.estimate.shift > $1.change.estimate.shift }
        let improvements = units.filter { $0.verdict == .improvement }
        let detectable = units.map(\.change.minimumDetectablePercent).sorted()
        var lines: [String] = []
        lines.append(
            "compare: \(units.count) unit(s) gated, from \(rows.count) case(s) in both files (\(forks) forks); "
                + "\(regressions.count) regression(s), \(improvements.count) improvement(s)")
        lines.append(
            "rule: a unit (a strategy in a mode, over its workloads; a pipeline case counts for its window and its set) regresses when its one-sided Welch t test on the "
                + "forks' log geometric-mean ratio to the reference (median over each fork's repetitions), \(rule.correction.name)-adjusted over \(units.count) unit(s), "
                + "gives p < \(Self.setting(rule.alpha)), and the \(rule.confidencePercent)% Hodges–Lehmann interval of its change lies above "
                + "+\(Self.setting(rule.thresholdPercent))%")
        if let median = SampleStatistics.median(detectable), let worst = units.max(by: {
            $0.change.minimumDetectablePercent < $1.change.minimumDetectablePercent
        }) {
            lines.append(
                "minimum detectable effect (80% power, and the interval clearing the threshold): \(Self.signed(median)) for the "
                    + "median unit, \(Self.signed(worst.change.minimumDetectablePercent)) at worst (\(MessageText.quoted(worst.key.description)))")
        }
        if referenceCases > 0 {
            lines.append("not gated: \(referenceCases) reference row(s), whose ratio is 1 by construction")
        }
        if unratedCases > 0 {
            lines.append("not gated: \(unratedCases) case(s) without ratios to the reference")
        }
        if !onlyInBaseline.isEmpty || !onlyInCurrent.isEmpty {
            lines.append("not compared: \(onlyInBaseline.count) case(s) only in the baseline, \(onlyInCurrent.count) only in the current run")
        }
        lines.append("")
        if correctness.isEmpty {
            lines.append("No correctness regression.")
        } else {
            lines.append("Correctness regressions (\(correctness.count)), each a failure:")
            for regression in correctness.prefix(top) { lines.append("  " + regression.text) }
            if correctness.count > top { lines.append("  … and \(correctness.count - top) more") }
        }
        if regressions.isEmpty {
            lines.append("No regression.")
        } else {
            lines.append("Regressions, largest first:")
            for unit in regressions.prefix(top) { lines.append(Self.line(unit)) }
            if regressions.count > top { lines.append("  … and \(regressions.count - top) more (see --out)") }
        }
        let unflagged = units.filter { $0.verdict == .unchanged && $0.change.estimate.shift > 0 }
            .sorted { $0.change.estimate.shift > $1.change.estimate.shift }.prefix(min(top, 5))
        if !unflagged.isEmpty {
            lines.append("Largest slowdowns not flagged:")
            for unit in unflagged { lines.append(Self.line(unit)) }
        }
        if !improvements.isEmpty {
            lines.append("Improvements:")
            for unit in improvements.sorted(by: { $0.change.estimate.shift < $1.change.estimate.shift }).prefix(top) {
                lines.append(Self.line(unit))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func line(_ unit: Unit) -> String {
        "  \(unit.verdict.rawValue): \(MessageText.quoted(unit.key.description)) \(signed(unit.change.percent)) over \(unit.workloads) workload(s): \(unit.reason)"
    }

    /// The full table for `--out`, tab-separated and escaped (``CSVTable/renderTabSeparated()``:
    /// a name from a file cannot add a column or a row): one row per unit (`level` `unit`, with
    /// the verdict), then one per case (`level` `case`, not gated).
    package func table() -> String {
        var table = CSVTable(header: [
            "level", "name", "mode", "window", "consumed", "workloads", "baseline_median_ns", "current_median_ns",
            "median_change_pct", "ratio_change_pct", "ci_low_pct", "ci_high_pct", "p_slower", "p_adjusted",
            "min_detectable_pct", "verdict", "reason",
        ])
        func fields(_ change: Change?) -> [String] {
            guard let change else { return ["", "", "", ""] }
            return [
                NumberText.fixed(change.percent, 2), NumberText.fixed(change.lowerPercent, 2),
                NumberText.fixed(change.upperPercent, 2), Self.pText(change.pSlower),
            ]
        }
        for unit in units {
            let window = unit.key.layer == .window ? unit.key.strategyID : ""
            let consumed = unit.key.layer == .consumed ? unit.key.strategyID : ""
            table.rows.append(["unit", unit.key.description, unit.key.mode.rawValue, window, consumed,
                               String(unit.workloads), "", "", ""] + fields(unit.change)
                              + [Self.pText(unit.adjustedP), NumberText.fixed(unit.change.minimumDetectablePercent, 2),
                                 unit.verdict.rawValue, unit.reason])
        }
        for row in rows {
            table.rows.append(["case", row.key.text, row.key.choice.mode.rawValue, row.key.choice.window?.id ?? "",
                               row.key.choice.consumed?.id ?? "", "1",
                               NumberText.significant(row.baselineMedian), NumberText.significant(row.currentMedian),
                               NumberText.fixed(row.changePercent, 2)] + fields(row.change)
                              + ["", row.change.map { NumberText.fixed($0.minimumDetectablePercent, 2) } ?? "", "",
                                 row.change == nil ? "reference row, no ratios or too few forks" : ""])
        }
        for (keys, note) in [(onlyInBaseline, "only in baseline"), (onlyInCurrent, "only in current")] {
            for key in keys {
                table.rows.append(["case", key.text, key.choice.mode.rawValue, key.choice.window?.id ?? "", key.choice.consumed?.id ?? ""]
                                  + Array(repeating: "", count: 11) + [note])
            }
        }
        return table.renderTabSeparated()
    }
}
