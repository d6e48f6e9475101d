import DedupeMeasurement
import Foundation
import PushDedupe

/// Ids lost across SIGKILL points: child processes consume `k-0`, `k-1`, … on one store file and
/// acknowledge each consume on stdout as its call returns; the parent kills each at a
/// seeded-random moment (after a random number of acknowledgements, then a random delay of a few
/// µs, so kills land inside writes and compactions), drains what it acknowledged, and restores a
/// copy of the file in-process to check that every acknowledged id the set still retains is
/// known (``StoreKillLedger``). The next child opens the file the kill left, so each recovery
/// runs in a child and is checked at the next point.
enum StoreKillSweep {
    struct Settings: Sendable {
        var points: Int
        /// Small, so that compactions happen within the sweep.
        var retained: Int
        var seed: UInt64
        /// Acknowledgements before a kill: uniform in `0...maximumAcknowledged`.
        var maximumAcknowledged: Int
        /// The delay after them: uniform in `0..<maximumDelayMicroseconds`.
        var maximumDelayMicroseconds: Int
    }

    /// The sweep over any consumer: `point(start, acknowledgements, delay)` runs one child from
    /// index `start` and returns what it acknowledged; `restore()` reads the store as it is
    /// now and answers whether an index is known, with the repairs it made.
    static func sweep(
        design: String, settings: Settings,
        point: (_ start: Int, _ acknowledgements: Int, _ delayMicroseconds: Int) throws -> [Int],
        restore: () throws -> (isKnown: (Int) -> Bool, repairs: [StoreRepair])
    ) throws -> StoreKillResult {
        var random = SplitMix64(seed: settings.seed ^ DeterministicHashing.mix64(designSeed(design)))
        var ledger = StoreKillLedger(retained: settings.retained)
        var repairs = 0
        var tornTails = 0
        for _ in 0..<settings.points {
            let acknowledgements = Int(random.next() % UInt64(settings.maximumAcknowledged + 1))
            let delay = Int(random.next() % UInt64(max(1, settings.maximumDelayMicroseconds)))
            ledger.record(acknowledged: try point(ledger.next, acknowledgements, delay))
            let restored = try restore()
            repairs += restored.repairs.count
            tornTails += restored.repairs.filter { if case .truncatedTornTail = $0 { true } else { false } }.count
            ledger.check(restored.isKnown)
        }
        return StoreKillResult(
            design: design, retained: settings.retained, killPoints: settings.points, acknowledged: ledger.checked.count,
            lost: ledger.lost.count, repairs: repairs, tornTailsCut: tornTails)
    }

    /// The sweep of `design` with real children started by `writer`, in `directory`.
    static func run(
        _ design: DedupeStore.Design, writer: StoreWriterCommand, settings: Settings, directory: URL
    ) throws -> StoreKillResult {
        let url = StoreDesigns.file(in: directory)
        let scratch = try StoreDesigns.makeDirectory(directory, "check")
        let errorFile = directory.appendingPathComponent("child-stderr").path
        return try sweep(
            design: design.rawValue, settings: settings,
            point: { start, acknowledgements, delay in
                let request = StoreWriterRequest(
                    design: design.rawValue, durability: StoreDurability.processKill.rawValue, path: url.path,
                    retained: settings.retained, prefix: "k-", start: start, count: acknowledgements + 1_000_000)
                return try killedChild(writer: writer, request: request, after: acknowledgements, delayMicroseconds: delay, errorFile: errorFile)
            },
            restore: { try restoreCopy(design, of: url, in: scratch, retained: settings.retained, prefix: "k-") })
    }

    /// Runs one child and kills it `delayMicroseconds` after its `acknowledgements`-th
    /// acknowledgement; returns every index it acknowledged.
    static func killedChild(
        writer: StoreWriterCommand, request: StoreWriterRequest, after acknowledgements: Int, delayMicroseconds: Int, errorFile: String
    ) throws(MeasurementError) -> [Int] {
        let child = try StoreWriterProcess(writer: writer, request: request, errorFile: errorFile)
        if child.read(until: acknowledgements) {
            let deadline = MonotonicClock.now() &+ UInt64(delayMicroseconds) &* 1_000
            while MonotonicClock.now() < deadline {}
            child.kill()
        }
        child.drain()
        let status = child.wait()
        guard status == 128 + SIGKILL || status == 0 else {
            throw .stageFailed("stores: kill sweep of \(request.design): the child failed with status \(status): \(child.errorLine)")
        }
        return child.acknowledged
    }

    /// Restores a copy of the store at `url` (with SQLite's log), so the next child still meets
    /// the file as the kill left it.
    static func restoreCopy(
        _ design: DedupeStore.Design, of url: URL, in scratch: URL, retained: Int, prefix: String
    ) throws -> (isKnown: (Int) -> Bool, repairs: [StoreRepair]) {
        let manager = FileManager.default
        for name in (try? manager.contentsOfDirectory(atPath: scratch.path)) ?? [] {
            try manager.removeItem(at: scratch.appendingPathComponent(name))
        }
        let copy = StoreDesigns.file(in: scratch)
        for suffix in ["", "-wal"] where manager.fileExists(atPath: url.path + suffix) {
            try StoreDesigns.copyFile(url.path + suffix, to: copy.path + suffix)
        }
        let dedupe = try StoreDesigns.deduplicator(retained: retained, store: StoreDesigns.store(design, at: copy, durability: .processKill))
        let consumed = dedupe.pipeline.consumed
        return ({ consumed.contains(EnvelopeID(token: prefix + String($0))) }, dedupe.storeRepairs)
    }

    /// FNV-1a 64 of the design id's UTF-8: the same in every process, unlike `hashValue`.
    static func designSeed(_ design: String) -> UInt64 {
        design.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3 }
    }
}
