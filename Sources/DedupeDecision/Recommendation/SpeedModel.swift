import DedupeHarness
import Foundation

/// How the speed step of the rule compares two pipelines: by what a push costs an app, store
/// included, and only by a difference the run's own noise and another host could not reverse.
///
/// - **Cost per push.** A candidate's structure-only ns/event plus, when it writes after every
///   consume, the picked store's calling-thread cost per consume (beyond the structure's,
///   median) times the consumes per event it made (``Candidate/consumesPerEvent``), all
///   measured in the same run.
/// - **Faster only beyond the margin.** Per timing fork, the two candidates' costs per push are
///   paired (the same fork measured both); one is faster only when the whole 95% t-interval of
///   the geometric-mean ratio lies beyond ``margin``. Anything else is a tie.
/// - **The margin** is the larger of ``hostMargin`` and twice the run's A/A spread
///   (``aaSpread``): the reference pipeline's largest ratio between two forks, the same code
///   measured twice in separate processes.
package struct SpeedModel: Sendable, Equatable {
    /// What moves between hosts: the pick's speed lead that reversed on another machine was 7.5%
    /// (`fifo-set` ahead of `bounded-lru` by 7.5% on one host, behind on another), so a
    /// lead must be larger than that to decide.
    package static let hostMargin = 0.10

    /// The picked store's cost per consume on the calling thread beyond the structure's (median,
    /// ns); 0 when the run measured no store.
    package var storeNanosecondsPerConsume: Double
    /// Bytes the picked store writes per consume (compaction included); 0 without a store.
    package var storeBytesPerConsume: Double
    /// The reference pipeline's largest ratio between two forks' ns/event, minus 1; `nil` with
    /// fewer than two forks.
    package var aaSpread: Double?

    package init(storeNanosecondsPerConsume: Double = 0, storeBytesPerConsume: Double = 0, aaSpread: Double? = nil) {
        self.storeNanosecondsPerConsume = storeNanosecondsPerConsume
        self.storeBytesPerConsume = storeBytesPerConsume
        self.aaSpread = aaSpread
    }

    /// A lead smaller than this, as a fraction, is a tie.
    package var margin: Double { max(Self.hostMargin, 2 * (aaSpread ?? 0)) }

    /// What one push costs `candidate`'s app on the calling thread, store included, ns.
    package func nanosecondsPerPush(_ candidate: Candidate) -> Double? {
        candidate.nanosecondsPerEvent.map { $0 + storeNanosecondsPerEvent(candidate) }
    }

    /// The same, fork by fork.
    func nanosecondsPerPushByFork(_ candidate: Candidate) -> [Double]? {
        candidate.nanosecondsPerEventByFork?.map { $0 + storeNanosecondsPerEvent(candidate) }
    }

    /// The store's share of a push: a consume's cost per consume made, for a choice that writes
    /// after every consume; none for one kept in memory or saved only at background.
    func storeNanosecondsPerEvent(_ candidate: Candidate) -> Double {
        candidate.choice.persistence == .afterEveryConsume ? storeNanosecondsPerConsume * candidate.consumesPerEvent : 0
    }

    /// The 95% interval of `a`'s cost per push over `b`'s, from their paired forks; the point
    /// ratio twice when either has fewer than two forks or they differ in fork count.
    package func ratioInterval(_ a: Candidate, _ b: Candidate) -> ClosedRange<Double>? {
        if let forksA = nanosecondsPerPushByFork(a), let forksB = nanosecondsPerPushByFork(b), forksA.count == forksB.count,
           forksA.count >= 2
        {
            let logs = zip(forksA, forksB).map { Foundation.log($0 / $1) }
            let count = Double(logs.count)
            let mean = logs.reduce(0, +) / count
            let variance = logs.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (count - 1)
            let half = StudentT.quantile(upper: 0.025, degreesOfFreedom: count - 1) * (variance / count).squareRoot()
            return exp(mean - half)...exp(mean + half)
        }
        guard let perPushA = nanosecondsPerPush(a), let perPushB = nanosecondsPerPush(b), perPushB > 0 else { return nil }
        return (perPushA / perPushB)...(perPushA / perPushB)
    }

    /// Whether `a` is faster than `b` beyond the margin: the whole interval of their ratio lies
    /// below 1 / (1 + margin).
    package func isFaster(_ a: Candidate, than b: Candidate) -> Bool {
        guard let interval = ratioInterval(a, b) else { return false }
        return interval.upperBound < 1 / (1 + margin)
    }

    /// The speed model of `results`: the picked store's cost beyond the structure, and the A/A
    /// spread of the reference pipeline on the device workloads.
    static func make(from results: RunResults, store: StorePick?) -> SpeedModel {
        let storeCost = store.map { pick in max(0, pick.cost.medianNanoseconds - (pick.structure?.medianNanoseconds ?? 0)) } ?? 0
        let device = Set(results.deviceWorkloadIDs)
        let reference = results.cases.filter {
            $0.mode == ReferenceStrategies.mode && $0.window == ReferenceStrategies.window
                && $0.consumed == ReferenceStrategies.consumed && $0.timing != nil && (device.isEmpty || device.contains($0.workload))
        }
        return SpeedModel(
            storeNanosecondsPerConsume: storeCost, storeBytesPerConsume: store?.cost.bytesPerConsume ?? 0, aaSpread: aaSpread(reference))
    }

    /// The largest ratio between two forks of the geometric mean over `cases` of each fork's
    /// median, minus 1.
    static func aaSpread(_ cases: [CaseResult]) -> Double? {
        guard let forks = Candidate.byFork(cases), let low = forks.min(), let high = forks.max(), low > 0 else { return nil }
        return high / low - 1
    }
}
