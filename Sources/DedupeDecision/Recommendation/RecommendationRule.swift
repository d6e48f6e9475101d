import DedupeHarness
import PushDedupe

/// The decision rule, in order:
///
/// 1. **Guarantee.** A strategy whose results contradict its declared guarantee
///    (``GuaranteeContradiction``) is excluded, always. A `may-drop` strategy (or one with no declared guarantee) is excluded unless
///    probabilistic strategies are allowed: it can lose a tapped notification, and nobody can
///    reproduce that afterwards.
/// 2. **Horizon.** The consumed set must remember every id the device profile's horizon needs
///    (a heavy app's pushes for the retention days), and the window every fingerprint for its
///    whole length at the peak (``DeviceProfile/horizonCovers(consumed:parameters:)``), by
///    construction.
/// 3. **Memory.** The peak live bytes on the largest workload must be under the budget; every
///    candidate under it ties. When none is, only the smallest goes on.
/// 4. **Speed**, as what a push costs the app on the calling thread, store included
///    (``SpeedModel``): a candidate is faster only when the 95% interval of its ratio to another's,
///    over paired timing forks, lies wholly beyond the margin (the larger of the host margin and
///    twice the run's A/A spread). Every candidate no other is faster than is tied, and the tie
///    goes to the stronger guarantee within the device profile's horizon (a layer that forgets
///    only past the horizon it covers counts as exact; the weaker layer first), then to fewer
///    matched errors on the device workloads (``dropWeight`` × newly dropped + newly missed),
///    then to less memory, then to fewer bytes written per event, then to the label.
package struct RecommendationRule: Sendable, Equatable {
    package var allowProbabilistic: Bool
    package var memoryBudgetBytes: Double
    /// How many missed duplicates one false drop costs (window length choice and tie-break).
    package var dropWeight: Double
    package init(
        allowProbabilistic: Bool = false, memoryBudgetBytes: Double = Double(RecommendationSettings.defaultMemoryBudgetBytes),
        dropWeight: Double = 1
    ) {
        self.allowProbabilistic = allowProbabilistic
        self.memoryBudgetBytes = memoryBudgetBytes
        self.dropWeight = dropWeight
    }

    package init(_ settings: RecommendationSettings) {
        self.init(
            allowProbabilistic: settings.allowProbabilistic, memoryBudgetBytes: Double(settings.memoryBudgetBytes),
            dropWeight: settings.dropWeight)
    }

    /// The step of the rule that excluded a candidate.
    package enum Step: Int, Sendable, Equatable, Comparable {
        case guarantee = 1, horizon, memory

        package static func < (lhs: Step, rhs: Step) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// A candidate with the rule's verdict on it.
    package struct Assessment: Sendable, Equatable {
        package var candidate: Candidate
        /// `nil` when it passed steps 1–3.
        package var excludedBy: Step?
        /// Why it was excluded, one clause.
        package var reason: String?
    }

    /// Every candidate assessed, best first: the ones that passed steps 1–3 in speed order, then
    /// the excluded ones by the step that excluded them (later steps first), each in speed order.
    ///
    /// - Complexity: O(n³) in the number of candidates (each rank compares every pair left).
    package func assess(_ candidates: [Candidate], profile: DeviceProfile?, speed: SpeedModel = SpeedModel()) -> [Assessment] {
        var assessments = candidates.map { candidate -> Assessment in
            if let reason = guaranteeFailure(candidate) { return Assessment(candidate: candidate, excludedBy: .guarantee, reason: reason) }
            if let profile, let reason = horizonFailure(candidate, profile: profile) {
                return Assessment(candidate: candidate, excludedBy: .horizon, reason: reason)
            }
            return Assessment(candidate: candidate, excludedBy: nil, reason: nil)
        }
        let passing = assessments.indices.filter { assessments[$0].excludedBy == nil }
        let under = passing.filter { (assessments[$0].candidate.memoryBytes ?? 0) <= memoryBudgetBytes }
        let smallest = passing.compactMap { assessments[$0].candidate.memoryBytes }.min()
        for index in passing where !under.contains(index) {
            let bytes = assessments[index].candidate.memoryBytes ?? 0
            // With nothing under the budget, the smallest goes on.
            if under.isEmpty && bytes == smallest { continue }
            assessments[index].excludedBy = .memory
            assessments[index].reason = "\(NumberText.bytes(bytes)) over the \(NumberText.bytes(memoryBudgetBytes)) budget"
        }
        var ranked: [Assessment] = []
        for group in [nil, RecommendationRule.Step.memory, .horizon, .guarantee] {
            ranked += bySpeed(assessments.filter { $0.excludedBy == group }, profile: profile, speed: speed)
        }
        return ranked
    }

    /// `may-drop` (or undeclared) layers, unless allowed.
    func guaranteeFailure(_ candidate: Candidate) -> String? {
        if let contradiction = candidate.guaranteeContradiction { return contradiction }
        let classes = candidate.guaranteeClasses
        if classes.contains(where: { $0 == nil }) { return "no declared guarantee" }
        guard !allowProbabilistic else { return nil }
        if classes.contains(where: { $0 == "may-drop" }) { return "may-drop: can lose a wanted navigation" }
        return nil
    }

    /// Why the candidate's declared forgetting does not cover the profile, or `nil`.
    func horizonFailure(_ candidate: Candidate, profile: DeviceProfile) -> String? {
        let p = candidate.parameters
        if candidate.window != nil, let guarantee = candidate.windowGuarantee, !profile.horizonCovers(window: guarantee, parameters: p) {
            switch guarantee.forgetting {
            case "after-capacity":
                return "window capacity \(p.windowCapacity) < \(profile.peakPayloadsInWindow) payloads within one window at the peak"
            case "after-time":
                return "window exact for \(NumberText.significant(guarantee.timeFraction ?? 1)) × its length only"
            default:
                return "window \(guarantee.guaranteeClass.rawValue): no horizon by construction"
            }
        }
        if candidate.consumed != nil, let guarantee = candidate.consumedGuarantee, !profile.horizonCovers(consumed: guarantee, parameters: p) {
            switch guarantee.forgetting {
            case "after-capacity":
                return "capacity \(p.consumedCapacity) < the \(profile.horizonIDs) ids of the \(NumberText.duration(milliseconds: profile.horizonMilliseconds)) horizon"
            case "after-time":
                return "retention \(NumberText.duration(milliseconds: p.retentionMilliseconds * (guarantee.timeFraction ?? 1))) < the "
                    + "\(NumberText.duration(milliseconds: profile.horizonMilliseconds)) horizon"
            default:
                return "set \(guarantee.guaranteeClass.rawValue): no horizon by construction (a slot can be overwritten at once)"
            }
        }
        return nil
    }

    /// The weighted matched errors the tie-break counts.
    func matchedCost(_ candidate: Candidate) -> Double {
        dropWeight * Double(candidate.newlyDropped) + Double(candidate.newlyMissed)
    }

    /// The weaker of the candidate's classes first, then the other, as class ranks (lower is
    /// stronger). With a profile, a layer whose forgetting its horizon covers ranks as exact: it
    /// forgets nothing the device can still deliver.
    static func guaranteeRank(_ candidate: Candidate, profile: DeviceProfile? = nil) -> [Int] {
        let parameters = candidate.parameters
        let layers: [(GuaranteeRecord?, covered: Bool)] = [
            (candidate.windowGuarantee, candidate.windowGuarantee.map { record in
                profile?.horizonCovers(window: record, parameters: parameters) ?? false } ?? false),
            (candidate.consumedGuarantee, candidate.consumedGuarantee.map { record in
                profile?.horizonCovers(consumed: record, parameters: parameters) ?? false } ?? false),
        ]
        let ranks = layers.compactMap { record, covered in
            record.map { record -> Int in
                let forgetsOnlyPastTheHorizon = covered
                    && [.exactForgetsOldest, .exactForgetsAfterRetention].contains(record.guaranteeClass)
                return Guarantee.Class.allCases.firstIndex(of: forgetsOnlyPastTheHorizon ? .exact : record.guaranteeClass)!
            }
        }
        return ranks.sorted(by: >)
    }

    /// Step 4 with its tie-break, applied repeatedly: of the candidates left, those no other is
    /// faster than (``SpeedModel/isFaster(_:than:)``) are tied, and the tie-break takes one.
    func bySpeed(_ assessments: [Assessment], profile: DeviceProfile?, speed: SpeedModel) -> [Assessment] {
        var remaining = assessments
        var ranked: [Assessment] = []
        while !remaining.isEmpty {
            let tied = remaining.indices.filter { index in
                !remaining.indices.contains { other in
                    other != index && speed.isFaster(remaining[other].candidate, than: remaining[index].candidate)
                }
            }
            // A faster-than relation over intervals need not be transitive; with nothing left
            // unbeaten, every candidate left ties.
            let group = tied.isEmpty ? Array(remaining.indices) : tied
            let best = group.min { a, b in tieBreak(remaining[a].candidate, remaining[b].candidate, profile: profile, speed: speed) }!
            ranked.append(remaining.remove(at: best))
        }
        return ranked
    }

    /// The step of the tie-break that separates two tied candidates.
    package enum TieBreakStep: String, Sendable, Equatable {
        case guarantee, errors, memory, bytesWritten = "bytes written", name
    }

    /// Whether `a` wins a speed tie against `b`.
    func tieBreak(_ a: Candidate, _ b: Candidate, profile: DeviceProfile?, speed: SpeedModel) -> Bool {
        switch deciding(a, b, profile: profile, speed: speed) {
        case .guarantee: Self.guaranteeRank(a, profile: profile).lexicographicallyPrecedes(Self.guaranteeRank(b, profile: profile))
        case .errors: matchedCost(a) < matchedCost(b)
        case .memory: (a.memoryBytes ?? .infinity) < (b.memoryBytes ?? .infinity)
        case .bytesWritten: bytesWrittenPerEvent(a, speed: speed) < bytesWrittenPerEvent(b, speed: speed)
        case .name: a.label < b.label
        }
    }

    /// The first tie-break step on which `a` and `b` differ.
    package func deciding(_ a: Candidate, _ b: Candidate, profile: DeviceProfile?, speed: SpeedModel) -> TieBreakStep {
        if Self.guaranteeRank(a, profile: profile) != Self.guaranteeRank(b, profile: profile) { return .guarantee }
        if matchedCost(a) != matchedCost(b) { return .errors }
        if (a.memoryBytes ?? .infinity) != (b.memoryBytes ?? .infinity) { return .memory }
        if bytesWrittenPerEvent(a, speed: speed) != bytesWrittenPerEvent(b, speed: speed) { return .bytesWritten }
        return .name
    }

    /// Bytes the picked store writes per event of this candidate's traffic.
    func bytesWrittenPerEvent(_ candidate: Candidate, speed: SpeedModel) -> Double {
        candidate.choice.persistence == .afterEveryConsume ? speed.storeBytesPerConsume * candidate.consumesPerEvent : 0
    }
}
