import DedupeHarness
import DedupeWorkloads

/// What the report tells an engineer to adopt, and why: a pure function of the results.
package struct Recommendation: Sendable, Equatable {
    /// The pipeline to adopt, or `nil` when no candidate passes the rule (see `noWinnerReason`).
    package var winner: Candidate?
    /// The next candidate that passes the rule.
    package var runnerUp: Candidate?
    /// Best layer-1 window and layer-2 consumed set on their own, by the same rule.
    package var windowWinner: Candidate?
    package var consumedWinner: Candidate?
    /// The mode the pipeline candidates were taken from.
    package var mode: CaseMode?
    package var rule: RecommendationRule
    /// The profile the horizon was checked against (`nil` in results without one).
    package var profile: DeviceProfile?
    /// The workloads the errors and speeds were taken from.
    package var deviceWorkloads: [String]
    /// Every pipeline candidate with the rule's verdict, best first.
    package var assessments: [RecommendationRule.Assessment]
    /// Why there is no winner, when there is none.
    package var noWinnerReason: String?
    /// Conditions under which another candidate would win, one sentence each.
    package var wouldChange: [String]
    /// The recommended window length, from the window-length sweep on the device workloads.
    package var windowLength: WindowLengthChoice?
    /// Every pipeline choice at every identity and persistence it ran with, before
    /// ``bestTwins(_:rule:)`` kept one per strategy pair.
    package var everyChoice: [Candidate]
    /// The store design a persisting pick ships with, chosen by measurement (``StorePick``);
    /// `nil` when the run measured no store or none passed.
    package var store: StorePick? = nil
    /// How the speed step compared candidates: cost per push, store included, and the margin.
    package var speed = SpeedModel()
    /// Every `two-layer` choice's twin behind the shipped router (`two-layer-guarded`, same
    /// strategies, identity and persistence), over the device workloads: the whole fix as an
    /// app that adopts the README runs it. Empty when the run had no router cases.
    package var routed: [StrategyChoice: Candidate] = [:]

    /// `candidate` behind the shipped router, if that twin ran.
    package func withRouter(_ candidate: Candidate) -> Candidate? {
        guard candidate.choice.mode == .twoLayer else { return nil }
        return routed[candidate.choice]
    }

    /// The published code's pipeline at `identity` and `persistence`, if it ran.
    package func published(identity: EnvelopeIdentity = .minted, persistence: Persistence = .memory) -> Candidate? {
        everyChoice.first {
            $0.window == ReferenceStrategies.window && $0.consumed == ReferenceStrategies.consumed
                && $0.choice.identity == identity && $0.choice.persistence == persistence
        }
    }
}

extension RunResults {
    /// The ids of the workloads tagged `device`; every workload when the results carry no tags.
    package var deviceWorkloadIDs: [String] {
        var order: [String] = []
        for result in cases where !order.contains(result.workload) { order.append(result.workload) }
        guard let workloads else { return order }
        let device = Set(workloads.filter { $0.tag == "device" }.map(\.id))
        return order.filter(device.contains)
    }
}

