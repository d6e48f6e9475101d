import DedupeHarness

/// What the report tells an engineer to adopt, and why.
public struct Recommendation: Sendable, Equatable {
    /// The pipeline to adopt, or `nil` when the results hold no pipeline case.
    public var winner: Candidate?
    /// The best candidate with a different pair of strategies.
    public var runnerUp: Candidate?
    /// Best layer-1 window and layer-2 consumed set, judged by the same rule on their own.
    public var windowWinner: Candidate?
    public var consumedWinner: Candidate?
    /// The mode the pipeline candidates were taken from.
    public var mode: String?
    /// The rule's parameters.
    public var rule: RecommendationRule
    /// Conditions under which another candidate would win, one sentence each.
    public var wouldChange: [String]
}

/// The decision rule: zero false drops first, then the missed-duplicate budget, then memory,
/// then speed.
///
/// Errors are counted beyond the published code's on the same workload
/// (``Candidate/extraFalseDrops``): at a given window length every exact window drops the same
/// in-window re-taps, which is the layer's design, not the structure's fault, while a structure
/// that forgets early would otherwise look safer for dropping fewer of them. A lost navigation is
/// worse than a duplicate screen, so a candidate with extra false drops is only considered when
/// every candidate has some (then the fewest win). Among the rest, those whose extra
/// missed-duplicate rate is within `missedDuplicateBudget` go on (or, if none is, those with the
/// fewest extra misses). Memory within `memoryTolerance` of the smallest counts as a tie, and the
/// fastest of the tied wins.
public struct RecommendationRule: Sendable, Equatable {
    /// The highest acceptable missed-duplicate rate, e.g. 0.001 for 0.1 %.
    public var missedDuplicateBudget: Double
    /// Memory within this factor of the smallest is a tie (1.10: within 10 %).
    public var memoryTolerance: Double

    public init(missedDuplicateBudget: Double = 0.001, memoryTolerance: Double = 1.10) {
        self.missedDuplicateBudget = missedDuplicateBudget
        self.memoryTolerance = memoryTolerance
    }

    /// The candidates that survive the false-drop and missed-duplicate steps.
    func correctnessSurvivors(_ candidates: [Candidate]) -> [Candidate] {
        guard let fewestDrops = candidates.map(\.extraFalseDrops).min() else { return [] }
        let safe = candidates.filter { $0.extraFalseDrops == fewestDrops }
        let withinBudget = safe.filter { $0.extraMissedDuplicateRate <= missedDuplicateBudget }
        if !withinBudget.isEmpty { return withinBudget }
        let fewestMisses = safe.map(\.extraMissedDuplicates).min()!
        return safe.filter { $0.extraMissedDuplicates == fewestMisses }
    }

    /// Orders candidates best first by the whole rule.
    ///
    /// - Complexity: O(n log n) in the number of candidates.
    public func rank(_ candidates: [Candidate]) -> [Candidate] {
        var remaining = candidates
        var ranked: [Candidate] = []
        while !remaining.isEmpty {
            let best = pick(remaining)!
            ranked.append(best)
            remaining.removeAll { $0 == best }
        }
        return ranked
    }

    /// The single best candidate.
    public func pick(_ candidates: [Candidate]) -> Candidate? {
        let survivors = correctnessSurvivors(candidates)
        return Self.fastest(Self.leanest(survivors, tolerance: memoryTolerance))
    }

    /// Candidates within `tolerance` of the smallest memory; unmeasured memory never wins a tie
    /// against a measured one.
    static func leanest(_ candidates: [Candidate], tolerance: Double) -> [Candidate] {
        let measured = candidates.compactMap(\.memoryBytes)
        guard let smallest = measured.min() else { return candidates }
        return candidates.filter { ($0.memoryBytes ?? .infinity) <= max(smallest * tolerance, smallest + 64) }
    }

    /// The fastest; ties and unmeasured speed fall back to fewer misses, then input order.
    static func fastest(_ candidates: [Candidate]) -> Candidate? {
        candidates.enumerated().min { a, b in
            let left = (a.element.nanosecondsPerEvent ?? .infinity, a.element.missedDuplicates, a.offset)
            let right = (b.element.nanosecondsPerEvent ?? .infinity, b.element.missedDuplicates, b.offset)
            return left < right
        }?.element
    }
}

