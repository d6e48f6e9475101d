import DedupeMeasurement
import DedupeWorkloads
import DedupeHarness
import Foundation

/// `compare`: whether the current run is less correct than the baseline, case by case
/// (``CorrectnessRegression``), or slower, strategy by strategy, with a decision rule that stays
/// quiet on unchanged code (see `Guides/CLI.md`, *compare*).
///
/// The gate's unit is a strategy in a mode (`consumed-alone fifo-set`, `two-layer
/// hash-deque+bloom`) over every workload both runs timed it on. Its statistic, per timing fork,
/// is the geometric mean over those workloads and the fork's repetitions of the ratio to the
/// reference timed in the same repetition; the forks are the independent samples, so the
/// variance between processes is part of every test. A unit regresses when
/// - a one-sided Welch t test on the forks' log statistics, adjusted over all units (Holm by
///   default), gives p̃ < α, and
/// - the Hodges–Lehmann interval (confidence 1 − α) of the change lies wholly above the
///   threshold.
/// The same figures per case, unadjusted and not gated, are kept for diagnosis (``rows``).
package struct ResultsComparison: Sendable {
    /// What the gate is set to.
    package struct Rule: Sendable, Equatable {
        /// Smallest slowdown that counts, in percent.
        package var thresholdPercent: Double
        /// Significance level after the correction; the interval's confidence is 1 − α.
        package var alpha: Double
        package var correction: MultipleComparisons

        package init(thresholdPercent: Double = ResultsComparison.defaultThresholdPercent, alpha: Double = 0.05, correction: MultipleComparisons = .holm) {
            self.thresholdPercent = thresholdPercent
            self.alpha = alpha
            self.correction = correction
        }

        /// The threshold on the log scale the statistics live on.
        var logThreshold: Double { log1p(thresholdPercent / 100) }

        /// The interval's confidence, 1 − α, in percent and exact in decimal: `95`, `99.9`,
        /// `99.99999`. Computed from α as typed, since the `Double` 1 − α rounded for print reads
        /// `100` for a small α.
        package var confidencePercent: String {
            let alphaText = ResultsComparison.setting(alpha)
            return "\(100 - 100 * (Decimal(string: alphaText) ?? Decimal(alpha)))"
        }
    }

    /// The threshold `compare` uses unless told otherwise; chosen by `Utils/calibrate-compare`.
    package static let defaultThresholdPercent = 4.0

    /// One strategy in one mode, across workloads: the gate's unit. A pipeline case belongs to two
    /// units, its window's and its consumed set's (`two-layer hash-deque+*`, `two-layer *+fifo-set`),
    /// so a slower consumed set shows in its own units at full strength and in its window
    /// partner's diluted among every set that window ran with.
    package struct UnitKey: Hashable, Sendable, CustomStringConvertible {
        package var mode: CaseMode
        package var layer: StrategyLayer
        /// The layer's strategy with the parameters it reads (`recent-ids-10(capacity=10)`).
        package var strategy: String
        /// The strategy's catalogue entry id (`recent-ids-10`).
        package var strategyID: String

        /// `consumed-alone/fifo-set(capacity=448)`, `two-layer/hash-deque(…)+*`, `two-layer/*+fifo-set(…)`:
        /// the case ids the unit spans, with `*` for the other layer.
        package var description: String {
            guard mode.usesWindow && mode.usesConsumedSet else { return "\(mode.rawValue)/\(strategy)" }
            return layer == .window ? "\(mode.rawValue)/\(strategy)+*" : "\(mode.rawValue)/*+\(strategy)"
        }

        /// The units `result` belongs to: one per layer it uses. Only base cases are timed, so
        /// identity and persistence never split a unit.
        static func units(of result: CaseResult) -> [UnitKey] {
            let choice = result.choice
            return [(StrategyLayer.window, choice.window), (.consumed, choice.consumed)].compactMap { layer, key in
                key.map { UnitKey(mode: result.mode, layer: layer, strategy: $0.text, strategyID: $0.id) }
            }
        }
    }

    /// The change between the two runs' per-fork log statistics.
    package struct Change: Sendable, Equatable {
        package var baselineForks: Int
        package var currentForks: Int
        /// Hodges–Lehmann shift of the log statistic and its interval; `exp − 1` is the change.
        package var estimate: HodgesLehmann.Estimate
        /// One-sided Welch p for "slower" and for "faster".
        package var pSlower: Double
        package var pFaster: Double
        /// The smallest slowdown (log scale) this unit could be flagged at with 80% power.
        package var minimumDetectable: Double

        /// Change in percent at the estimate, the interval's bounds, and the detectable minimum.
        package var percent: Double { expm1(estimate.shift) * 100 }
        package var lowerPercent: Double { expm1(estimate.lower) * 100 }
        package var upperPercent: Double { expm1(estimate.upper) * 100 }
        package var minimumDetectablePercent: Double { expm1(minimumDetectable) * 100 }
    }

    package enum Verdict: String, Sendable {
        /// Significantly slower after the correction, and the whole interval above the threshold.
        case regression
        /// The same, faster.
        case improvement
        /// Anything else.
        case unchanged
    }

    /// One gate unit.
    package struct Unit: Sendable {
        package var key: UnitKey
        /// Workloads both runs timed it on.
        package var workloads: Int
        package var change: Change
        /// p of the unit's direction (slower, or faster for an improvement), adjusted over all units.
        package var adjustedP: Double
        package var verdict: Verdict
        /// Why it was, or was not, flagged, in one sentence.
        package var reason: String
    }

    /// One case, for diagnosis (not gated).
    package struct Row: Sendable {
        package var key: CaseID
        package var baselineMedian: Double
        package var currentMedian: Double
        /// Change of the median ns/event, in percent.
        package var changePercent: Double
        /// The change of its ratio to the reference; `nil` for a reference row or a sample too
        /// small for an interval.
        package var change: Change?
    }

    package var rule: Rule
    package var units: [Unit]
    package var rows: [Row]
    /// Cases only in one of the files.
    package var onlyInBaseline: [CaseID]
    package var onlyInCurrent: [CaseID]
    /// Cases in both files that are reference rows, the timing reference of their mode
    /// (``CaseResult/isTimingReference(_:)``): their ratio is 1 by construction, so they are in
    /// no unit.
    package var referenceCases: Int
    /// Cases in both files without ratios to the reference on a side (a run without a timing
    /// reference): nothing to gate them on, so they are in no unit.
    package var unratedCases: Int
    /// Differences between the runs that do not prevent the comparison but weaken it, one
    /// sentence each.
    package var caveats: [String]

    /// Cases whose false drops, newly dropped or newly missed events rose: each fails the gate.
    package var correctness: [CorrectnessRegression]

    package var hasRegression: Bool { !correctness.isEmpty || units.contains { $0.verdict == .regression } }

    /// Why this comparison cannot serve as a gate, or `nil`: it gated no unit at all (every case
    /// in both files a reference row or without ratios). A gate that tested nothing would pass.
    package var gateProblem: String? {
        guard units.isEmpty, correctness.isEmpty else { return nil }
        return "no unit to gate: of the \(rows.count) timed case(s) in both files, \(referenceCases) are reference rows "
            + "(ratio 1 by construction) and \(unratedCases) have no ratios to the reference; a gate that tests nothing cannot pass"
    }

    /// Compares two runs that passed ``inputProblem(in:)`` and ``pairProblem(baseline:current:rule:)``.
    ///
    /// - Complexity: O(cases × samples + units × forks² log forks).
    package init(baseline: RunResults, current: RunResults, rule: Rule = Rule()) {
        self.rule = rule
        caveats = Self.caveats(baseline, current)
        correctness = CorrectnessRegression.find(baseline: baseline, current: current)
        let confidence = 1 - rule.alpha
        let baselineTimed = baseline.cases.filter { $0.timing != nil }
        let currentTimed = current.cases.filter { $0.timing != nil }
        var currentByKey: [CaseID: CaseResult] = [:]
        for result in currentTimed { currentByKey[result.id] = result }
        let baselineKeys = Set(baselineTimed.map(\.id))
        let pairs = baselineTimed.compactMap { before in currentByKey[before.id].map { (before, $0) } }
        // Both files have the same timing reference (``pairProblem(baseline:current:rule:)``).
        let reference = baseline.settings.reference

        rows = pairs.map { before, after in
            let old = before.timing!.medianNanosecondsPerEvent
            let new = after.timing!.medianNanosecondsPerEvent
            let values = (Self.forkStatistics([before]), Self.forkStatistics([after]))
            return Row(
                key: before.id, baselineMedian: old, currentMedian: new, changePercent: (new - old) / old * 100,
                change: values.0.flatMap { a in values.1.flatMap { b in Self.change(a, b, confidence: confidence, alpha: rule.alpha, logThreshold: rule.logThreshold) } })
        }

        // Units in the baseline's order of first appearance, so the output is stable. The
        // reference rows are left out of every unit, known by what they are: a strategy whose
        // samples equal the reference's has ratios of exactly 1 too, and is gated like any other.
        var unitOrder: [UnitKey] = []
        var unitPairs: [UnitKey: [(CaseResult, CaseResult)]] = [:]
        referenceCases = 0
        unratedCases = 0
        for (before, after) in pairs {
            guard !before.timing!.ratiosToReference.isEmpty && !after.timing!.ratiosToReference.isEmpty else {
                unratedCases += 1
                continue
            }
            guard !before.isTimingReference(reference) else {
                referenceCases += 1
                continue
            }
            for key in UnitKey.units(of: before) {
                if unitPairs[key] == nil { unitOrder.append(key) }
                unitPairs[key, default: []].append((before, after))
            }
        }
        var measured: [(key: UnitKey, workloads: Int, a: [Double], b: [Double])] = []
        for key in unitOrder {
            let members = unitPairs[key, default: []]
            guard let a = Self.forkStatistics(members.map(\.0)), let b = Self.forkStatistics(members.map(\.1)) else { continue }
            measured.append((key, Set(members.map(\.0.workload)).count, a, b))
        }
        // Every unit is tested; the correction is over all of them.
        let alpha = rule.alpha
        let changes = measured.map { Self.change(
            $0.a, $0.b, confidence: confidence, alpha: alpha / Double(max(1, measured.count)), logThreshold: rule.logThreshold)
        }
        let slower = rule.correction.adjusted(changes.map { $0?.pSlower ?? 1 })
        let faster = rule.correction.adjusted(changes.map { $0?.pFaster ?? 1 })
        units = measured.indices.compactMap { index in
            guard let change = changes[index] else { return nil }
            return Self.decide(
                key: measured[index].key, workloads: measured[index].workloads, change: change,
                slower: slower[index], faster: faster[index], rule: rule)
        }

        onlyInBaseline = baselineTimed.map(\.id).filter { currentByKey[$0] == nil }
        onlyInCurrent = currentTimed.map(\.id).filter { !baselineKeys.contains($0) }
        if let caveat = Self.parameterCaveat(
            baseline: baselineTimed.filter { currentByKey[$0.id] == nil },
            current: currentTimed.filter { !baselineKeys.contains($0.id) })
        {
            caveats.append(caveat)
        }
    }

    /// Per fork: the mean over `cases` of each case's median log ratio to the reference over the
    /// fork's repetitions, the log of a geometric mean over workloads. The median keeps one
    /// preempted repetition (of the case or of its reference) from moving the fork's value.
    /// `nil` when a case has no ratios or not the first case's forks.
    static func forkStatistics(_ cases: [CaseResult]) -> [Double]? {
        guard let forks = cases.first?.timing?.forks, forks > 0 else { return nil }
        var sums = [Double](repeating: 0, count: forks)
        for result in cases {
            guard let timing = result.timing, timing.forks == forks, !timing.ratiosToReference.isEmpty,
                  timing.ratiosToReference.count % forks == 0 else { return nil }
            let perFork = timing.ratiosToReference.count / forks
            for fork in 0..<forks {
                let logs = timing.ratiosToReference[(fork * perFork)..<((fork + 1) * perFork)].map { log($0) }
                sums[fork] += SampleStatistics.median(logs)!
            }
        }
        return sums.map { $0 / Double(cases.count) }
    }

    /// The change from fork statistics `a` to `b`; `nil` when the samples are too small for an
    /// interval or a test. The detectable minimum is the larger of what a one-sided test at
    /// `alpha` detects with 80% power and the threshold plus the interval's lower half-width
    /// (what a change needs for its interval to clear `logThreshold`).
    static func change(_ a: [Double], _ b: [Double], confidence: Double, alpha: Double, logThreshold: Double) -> Change? {
        guard let estimate = HodgesLehmann.estimate(a, b, confidence: confidence),
              let welch = StudentT.welch(a, b) else { return nil }
        let power = StudentT.quantile(upper: 0.2, degreesOfFreedom: welch.degreesOfFreedom)
        let critical = StudentT.quantile(upper: alpha, degreesOfFreedom: welch.degreesOfFreedom)
        return Change(
            baselineForks: a.count, currentForks: b.count, estimate: estimate, pSlower: welch.pValue,
            pFaster: StudentT.welch(b, a)!.pValue,
            minimumDetectable: max((critical + power) * welch.standardError, logThreshold + estimate.shift - estimate.lower))
    }

    static func decide(key: UnitKey, workloads: Int, change: Change, slower: Double, faster: Double, rule: Rule) -> Unit {
        let interval = "the \(rule.confidencePercent)% interval [\(Self.signed(change.lowerPercent)), \(Self.signed(change.upperPercent))]"
        let threshold = Self.setting(rule.thresholdPercent)
        let alpha = Self.setting(rule.alpha)
        let correction = rule.correction.name
        func unit(_ verdict: Verdict, _ adjusted: Double, _ reason: String) -> Unit {
            Unit(key: key, workloads: workloads, change: change, adjustedP: adjusted, verdict: verdict, reason: reason)
        }
        if change.estimate.shift >= 0 {
            let significant = slower < rule.alpha
            let above = change.estimate.lower > rule.logThreshold
            let p = "\(correction)-adjusted p = \(Self.pText(slower))"
            if significant && above {
                return unit(.regression, slower, "\(p) < \(alpha) and \(interval) lies above +\(threshold)%")
            }
            return unit(.unchanged, slower, significant
                ? "\(interval) reaches below +\(threshold)% (\(p) < \(alpha))"
                : "\(p) ≥ \(alpha)" + (above ? "" : "; \(interval) reaches below +\(threshold)%"))
        }
        let significant = faster < rule.alpha
        let below = change.estimate.upper < -rule.logThreshold
        let p = "\(correction)-adjusted p = \(Self.pText(faster))"
        if significant && below {
            return unit(.improvement, faster, "\(p) < \(alpha) and \(interval) lies below −\(threshold)%")
        }
        return unit(.unchanged, faster, significant ? "\(interval) reaches above −\(threshold)%" : "\(p) ≥ \(alpha) (faster)")
    }

    package static func signed(_ percent: Double) -> String {
        (percent >= 0 ? "+" : "−") + NumberText.fixed(abs(percent), 1) + "%"
    }

    /// A setting as typed: the shortest plain decimal that reads back as `value` (`5`, `0.05`,
    /// `97.5`, `0.0000001`), or in `%g` form beyond 40 decimal places.
    package static func setting(_ value: Double) -> String {
        for places in 0...40 {
            let text = String(format: "%.\(places)f", value)
            if Double(text) == value { return text }
        }
        return String(format: "%g", value)
    }

    package static func pText(_ p: Double) -> String {
        p < 1e-4 ? String(format: "%.1e", p) : NumberText.significant(p)
    }

    /// A sentence for the cases that ran in both files but with other parameters (another
    /// window length, capacity or target rate), which match no case and so are not compared.
    static func parameterCaveat(baseline: [CaseResult], current: [CaseResult]) -> String? {
        func strategies(_ result: CaseResult) -> String {
            [result.workload, result.mode.rawValue, result.window ?? "", result.consumed ?? ""].joined(separator: "/")
        }
        var currentByStrategies: [String: CaseResult] = [:]
        for result in current { currentByStrategies[strategies(result)] = currentByStrategies[strategies(result)] ?? result }
        let differing = baseline.compactMap { before in currentByStrategies[strategies(before)].map { (before, $0) } }
        guard let (before, after) = differing.first else { return nil }
        return "\(differing.count) case(s) ran with other parameters and are not compared, for example "
            + "\(MessageText.clipped(before.id.text)) in the baseline, \(MessageText.clipped(after.id.text)) now"
    }

    /// Differences that weaken the comparison without making it meaningless.
    static func caveats(_ baseline: RunResults, _ current: RunResults) -> [String] {
        var caveats: [String] = []
        if baseline.environment.cpuModel != current.environment.cpuModel {
            caveats.append(
                "CPU differs: \(MessageText.clipped(baseline.environment.cpuModel)) in the baseline, "
                    + "\(MessageText.clipped(current.environment.cpuModel)) now")
        }
        for (name, results) in [("baseline", baseline), ("current run", current)] where results.settings.forksInChildProcesses == false {
            caveats.append("the \(name)'s timing forks all ran in one process, so the variance between processes is not sampled")
        }
        return caveats
    }
}
