import DedupeHarness
import PushDedupe

/// The decision rule, in order:
///
/// 1. **Guarantee.** A `may-drop` strategy (or one with no declared guarantee) is excluded unless
///    probabilistic strategies are allowed: it can lose a tapped notification, and nobody can
///    reproduce that afterwards.
/// 2. **Horizon.** The consumed set must remember every id the device profile's horizon needs
///    (a heavy app's pushes for the retention days), and the window every fingerprint for its
///    whole length at the peak (``DeviceProfile/horizonCovers(consumed:parameters:)``), by
///    construction.
/// 3. **Memory.** The peak live bytes on the largest workload must be under the budget; every
///    candidate under it ties. When none is, only the smallest goes on.
/// 4. **Speed.** The fastest (geometric mean of median ns/event over the device workloads) wins.
///    Candidates within ``speedTieTolerance`` of the fastest are tied, and the tie goes to the
///    stronger guarantee (the weaker layer's class first), then to fewer matched errors on the
///    device workloads (``dropWeight`` × newly dropped + newly missed), then to less memory, then
///    to the label.
public struct RecommendationRule: Sendable, Equatable {
    public var allowProbabilistic: Bool
    public var memoryBudgetBytes: Double
    /// How many missed duplicates one false drop costs (window length choice and tie-break).
    public var dropWeight: Double
    /// Speeds within this fraction of the fastest are a tie (0.03: 3%), about the run-to-run
    /// spread of a median on a shared 2-core machine.
    public static let speedTieTolerance = 0.03

    public init(
        allowProbabilistic: Bool = false, memoryBudgetBytes: Double = Double(RecommendationSettings.defaultMemoryBudgetBytes),
        dropWeight: Double = 1
    ) {
        self.allowProbabilistic = allowProbabilistic
        self.memoryBudgetBytes = memoryBudgetBytes
        self.dropWeight = dropWeight
    }

    public init(_ settings: RecommendationSettings) {
        self.init(
            allowProbabilistic: settings.allowProbabilistic, memoryBudgetBytes: Double(settings.memoryBudgetBytes),
            dropWeight: settings.dropWeight)
    }

    /// The step of the rule that excluded a candidate.
    public enum Step: Int, Sendable, Equatable, Comparable {
        case guarantee = 1, horizon, memory

        public static func < (lhs: Step, rhs: Step) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// A candidate with the rule's verdict on it.
    public struct Assessment: Sendable, Equatable {
        public var candidate: Candidate
        /// `nil` when it passed steps 1–3.
        public var excludedBy: Step?
        /// Why it was excluded, one clause.
        public var reason: String?
    }

    /// Every candidate assessed, best first: the ones that passed steps 1–3 in speed order, then
    /// the excluded ones by the step that excluded them (later steps first), each in speed order.
    ///
    /// - Complexity: O(n²) in the number of candidates.
    public func assess(_ candidates: [Candidate], profile: DeviceProfile?) -> [Assessment] {
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
            ranked += bySpeed(assessments.filter { $0.excludedBy == group })
        }
        return ranked
    }

    /// `may-drop` (or undeclared) layers, unless allowed.
    func guaranteeFailure(_ candidate: Candidate) -> String? {
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
    /// stronger).
    static func guaranteeRank(_ candidate: Candidate) -> [Int] {
        let ranks = [candidate.windowGuarantee, candidate.consumedGuarantee].compactMap { record in
            record.map { Guarantee.Class.allCases.firstIndex(of: $0.guaranteeClass)! }
        }
        return ranks.sorted(by: >)
    }

    /// Step 4 with its tie-break, applied repeatedly.
    func bySpeed(_ assessments: [Assessment]) -> [Assessment] {
        var remaining = assessments
        var ranked: [Assessment] = []
        while !remaining.isEmpty {
            let fastest = remaining.compactMap(\.candidate.nanosecondsPerEvent).min() ?? .infinity
            let tied = remaining.indices.filter {
                (remaining[$0].candidate.nanosecondsPerEvent ?? .infinity) <= fastest * (1 + Self.speedTieTolerance)
            }
            let best = tied.min { a, b in tieBreak(remaining[a].candidate, remaining[b].candidate) }!
            ranked.append(remaining.remove(at: best))
        }
        return ranked
    }

    /// Whether `a` wins a speed tie against `b`.
    func tieBreak(_ a: Candidate, _ b: Candidate) -> Bool {
        let ga = Self.guaranteeRank(a), gb = Self.guaranteeRank(b)
        if ga != gb { return ga.lexicographicallyPrecedes(gb) }
        if matchedCost(a) != matchedCost(b) { return matchedCost(a) < matchedCost(b) }
        let ma = a.memoryBytes ?? .infinity, mb = b.memoryBytes ?? .infinity
        if ma != mb { return ma < mb }
        let sa = a.nanosecondsPerEvent ?? .infinity, sb = b.nanosecondsPerEvent ?? .infinity
        if sa != sb { return sa < sb }
        return a.label < b.label
    }
}
