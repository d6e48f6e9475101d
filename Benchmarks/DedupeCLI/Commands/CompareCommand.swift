import DedupeCommandLine
import DedupeDecision
import DedupeHarness
import DedupeReports
import Foundation

/// Options of `compare`.
enum CompareOptions {
    static let threshold = OptionSpec("threshold", value: "PCT", help: "Smallest slowdown that counts, in percent (default 4).")
    static let alpha = OptionSpec("alpha", value: "A", help: "Significance level after the correction, in (0, 0.5) (default 0.05).")
    static let correction = OptionSpec(
        "correction", value: "NAME", help: "holm (family-wise error) or bh (false discovery rate) (default holm).")
    static let out = OptionSpec("out", value: "FILE", help: "Write the full table of units and cases there (tab-separated).")
    static let top = OptionSpec("top", value: "N", help: "Regressions listed in the summary (default 10).")
}

extension Subcommands {
    static let compare = Subcommand(
        name: "compare", summary: "Compare two results.json files; exit 1 on a correctness or significant timing regression.",
        positionals: "BASELINE.json CURRENT.json",
        discussion: """
        Correctness first: a case in both files (same id and parameters) whose false drops, newly dropped or
        newly missed events rose fails the gate, named with the causes that rose; a seeded run's errors do not
        vary, so any rise is a change. Then time: the gate's unit is a strategy in a mode over the workloads both runs timed it on. Per timing fork, its
        statistic is the geometric mean of the ratio to the reference timed in the same repetition. A unit
        regresses when a one-sided Welch t test on the forks' log statistics, adjusted over all units (Holm,
        or Benjamini–Hochberg), gives p < alpha and the (1 − alpha) Hodges–Lehmann interval of its change lies
        above the threshold. Prints the summary and the top regressions with the reason for each; --out writes
        every unit and case. Exit codes: 0 no regression, 1 a correctness or timing regression, 2 usage error or
        unusable input.
        """,
        options: [CompareOptions.threshold, CompareOptions.alpha, CompareOptions.correction, CompareOptions.out, CompareOptions.top]
    ) { arguments, console throws(CommandLineError) in
        let paths = try arguments.positionals(named: ["BASELINE.json", "CURRENT.json"])
        let threshold = try arguments.value(
            CompareOptions.threshold, default: ResultsComparison.defaultThresholdPercent, expecting: "a percentage from 0 to 1000"
        ) {
            CommonOptions.decimal($0).flatMap { $0.isFinite && $0 >= 0 && $0 <= 1000 ? $0 : nil }
        }
        let alpha = try arguments.value(CompareOptions.alpha, default: 0.05, expecting: "a number between 0 and 0.5") {
            CommonOptions.decimal($0).flatMap { $0 > 0 && $0 < 0.5 ? $0 : nil }
        }
        let correction = try arguments.value(CompareOptions.correction, default: MultipleComparisons.holm, expecting: "holm or bh") {
            MultipleComparisons(rawValue: $0)
        }
        let top = try arguments.value(CompareOptions.top, default: 10, expecting: "an integer from 1 to 1000") {
            (CommonOptions.integer($0) as Int?).flatMap { (1...1000).contains($0) ? $0 : nil }
        }
        // The table's destination is checked before anything is read, so a refusal is the only line.
        if let path = arguments.value(CompareOptions.out) {
            guard !path.isEmpty else { throw CommandLineError(.badValue, "invalid value '' for '--out': expected a file") }
            if let problem = OutputTarget.fileProblem(at: path) {
                throw CommandLineError(.badValue, "invalid value '\(path)' for '--out': \(problem)")
            }
        }
        let rule = ResultsComparison.Rule(thresholdPercent: threshold, alpha: alpha, correction: correction)
        let baseline = try loadResults(paths[0])
        let current = try loadResults(paths[1])
        if let problem = ResultsComparison.pairProblem(baseline: baseline, current: current, rule: rule) {
            throw CommandLineError(.malformedInput, "cannot compare '\(paths[0])' with '\(paths[1])': \(problem)")
        }
        let comparison = ResultsComparison(baseline: baseline, current: current, rule: rule)
        if let problem = comparison.gateProblem {
            throw CommandLineError(.malformedInput, "cannot compare '\(paths[0])' with '\(paths[1])': \(problem)")
        }
        for caveat in comparison.caveats { console.error("dedupe-bench: warning: \(OneLine.escaped(caveat))\n") }
        if let path = arguments.value(CompareOptions.out) {
            do {
                try AtomicFile.write(Data(comparison.table().utf8), to: URL(fileURLWithPath: path))
            } catch {
                throw CommandLineError(.unreadableFile, "cannot write '\(path)': \(error.localizedDescription)")
            }
        }
        console.output(comparison.summaryText(top: top))
        if let path = arguments.value(CompareOptions.out) {
            console.output("Full table (\(comparison.units.count) unit(s), \(comparison.rows.count) case(s)): \(path)\n")
        } else {
            console.output("Per-case table: rerun with --out FILE.\n")
        }
        return comparison.hasRegression ? 1 : 0
    }

    static func loadResults(_ path: String) throws(CommandLineError) -> RunResults {
        if let problem = FileErrors.unreadable(path) {
            throw CommandLineError(.unreadableFile, "cannot read '\(path)': \(problem)")
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CommandLineError(.unreadableFile, "cannot read '\(path)': \(FileErrors.reason(error, path: path))")
        }
        let results: RunResults
        do {
            results = try ResultsJSON.decode(data)
        } catch {
            throw CommandLineError(.malformedInput, "\(path): \(error.description)")
        }
        if let problem = ResultsComparison.inputProblem(in: results) {
            throw CommandLineError(.malformedInput, "\(path): \(problem)")
        }
        return results
    }
}