extension Recommendation {
    /// Applies `rule` to `results`: a pure function of the results.
    ///
    /// Pipeline candidates come from the `two-layer` cases (the published design), or from
    /// `two-layer-guarded` when there are none; only candidates that ran on every workload any
    /// candidate ran on compete, so sums are over the same workloads. Layer winners come from the `window-alone` and
    /// `consumed-alone` cases, or from the pipelines grouped by one layer when a layer was not
    /// measured alone.
    ///
    /// - Complexity: O(cases + candidates²).
    public static func make(from results: RunResults, rule: RecommendationRule = RecommendationRule()) -> Recommendation {
        let pipelineModes = [ReferenceStrategies.mode, "two-layer-guarded"]
        let mode = pipelineModes.first { mode in
            results.cases.contains { $0.mode == mode && $0.window != nil && $0.consumed != nil }
        }
        let pipelineCases = ComparableCases.widest(
            results.cases.filter { $0.mode == mode && $0.window != nil && $0.consumed != nil })
        let candidates = Candidate.aggregate(pipelineCases)
        let winner = rule.pick(candidates)
        let runnerUp = winner.flatMap { winner in
            rule.pick(candidates.filter { $0.window != winner.window || $0.consumed != winner.consumed })
        }

        let windowAlone = ComparableCases.widest(
            results.cases.filter { $0.mode == ReferenceStrategies.windowAloneMode && $0.window != nil }, consumed: false)
        let consumedAlone = ComparableCases.widest(
            results.cases.filter { $0.mode == ReferenceStrategies.consumedAloneMode && $0.consumed != nil }, window: false)
        let windowCandidates = windowAlone.isEmpty
            ? Candidate.aggregate(pipelineCases, consumed: false) : Candidate.aggregate(windowAlone, consumed: false)
        let consumedCandidates = consumedAlone.isEmpty
            ? Candidate.aggregate(pipelineCases, window: false) : Candidate.aggregate(consumedAlone, window: false)

        return Recommendation(
            winner: winner, runnerUp: runnerUp,
            windowWinner: rule.pick(windowCandidates), consumedWinner: rule.pick(consumedCandidates),
            mode: mode, rule: rule,
            wouldChange: winner.map { whatWouldChange(winner: $0, candidates: candidates, rule: rule) } ?? [])
    }

    /// Sentences naming the candidate that would win if one step of the rule were different.
    static func whatWouldChange(winner: Candidate, candidates: [Candidate], rule: RecommendationRule) -> [String] {
        var sentences: [String] = []
        let survivors = rule.correctnessSurvivors(candidates)
        if let fastest = RecommendationRule.fastest(survivors), fastest != winner {
            sentences.append(
                "If speed outranked memory, \(fastest.label) (\(describe(fastest))) would win over "
                    + "\(winner.label) (\(describe(winner))).")
        }
        if winner.extraMissedDuplicates > 0 {
            let zeroMiss = candidates.filter { $0.extraFalseDrops == winner.extraFalseDrops && $0.extraMissedDuplicates == 0 }
            if let strict = RecommendationRule.fastest(RecommendationRule.leanest(zeroMiss, tolerance: rule.memoryTolerance)) {
                sentences.append("With a zero missed-duplicate budget, \(strict.label) (\(describe(strict))) would win.")
            } else {
                sentences.append("No candidate without extra false drops misses no more duplicates than the published code.")
            }
        }
        let safe = candidates.filter { $0.extraFalseDrops == winner.extraFalseDrops }
        let overBudget = safe.filter { $0.extraMissedDuplicateRate > rule.missedDuplicateBudget }
        let relaxed = RecommendationRule.fastest(RecommendationRule.leanest(safe, tolerance: rule.memoryTolerance))
        if let relaxed, relaxed != winner, overBudget.contains(relaxed) {
            sentences.append(
                "If \(NumberText.percent(relaxed.extraMissedDuplicateRate)) more missed duplicates than the published code were acceptable, "
                    + "\(relaxed.label) (\(describe(relaxed))) would win.")
        }
        let unsafe = candidates.filter { $0.extraFalseDrops > winner.extraFalseDrops }
        if let risky = RecommendationRule.fastest(RecommendationRule.leanest(unsafe, tolerance: rule.memoryTolerance)),
           (risky.memoryBytes ?? .infinity) < (winner.memoryBytes ?? .infinity)
            || (risky.nanosecondsPerEvent ?? .infinity) < (winner.nanosecondsPerEvent ?? .infinity) {
            sentences.append(
                "\(risky.label) is leaner or faster (\(describe(risky))) but drops \(risky.extraFalseDrops) wanted "
                    + "navigation(s) the published code keeps; it would win only if lost navigations were acceptable.")
        }
        return sentences
    }

    /// `12.3 ns/event, 4.0 KiB, 2 missed`.
    static func describe(_ candidate: Candidate) -> String {
        var parts: [String] = []
        if let ns = candidate.nanosecondsPerEvent { parts.append("\(NumberText.significant(ns)) ns/event") }
        if let bytes = candidate.memoryBytes { parts.append(NumberText.bytes(bytes)) }
        parts.append("\(candidate.missedDuplicates) missed")
        return parts.joined(separator: ", ")
    }
}