extension Recommendation {
    /// Applies the rule recorded in `results` (or `rule`) to `results`.
    ///
    /// Pipeline candidates come from the `two-layer` cases (the published design), or from
    /// `two-layer-guarded` when there are none; only candidates that ran on every workload any
    /// candidate ran on compete. Errors and speed are taken on the device workloads only (all of
    /// them when none is tagged); memory on the largest workload each candidate ran on, device
    /// or not, since a structure that grows with a long session is not bounded by a short one.
    ///
    /// - Complexity: O(cases + candidates²).
    package static func make(from results: RunResults, rule: RecommendationRule? = nil) -> Recommendation {
        let rule = rule ?? results.settings.recommendation.map(RecommendationRule.init) ?? RecommendationRule()
        let device = Set(results.deviceWorkloadIDs)
        let pipelineModes = [ReferenceStrategies.mode, CaseMode.twoLayerGuarded]
        let mode = pipelineModes.first { mode in
            results.cases.contains { $0.mode == mode && $0.window != nil }
        }
        let pipelineCases = ComparableCases.widest(
            results.cases.filter { $0.mode == mode && $0.window != nil })
        let every = deviceCandidates(pipelineCases, device: device)
        let candidates = bestTwins(every, rule: rule)
        let store = StorePick.make(from: results.stores)
        let speed = SpeedModel.make(from: results, store: store)
        let assessments = rule.assess(candidates, profile: results.deviceProfile, speed: speed)
        let passing = assessments.filter { $0.excludedBy == nil }.map(\.candidate)
        let winner = passing.first
        let runnerUp = winner.flatMap { winner in passing.first { !$0.sameStrategies(as: winner) } }

        func layerWinner(_ mode: CaseMode, window: Bool) -> Candidate? {
            let alone = ComparableCases.widest(
                results.cases.filter { $0.mode == mode && (window ? $0.window != nil : $0.consumed != nil) })
            let layer = bestTwins(deviceCandidates(alone, device: device), rule: rule)
            return rule.assess(layer, profile: results.deviceProfile, speed: speed).first { $0.excludedBy == nil }?.candidate
        }

        var recommendation = Recommendation(
            winner: winner, runnerUp: runnerUp,
            windowWinner: layerWinner(ReferenceStrategies.windowAloneMode, window: true),
            consumedWinner: layerWinner(ReferenceStrategies.consumedAloneMode, window: false),
            mode: mode, rule: rule, profile: results.deviceProfile, deviceWorkloads: results.deviceWorkloadIDs,
            assessments: assessments, noWinnerReason: nil, wouldChange: [],
            windowLength: WindowLengthChoice.make(from: results, strategy: winner?.window, dropWeight: rule.dropWeight),
            everyChoice: every)
        recommendation.store = store
        recommendation.speed = speed
        if mode == .twoLayer {
            let guarded = ComparableCases.widest(
                results.cases.filter { $0.mode == .twoLayerGuarded && $0.window != nil })
            for candidate in deviceCandidates(guarded, device: device) {
                var choice = candidate.choice
                choice.mode = .twoLayer
                recommendation.routed[choice] = candidate
            }
        }
        if winner == nil, !candidates.isEmpty {
            recommendation.noWinnerReason = noWinnerReason(assessments, rule: rule)
        }
        recommendation.wouldChange = whatWouldChange(
            winner: winner, runnerUp: runnerUp, candidates: candidates, rule: rule, profile: results.deviceProfile, speed: speed)
        if let winner, let sentence = robustnessSentence(
            winner: winner, passing: passing, cases: pipelineCases, stress: Set(results.workloads?.filter { $0.tag == "stress" }.map(\.id) ?? []))
        {
            recommendation.wouldChange.append(sentence)
        }
        return recommendation
    }

    /// Candidates with errors and speed over the device workloads and memory over all of them.
    package static func deviceCandidates(_ cases: [CaseResult], device: Set<String>) -> [Candidate] {
        let onDevice = cases.filter { device.contains($0.workload) }
        let everywhere = Candidate.aggregate(cases)
        guard !onDevice.isEmpty else { return everywhere }
        var memory: [StrategyChoice: Candidate] = [:]
        for candidate in everywhere { memory[candidate.choice] = candidate }
        return Candidate.aggregate(onDevice).map { candidate in
            var copy = candidate
            if let all = memory[candidate.choice] {
                copy.memoryBytes = all.memoryBytes
                copy.memoryWorkload = all.memoryWorkload
            }
            return copy
        }
    }

    /// One candidate per strategy choice at its best identity and persistence: the fewest
    /// weighted errors on the device workloads (drop weight × false drops + missed duplicates), a tie going to the cheaper persistence
    /// (`memory`, then `on-background`, then `after-every-consume`), then to `minted` (it needs
    /// nothing from the server). The ranking compares pipelines as they would ship. A twin that
    /// ran on a prefix (``Candidate/ranOnPrefix``) has fewer events to err on, so it never wins.
    package static func bestTwins(_ candidates: [Candidate], rule: RecommendationRule) -> [Candidate] {
        var order: [StrategyChoice] = []
        var best: [StrategyChoice: Candidate] = [:]
        func rank(_ c: Candidate) -> (Double, Int, Int) {
            (rule.dropWeight * Double(c.falseDrops) + Double(c.missedDuplicates), persistenceCost(c.choice.persistence),
             c.choice.identity == .pushID ? 1 : 0)
        }
        for candidate in candidates {
            let base = candidate.choice.base
            guard let current = best[base] else {
                order.append(base)
                best[base] = candidate
                continue
            }
            if current.ranOnPrefix || (!candidate.ranOnPrefix && rank(candidate) < rank(current)) { best[base] = candidate }
        }
        return order.compactMap { best[$0] }
    }

