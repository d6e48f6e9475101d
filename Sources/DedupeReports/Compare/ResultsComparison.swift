import DedupeHarness

/// `compare`: the change in median ns/event for every case present in both result files, and
/// whether it is a significant regression.
public struct ResultsComparison: Sendable {
    public struct Row: Sendable {
        public var key: CaseKey
        public var baselineMedian: Double
        public var currentMedian: Double
        /// (current − baseline) / baseline, in percent; positive is slower.
        public var changePercent: Double
        /// One-sided Mann–Whitney U test that the current samples are larger.
        public var test: MannWhitneyU.Result?
        public var verdict: Verdict
    }

    public enum Verdict: String, Sendable {
        /// Slower by more than the threshold, and significantly so.
        case regression
        /// Faster by more than the threshold.
        case improvement
        /// Within the threshold, or not significant.
        case unchanged
    }

    public var rows: [Row]
    /// Cases only in one of the files.
    public var onlyInBaseline: [CaseKey]
    public var onlyInCurrent: [CaseKey]
    public var thresholdPercent: Double
    public var alpha: Double

    /// Differences between the two runs that make their timings hard to compare (quick against
    /// full, another seed, build or machine, cases run with other parameters), one sentence
    /// each.
    public var caveats: [String]

    public var hasRegression: Bool { rows.contains { $0.verdict == .regression } }

    /// Compares two runs. A case regresses when its median is more than `thresholdPercent`
    /// slower and the one-sided test over the repetition samples has p < `alpha`.
    ///
    /// - Complexity: O(cases × repetitions³) at worst (exact test).
    public init(baseline: RunResults, current: RunResults, thresholdPercent: Double = 5, alpha: Double = 0.05) {
        self.thresholdPercent = thresholdPercent
        self.alpha = alpha
        caveats = Self.caveats(baseline, current)
        let baselineTimed = baseline.cases.filter { $0.timing != nil }
        let currentTimed = current.cases.filter { $0.timing != nil }
        var currentByKey: [CaseKey: TimingResult] = [:]
        for result in currentTimed { currentByKey[result.key] = result.timing }
        let baselineKeys = Set(baselineTimed.map(\.key))
        rows = baselineTimed.compactMap { result in
            guard let before = result.timing, let after = currentByKey[result.key],
                  before.medianNanosecondsPerEvent > 0 else { return nil }
            let change = (after.medianNanosecondsPerEvent - before.medianNanosecondsPerEvent)
                / before.medianNanosecondsPerEvent * 100
            let test = MannWhitneyU.test(before.samplesNanosecondsPerEvent, after.samplesNanosecondsPerEvent)
            let verdict: Verdict
            if change > thresholdPercent, let test, test.pValue < alpha {
                verdict = .regression
            } else if change < -thresholdPercent {
                verdict = .improvement
            } else {
                verdict = .unchanged
            }
            return Row(
                key: result.key, baselineMedian: before.medianNanosecondsPerEvent,
                currentMedian: after.medianNanosecondsPerEvent, changePercent: change, test: test, verdict: verdict)
        }
        onlyInBaseline = baselineTimed.map(\.key).filter { currentByKey[$0] == nil }
        onlyInCurrent = currentTimed.map(\.key).filter { !baselineKeys.contains($0) }
        if let caveat = Self.parameterCaveat(
            baseline: baselineTimed.filter { currentByKey[$0.key] == nil },
            current: currentTimed.filter { !baselineKeys.contains($0.key) })
        {
            caveats.append(caveat)
        }
    }

    /// A sentence for the cases that ran in both files but with other parameters (another
    /// window length, capacity or target rate), which match no case and so are not compared.
    static func parameterCaveat(baseline: [CaseResult], current: [CaseResult]) -> String? {
        var currentByName: [String: CaseResult] = [:]
        for result in current { currentByName[result.key.description] = currentByName[result.key.description] ?? result }
        let differing = baseline.compactMap { before in currentByName[before.key.description].map { (before, $0) } }
        guard let (before, after) = differing.first else { return nil }
        return "\(differing.count) case(s) ran with other parameters and are not compared, for example "
            + "\(before.key): \(before.parameterSummary) in the baseline, \(after.parameterSummary) now"
    }

    static func caveats(_ baseline: RunResults, _ current: RunResults) -> [String] {
        var caveats: [String] = []
        func differ<T: Equatable>(_ name: String, _ path: (RunResults) -> T) {
            let before = path(baseline)
            let after = path(current)
            if before != after { caveats.append("\(name) differs: \(before) in the baseline, \(after) now") }
        }
        differ("quick mode") { $0.settings.quick }
        differ("seed") { $0.environment.seed }
        differ("window length (ms)") { $0.settings.windowMilliseconds }
        differ("build configuration") { $0.environment.buildConfiguration }
        differ("CPU") { $0.environment.cpuModel }
        differ("trace") { $0.settings.traceFile ?? "none" }
        return caveats
    }

    /// A plain-text table for the terminal.
    public func plainText() -> String {
        var lines = ["case\tbaseline_ns\tcurrent_ns\tchange\tp\tverdict"]
        for row in rows {
            let p = row.test.map { NumberText.fixed($0.pValue, 4) + ($0.exact ? "" : "~") } ?? "n/a"
            let sign = row.changePercent >= 0 ? "+" : ""
            lines.append(
                "\(row.key)\t\(NumberText.significant(row.baselineMedian))\t\(NumberText.significant(row.currentMedian))\t"
                    + "\(sign)\(NumberText.fixed(row.changePercent, 1))%\t\(p)\t\(row.verdict.rawValue)")
        }
        for key in onlyInBaseline { lines.append("\(key)\tonly in baseline") }
        for key in onlyInCurrent { lines.append("\(key)\tonly in current") }
        let regressions = rows.filter { $0.verdict == .regression }.count
        let improvements = rows.filter { $0.verdict == .improvement }.count
        lines.append("")
        lines.append(
            "\(rows.count) case(s) compared: \(regressions) regression(s), \(improvements) improvement(s) "
                + "(threshold \(NumberText.significant(thresholdPercent))%, alpha \(NumberText.significant(alpha)); "
                + "p: one-sided Mann–Whitney U, ~ = normal approximation)")
        return lines.joined(separator: "\n") + "\n"
    }
}
