import DedupeHarness
import DedupeReports
import Foundation

extension Subcommands {
    static let compare = Subcommand(
        name: "compare", summary: "Compare two results.json files; exit 1 on a significant regression.",
        positionals: "BASELINE.json CURRENT.json",
        discussion: """
        For every case in both files: the change in median ns/event and a one-sided Mann–Whitney U test
        over the repetition samples (exact without ties for up to 20 samples each, otherwise the normal
        approximation with tie correction). A case regresses when it is slower by more than the
        threshold and p < alpha. Exit codes: 0 no regression, 1 regression, 2 usage or input error.
        """,
        options: [
            OptionSpec("threshold", value: "PCT", help: "Smallest slowdown that counts, in percent (default 5)."),
            OptionSpec("alpha", value: "A", help: "Significance level of the test, in (0, 1) (default 0.05)."),
        ]
    ) { arguments, console throws(CommandLineError) in
        let paths = try arguments.positionals(named: ["BASELINE.json", "CURRENT.json"])
        let threshold = try arguments.value("threshold", default: 5.0, expecting: "a percentage from 0 to 1000") {
            SharedOptions.decimal($0).flatMap { $0.isFinite && $0 >= 0 && $0 <= 1000 ? $0 : nil }
        }
        let alpha = try arguments.value("alpha", default: 0.05, expecting: "a number between 0 and 1") {
            SharedOptions.decimal($0).flatMap { $0 > 0 && $0 < 1 ? $0 : nil }
        }
        let baseline = try loadResults(paths[0])
        let current = try loadResults(paths[1])
        if let problem = ResultsComparison.pairProblem(baseline: baseline, current: current) {
            throw CommandLineError(.malformedInput, "cannot compare '\(paths[0])' with '\(paths[1])': \(problem)")
        }
        let comparison = ResultsComparison(baseline: baseline, current: current, thresholdPercent: threshold, alpha: alpha)
        for caveat in comparison.caveats { console.error("dedupe-bench: warning: \(OneLine.escaped(caveat))\n") }
        console.output(comparison.plainText())
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
