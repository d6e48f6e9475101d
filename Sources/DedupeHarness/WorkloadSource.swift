import DedupeWorkloads
import PushDedupe

/// How to regenerate a workload in another process (a harness child): scenarios and
/// sweeps are pure functions of their parameters and the seed.
enum WorkloadSpec: Codable, Sendable, Hashable {
    /// A catalogue scenario at `scale` of its length.
    case scenario(id: String, seed: UInt64, scale: Double)
    /// The workload, or `nil` for an unknown scenario id.
    func make() -> Workload? {
        switch self {
        case let .scenario(id, seed, scale):
            return ScenarioCatalogue.scenario(named: id).map { WorkloadSource.scenarioWorkload($0, seed: seed, scale: scale) }
        }
    }
}

/// Where the runner's workloads come from.
enum WorkloadSource {
    /// A scenario's events at `scale` of its size (the stress scenarios shrink; the small ones
    /// ignore it).
    static func scenarioWorkload(_ scenario: Scenario, seed: UInt64, scale: Double) -> Workload {
        scenario.workload(seed: seed, scale: scale)
    }

    /// The `index`-th id a consumed-set sweep fills its set with: the SplitMix64 stream of `seed`,
    /// two outputs per id, computed directly so any id can be regenerated.
    static func fillID(_ index: Int, seed: UInt64) -> EnvelopeID {
        let gamma: UInt64 = 0x9e37_79b9_7f4a_7c15
        let base = seed &+ UInt64(2 * index) &* gamma
        return EnvelopeID(high: DeterministicHashing.mix64(base &+ gamma), low: DeterministicHashing.mix64(base &+ 2 &* gamma))
    }

    /// The timed operations of a consumed-set sweep point after a fill of `count` ids: `operations`
    /// events alternating a payload with a fresh id (truth `new`) and a re-emit (truth `dup`) of
    /// one of the 32 latest fresh ids, as in an app, where a pending-route or ready-callback
    /// replay follows its payload closely. Every bounded set of capacity `count` still retains
    /// it. Round `round` uses fresh ids no earlier round used.
    static func consumedSweepOperations(count: Int, operations: Int, round: Int, seed: UInt64) -> Workload {
        let fingerprint = RouteFingerprint(route: "item:0")
        var random = SplitMix64(seed: seed ^ UInt64(round) &* 0x51_7cc1_b727_220a)
        let firstFresh = count + round * operations
        var events: [WorkloadEvent] = []
        events.reserveCapacity(operations)
        for k in 0..<operations {
            let time = Timestamp(nanoseconds: Int64(firstFresh + k) * 1_000)
            if k % 2 == 0 {
                events.append(WorkloadEvent(
                    time: time, kind: .payload, envelope: fillID(firstFresh + k, seed: seed),
                    fingerprint: fingerprint, route: 0, source: 0, truth: .new))
            } else {
                // The fresh id of operation `target` (even), or before this round, the fill's tail.
                let target = k + 1 - 2 * (1 + Int(random.next() % 32))
                let index = target >= 0 ? firstFresh + target : max(0, count + target / 2)
                events.append(WorkloadEvent(
                    time: time, kind: .emit, envelope: fillID(index, seed: seed),
                    fingerprint: fingerprint, route: 0, source: 0, truth: .dup))
            }
        }
        return Workload(
            name: "consumed-set-\(count)", summary: "\(operations) operations on a set of \(count) ids",
            routes: ["item:0"], sources: ["tap"], events: events)
    }
}
