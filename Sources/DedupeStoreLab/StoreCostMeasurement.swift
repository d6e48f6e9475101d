import DedupeMeasurement
import Foundation
import PushDedupe

/// The cost of a store on the calling thread: every `receiveEmit(pushID:)` of a fresh id timed on
/// its own, on a deduplicator whose set and store already hold `retained` ids, so that the file
/// is at its steady-state size and compactions fall inside the timed consumes.
///
/// The store is filled through its own `replace(with:snapshot:)` (not timed); the deduplicator
/// restores it at init, as an app's does at launch. The structure alone (`DedupeStore.none`) runs
/// the same loop, the reference the store's cost adds to.
enum StoreCostMeasurement {
    /// How many consumes to time: `consumes` at most, stopping early (after `minimumConsumes`)
    /// once `seconds` have passed or the store has written `bytesWritten` bytes.
    struct Budget: Sendable {
        var consumes: Int
        var minimumConsumes: Int
        var seconds: Double
        var bytesWritten: Int
        /// Deduplicators built from the filled store to time the restore; 0 for none.
        var restores: Int

        /// The sizing's budget at `retained`: four times the retained ids (two compactions of
        /// a journal at least) and at least 2,000 consumes, within `seconds` and 64 MiB written
        /// (the snapshot design's bound, as a whole-set write grows with the set).
        static func steadyState(retained: Int, seconds: Double, restores: Int) -> Budget {
            Budget(
                consumes: max(2_000, 4 * retained), minimumConsumes: 20, seconds: seconds, bytesWritten: 64 << 20,
                restores: restores)
        }
    }

    /// Measures `design` (`nil`: the structure alone) at `durability` and `retained` ids, in a
    /// directory of its own under `parent`, removed afterwards.
    static func measure(
        _ design: DedupeStore.Design?, durability: StoreDurability, retained: Int, budget: Budget, parent: URL
    ) throws(MeasurementError) -> StoreCost {
        let name = "\(design?.rawValue ?? StoreCost.structureDesign)-\(durability.rawValue)-\(retained)"
        let directory = try StoreDesigns.makeDirectory(parent, name)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = StoreDesigns.file(in: directory)
        let store = design.map { StoreDesigns.store($0, at: url, durability: durability) } ?? .none
        let stage = "stores: \(name)"
        do {
            try fill(store, retained: retained)
        } catch {
            throw .stageFailed("\(stage): cannot fill the store: \(error)")
        }
        // Small strings, held inline: the timed loop allocates nothing of its own.
        let pushIDs = (0..<budget.consumes).map { "c-\($0)" }
        var samples: [UInt64] = []
        samples.reserveCapacity(budget.consumes)
        var before = DedupeCounters()
        var after = DedupeCounters()
        do {
            let dedupe = try StoreDesigns.deduplicator(retained: retained, store: store)
            if design == nil {
                for index in 0..<retained { _ = dedupe.receiveEmit(pushID: "p-\(index)") }
            }
            guard dedupe.pipeline.consumed.count == retained else {
                throw MeasurementError.stageFailed("\(stage): the store restored \(dedupe.restoreOutcome), not \(retained) ids")
            }
            // A few consumes open the store's descriptors and warm the caches, untimed.
            for index in 0..<32 { _ = dedupe.receiveEmit(pushID: "w-\(index)") }
            before = dedupe.counters
            let started = MonotonicClock.now()
            let deadline = started &+ UInt64(budget.seconds * 1e9)
            var index = 0
            while index < budget.consumes {
                let start = MonotonicClock.now()
                _ = dedupe.receiveEmit(pushID: pushIDs[index])
                samples.append(MonotonicClock.now() &- start)
                index += 1
                if index % 64 == 0 && index >= budget.minimumConsumes {
                    if MonotonicClock.now() > deadline { break }
                    if dedupe.counters.storeBytesWritten - before.storeBytesWritten >= budget.bytesWritten { break }
                }
            }
            after = dedupe.counters
            if after.failedSaves > before.failedSaves {
                throw MeasurementError.stageFailed("\(stage): \(after.failedSaves - before.failedSaves) save(s) failed: \(dedupe.lastStoreError.map { "\($0)" } ?? "")")
            }
        } catch let error as MeasurementError {
            throw error
        } catch {
            throw .stageFailed("\(stage): \(error)")
        }
        let folderBytes = StoreDesigns.folderBytes(directory)
        var restoreMicroseconds: Double?
        if design != nil && budget.restores > 0 {
            var restores: [Double] = []
            for _ in 0..<budget.restores {
                let start = MonotonicClock.now()
                let restored = try? StoreDesigns.deduplicator(retained: retained, store: store)
                restores.append(Double(MonotonicClock.now() &- start) / 1_000)
                guard restored?.restoreOutcome.isRestored == true else {
                    throw .stageFailed("\(stage): a restore found \(restored.map { "\($0.restoreOutcome)" } ?? "no deduplicator")")
                }
            }
            restoreMicroseconds = SampleStatistics.median(restores)
        }
        let statistics = Self.statistics(samples)
        return StoreCost(
            design: design?.rawValue ?? StoreCost.structureDesign, durability: durability.rawValue, retained: retained,
            consumes: samples.count, medianNanoseconds: statistics.median, p99Nanoseconds: statistics.p99,
            maxNanoseconds: statistics.max, meanNanoseconds: statistics.mean,
            bytesPerConsume: Double(after.storeBytesWritten - before.storeBytesWritten) / Double(max(1, samples.count)),
            compactions: after.compactions - before.compactions, folderBytes: folderBytes, restoreMicroseconds: restoreMicroseconds)
    }

    /// Writes `retained` ids (`p-0`, `p-1`, …) into the store through its own `replace`.
    private static func fill(_ store: DedupeStore, retained: Int) throws {
        guard let opened = store.open(retaining: retained) else { return }
        let ids = (0..<retained).map { EnvelopeID(token: "p-\($0)") }
        var set = try FIFOSet(configuration: ConsumedSetConfiguration(capacity: retained))
        for id in ids { _ = set.consume(id, at: Timestamp(nanoseconds: 0)) }
        // A replace writes over what the store read, as a migration does.
        _ = try opened.load()
        try opened.replace(with: ids, snapshot: { set.snapshot() })
    }

    /// Median, 99th percentile, maximum and mean of `samples`, in ns.
    static func statistics(_ samples: [UInt64]) -> (median: Double, p99: Double, max: Double, mean: Double) {
        guard !samples.isEmpty else { return (0, 0, 0, 0) }
        let sorted = samples.sorted().map { Double($0) }
        return (SampleStatistics.quantile(sorted, 0.5), SampleStatistics.quantile(sorted, 0.99), sorted[sorted.count - 1],
                sorted.reduce(0, +) / Double(sorted.count))
    }
}
