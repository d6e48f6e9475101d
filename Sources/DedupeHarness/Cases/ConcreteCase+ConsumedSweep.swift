import DedupeWorkloads
import PushDedupe

/// One consumed-set size sweep point: ns per operation of each round, and the memory the fill
/// took.
struct _ConsumedSweepRun {
    /// ns/operation of each round; round 0 is the warm-up.
    var nanosecondsPerOperation: [Double] = []
    /// Allocator bytes the set held after the first fill, `nil` without statistics.
    var liveBytes: Int?
    var retainedEntries = 0
    var footprint = 0
}

extension _ConcreteCase {
    /// Fills a fresh set with `count` ids (untimed, straight from the id formula, no event
    /// arrays, so 10⁷ ids stay cheap), then times each of `rounds` (one workload of operations per
    /// round). Refills before every round when `refillEachRound`, so every round starts from the
    /// same size; otherwise the rounds run one after the other on the same set.
    static func sweepConsumedSet(
        fill count: Int, seed: UInt64, configuration: ConsumedSetConfiguration, rounds: [EventColumns],
        refillEachRound: Bool, batchSize: Int, statistics: inout (any AllocatorStatistics)?
    ) throws(ConfigurationError) -> _ConsumedSweepRun {
        var run = _ConsumedSweepRun()
        let baseline = statistics?.allocatedBytes()
        var instance = try Self(mode: .consumedAlone, window: WindowConfiguration(), consumed: configuration)
        instance.fill(count, seed: seed)
        if let baseline, let after = statistics?.allocatedBytes() { run.liveBytes = after - baseline }
        run.retainedEntries = instance.consumed.count
        run.footprint = instance.consumed.footprint
        for (round, operations) in rounds.enumerated() {
            if round > 0 && refillEachRound {
                instance = try Self(mode: .consumedAlone, window: WindowConfiguration(), consumed: configuration)
                instance.fill(count, seed: seed)
            }
            var batches: [Double] = []
            let nanoseconds = instance.runTimed(operations, untimedPrefix: 0, batchSize: batchSize, batches: &batches)
            run.nanosecondsPerOperation.append(nanoseconds / Double(max(1, operations.count)))
        }
        return run
    }

    private mutating func fill(_ count: Int, seed: UInt64) {
        for index in 0..<count {
            _ = consumed.consume(WorkloadSource.fillID(index, seed: seed), at: Timestamp(nanoseconds: Int64(index) * 1_000))
        }
    }
}