    /// How much work a persistence costs the app: none, a save per background, a save per consume.
    private static func persistenceCost(_ persistence: Persistence?) -> Int {
        switch persistence {
        case .memory?, nil: 0
        case .onBackground?: 1
        case .afterEveryConsume?: 2
        }
    }

    static func noWinnerReason(_ assessments: [RecommendationRule.Assessment], rule: RecommendationRule) -> String {
        let steps = Set(assessments.compactMap(\.excludedBy))
        if steps == [.guarantee] {
            return "every candidate is may-drop; run with --allow-probabilistic to rank them anyway"
        }
        return "no candidate keeps its guarantee over the device profile's horizon; raise --safety-factor or select exact strategies"
    }

    /// Sentences naming the candidate that would win if one step of the rule were different.
    static func whatWouldChange(
        winner: Candidate?, runnerUp: Candidate?, candidates: [Candidate], rule: RecommendationRule, profile: DeviceProfile?,
        speed: SpeedModel
    ) -> [String] {
        var sentences: [String] = []
        func first(_ rule: RecommendationRule, profile: DeviceProfile?) -> Candidate? {
            rule.assess(candidates, profile: profile, speed: speed).first { $0.excludedBy == nil }?.candidate
        }
        if !rule.allowProbabilistic {
            var relaxed = rule
            relaxed.allowProbabilistic = true
            if let other = first(relaxed, profile: profile), other != winner {
                sentences.append(
                    "With --allow-probabilistic, `\(other.label)` (\(describe(other))) would win; it newly drops "
                        + "\(other.newlyDropped) wanted navigation(s) the published code keeps on the device workloads, and a "
                        + "lost tap cannot be reproduced afterwards.")
            }
        }
        if let profile, let other = first(rule, profile: nil), other != winner {
            let reason = rule.horizonFailure(other, profile: profile) ?? "its horizon"
            sentences.append(
                "Without the horizon step, `\(other.label)` (\(describe(other))) would win: \(reason); it newly misses "
                    + "\(other.newlyMissed) duplicate(s) on the device workloads.")
        }
        var unlimited = rule
        unlimited.memoryBudgetBytes = .infinity
        if let other = first(unlimited, profile: profile), other != winner, let bytes = other.memoryBytes {
            sentences.append(
                "With a memory budget of \(NumberText.bytes(bytes)) or more, `\(other.label)` (\(describe(other))) would win.")
        }
        if let winner, let runnerUp, let sentence = decisionSentence(winner: winner, runnerUp: runnerUp, rule: rule, profile: profile, speed: speed) {
            sentences.append(sentence)
        }
        return sentences
    }

    /// Which step put `winner` ahead of `runnerUp`, and how far its figure would have to move to
    /// swap them.
    static func decisionSentence(
        winner: Candidate, runnerUp: Candidate, rule: RecommendationRule, profile: DeviceProfile?, speed: SpeedModel
    ) -> String? {
        let margin = NumberText.percent(speed.margin)
        if speed.isFaster(winner, than: runnerUp), let interval = speed.ratioInterval(runnerUp, winner) {
            return "Speed decided: `\(runnerUp.label)` costs \(NumberText.percent(interval.lowerBound - 1)) to "
                + "\(NumberText.percent(interval.upperBound - 1)) more per push (95% interval over paired forks), beyond the "
                + "\(margin) margin; a move of the interval's lower end below \(margin) would make it a tie."
        }
        let interval = speed.ratioInterval(runnerUp, winner).map {
            " (its cost per push is \(NumberText.significant($0.lowerBound))× to \(NumberText.significant($0.upperBound))× the pick's)"
        } ?? ""
        var sentence = "`\(runnerUp.label)` ties on speed within the \(margin) margin\(interval); "
        switch rule.deciding(winner, runnerUp, profile: profile, speed: speed) {
        case .guarantee:
            sentence += "the stronger guarantee within the horizon decided (\(winner.guaranteeText) against \(runnerUp.guaranteeText))."
        case .errors:
            sentence += "fewer matched errors decided (\(NumberText.significant(rule.matchedCost(winner))) against "
                + "\(NumberText.significant(rule.matchedCost(runnerUp))))."
        case .memory:
            guard let a = winner.memoryBytes, let b = runnerUp.memoryBytes else { return sentence + "less memory decided." }
            sentence += "less memory decided (\(NumberText.bytes(a)) against \(NumberText.bytes(b))): the runner-up's peak would "
                + "have to fall by \(NumberText.percent(1 - a / b)) to swap them."
        case .bytesWritten:
            sentence += "fewer bytes written per event decided."
        case .name:
            sentence += "the name decided: the two are equal on every figure the rule reads."
        }
        return sentence
    }

