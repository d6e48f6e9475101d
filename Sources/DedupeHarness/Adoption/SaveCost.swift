import struct Foundation.URL
import PushDedupe

/// What one save of the consumed set costs an app: the per-push cost of a deduplicator whose
/// store saves after every consume.
///
/// Each save goes through the library's own store path, `save()` on a deduplicator with a
/// `.file` store: the set's `snapshot()`, then Foundation's atomic write (a temporary file beside
/// the target, written, fsynced and renamed over it). Nothing else is
/// timed: the set is filled before the first save, and the deduplicator is built outside the
/// loop. The figure is the machine's file system as much as the library's: quote it with the
/// machine.
public enum SaveCost {
    public struct Result: Sendable {
        /// The consumed set's strategy id.
        public var strategy: String
        /// Ids the set held at every save.
        public var ids: Int
        /// Bytes of each snapshot written.
        public var snapshotBytes: Int
        /// Microseconds per save, in save order.
        public var microseconds: [Double]

        /// The median save, in µs.
        public var median: Double { SampleStatistics.quantile(microseconds.sorted(), 0.5) }
        /// The 99th-percentile save, in µs.
        public var p99: Double { SampleStatistics.quantile(microseconds.sorted(), 0.99) }
    }

    /// Fills a `Consumed` of `configuration` with `ids` distinct ids, then saves it `saves` times
    /// into `directory` (which must exist), timing each save.
    ///
    /// - Throws: the `ConfigurationError` of an invalid configuration, or the store's
    ///   `SaveError` when a save fails (a full disk): a failed save is not a cost.
    /// - Complexity: O(`saves` × the snapshot's size), plus the file system's work.
    public static func measure<Consumed: SnapshottableConsumedSet & Sendable>(
        _ type: Consumed.Type, configuration: ConsumedSetConfiguration, filledTo ids: Int, saves: Int, directory: URL
    ) throws -> Result {
        let url = directory.appendingPathComponent("save-cost-\(Consumed.strategyID).pdcs")
        let dedupe = try SharedDeduplicator<HashDequeWindow, Consumed>(
            window: HashDequeWindow(preset: .compact), consumed: configuration, store: .snapshot(url, saving: .manual),
            clock: .manual(ManualClock()))
        for index in 0..<ids { _ = dedupe.receiveEmit(pushID: "save-cost-\(index)") }
        var microseconds: [Double] = []
        microseconds.reserveCapacity(saves)
        for _ in 0..<saves {
            let start = MonotonicClock.now()
            try dedupe.save()
            microseconds.append(Double(MonotonicClock.now() - start) / 1_000)
        }
        return Result(
            strategy: Consumed.strategyID, ids: dedupe.pipeline.consumed.count,
            snapshotBytes: dedupe.pipeline.consumed.snapshot().count, microseconds: microseconds)
    }
}