    /// When the winner breaks on stress traffic (which does not decide), the fastest passing
    /// candidate that does not, so a team expecting such traffic knows the alternative.
    static func robustnessSentence(winner: Candidate, passing: [Candidate], cases: [CaseResult], stress: Set<String>) -> String? {
        func errors(_ candidate: Candidate) -> (dropped: Int, missed: Int, worst: String?) {
            let members = cases.filter { stress.contains($0.workload) && $0.choice == candidate.choice }
            let matched = members.compactMap { member in member.correctness?.matched.map { (member.workload, $0) } }
            let worst = matched.max { ($0.1.newlyDropped, $0.1.newlyMissed) < ($1.1.newlyDropped, $1.1.newlyMissed) }
            return (matched.reduce(0) { $0 + $1.1.newlyDropped }, matched.reduce(0) { $0 + $1.1.newlyMissed }, worst?.0)
        }
        let own = errors(winner)
        guard own.dropped + own.missed > 0 else { return nil }
        var sentence = "On the stress workloads, which do not decide, `\(winner.label)` at this sizing newly drops \(own.dropped) and "
            + "newly misses \(own.missed) (worst on `\(own.worst ?? "-")`)"
        if let robust = passing.first(where: { !$0.sameStrategies(as: winner) && errors($0).dropped + errors($0).missed == 0 }) {
            sentence += "; `\(robust.label)` (\(robust.guaranteeText); \(describe(robust))) breaks on none: adopt it if traffic "
                + "like theirs is expected"
        }
        return sentence + "."
    }

    /// `12.3 ns/event, 4.0 KiB peak, 2 newly missed`.
    package static func describe(_ candidate: Candidate) -> String {
        var parts: [String] = []
        if let ns = candidate.nanosecondsPerEvent { parts.append("\(NumberText.significant(ns)) ns/event") }
        if let bytes = candidate.memoryBytes { parts.append("\(NumberText.bytes(bytes)) peak") }
        parts.append("\(candidate.newlyDropped) newly dropped, \(candidate.newlyMissed) newly missed")
        return parts.joined(separator: ", ")
    }
}

/// The window length that minimises weighted false drops plus missed duplicates on the device
/// workloads, from the `window-length` sweep.
package struct WindowLengthChoice: Sendable, Equatable {
    package struct Point: Sendable, Equatable {
        package var milliseconds: Double
        package var falseDrops: Int
        package var missedDuplicates: Int
    }

    /// The window strategy whose curve was used.
    package var strategy: String
    /// One point per swept length, summed over the device workloads, ascending.
    package var points: [Point]
    /// The chosen length.
    package var milliseconds: Double
    package var dropWeight: Double

    /// `dropWeight` × false drops + missed duplicates at `point`.
    package func cost(_ point: Point) -> Double {
        dropWeight * Double(point.falseDrops) + Double(point.missedDuplicates)
    }

    /// The choice for `strategy` (or the reference window, or the first swept one); the shorter
    /// length wins a tie. `nil` without window-length points on the device workloads.
    static func make(from results: RunResults, strategy: String?, dropWeight: Double) -> WindowLengthChoice? {
        let device = Set(results.deviceWorkloadIDs)
        let swept = results.sweeps.filter { $0.dimension == .windowLength && ($0.workload.map(device.contains) ?? true) }
        let strategies = swept.map(\.strategy)
        guard let chosen = [strategy, ReferenceStrategies.window].compactMap({ $0 }).first(where: strategies.contains) ?? strategies.first
        else { return nil }
        var sums: [Double: (Int, Int)] = [:]
        for point in swept where point.strategy == chosen {
            let sum = sums[point.x] ?? (0, 0)
            sums[point.x] = (sum.0 + (point.falseDrops ?? 0), sum.1 + (point.missedDuplicates ?? 0))
        }
        let points = sums.sorted { $0.key < $1.key }.map { Point(milliseconds: $0.key, falseDrops: $0.value.0, missedDuplicates: $0.value.1) }
        var choice = WindowLengthChoice(strategy: chosen, points: points, milliseconds: 0, dropWeight: dropWeight)
        choice.milliseconds = points.min { choice.cost($0) < choice.cost($1) }?.milliseconds ?? 0
        return choice
    }
}
