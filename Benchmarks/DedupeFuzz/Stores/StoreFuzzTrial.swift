import DedupeMeasurement
import DedupeStoreLab
import DedupeHarness
import Foundation
import PushDedupe

/// One input run in this process: the damaged store is put in place, a deduplicator restores
/// it, consumes the push `new` (a launch, then a push: the moment a store that misread its
/// file would write over it) and retries a restore that had to wait, and a second one restores
/// it again (the relaunch) and is asked what it knows.
///
/// What it knows is read from the relaunched deduplicator's own set (`pipeline.consumed`):
/// `contains` for every id the fuzzer could have put there, and `count` for the whole. That is
/// what the app would decide with, after everything the deduplicator does to a load (migration,
/// merging), and it needs no third load of the file, which could repair it once more. An id the
/// set holds beyond the probed ones is one nobody consumed: `count` exposes ids whose bytes the
/// fuzzer cannot guess (a SQLite row with a flipped bit).
enum StoreFuzzTrial {
    /// The store file's name, the damage matrix's.
    static let storeName = "consumed.store"

    /// What was put on disk for one input.
    struct Placed: Equatable, Sendable {
        var input: StoreFuzzInput
        var pristine: [UInt8]
        /// The edited bytes: the file at the path, or the symbolic link's target.
        var content: [UInt8]
        /// Each mutation as applied (`bit-flip@37.2`).
        var mutations: [String]
        /// Whether this process could open the content for reading (mode 000 as root can).
        var readable: Bool
        /// What sat at the path.
        var object: StoreFileObject
    }

    /// What the two launches saw and left.
    struct Observation: Equatable, Sendable {
        /// The first launch's restore at init.
        var firstOutcome: RestoreOutcome
        /// Its restore once the app's retries of a waiting one are done, and every repair made.
        var settledOutcome: RestoreOutcome
        var firstRepairs: [StoreRepair]
        /// The push `new` navigated and its write returned without an error.
        var newAcknowledged: Bool
        var secondOutcome: RestoreOutcome
        /// `k` for every `d-k` the relaunched set knows.
        var knownConsumed: Set<Int>
        var knowsNew: Bool
        var knowsGhost: Bool
        /// Ids the relaunched set holds.
        var knownCount: Int
        var pathAfter: StoreFileObject?
        /// The symbolic link's target file afterwards, for ``StoreFuzzInput/Placement/symlinkToStore``.
        var targetAfter: StoreFileObject?
        /// Every `consumed.store.corrupt-*` beside the path and beside the link's target, by name.
        var copiesAside: [String: StoreFileObject]
    }

    static func consumedToken(_ k: Int) -> String { "d-\(k)" }

    /// The input's edited bytes and the resolved mutations.
    static func edit(_ input: StoreFuzzInput, pristine: [UInt8]) -> (content: [UInt8], mutations: [String]) {
        var bytes = pristine
        let ghost = EnvelopeID(token: input.ghostToken)
        var applied = input.edits.map { $0.apply(to: &bytes, design: input.design, records: input.ids, ghost: ghost) }
        if input.placement != .file { applied.append(input.placement.rawValue) }
        if let fault = input.fault { applied.append("fault-\(fault.step)x\(fault.times)") }
        return (bytes, applied)
    }

    /// Puts `input` in `directory` (emptied first): `store/consumed.store` is the store's path,
    /// `elsewhere/` holds a link's target.
    static func place(_ input: StoreFuzzInput, pristine: [UInt8], in directory: URL) throws -> Placed {
        let manager = FileManager.default
        try? manager.removeItem(at: directory)
        let store = try StoreDesigns.makeDirectory(directory, "store")
        let elsewhere = try StoreDesigns.makeDirectory(directory, "elsewhere")
        let path = store.appendingPathComponent(storeName).path
        let (content, mutations) = edit(input, pristine: pristine)
        switch input.placement {
        case .file, .modeZero:
            try StoreDesigns.writeFile(path, content)
            if input.placement == .modeZero { chmod(path, 0) }
        case .symlinkToStore:
            let target = elsewhere.appendingPathComponent(storeName).path
            try StoreDesigns.writeFile(target, content)
            try manager.createSymbolicLink(atPath: path, withDestinationPath: target)
        case .danglingSymlink:
            try manager.createSymbolicLink(atPath: path, withDestinationPath: elsewhere.appendingPathComponent("missing.store").path)
        case .directory:
            try manager.createDirectory(atPath: path, withIntermediateDirectories: false)
            try StoreDesigns.writeFile(path + "/kept", content)
        case .fifo:
            guard mkfifo(path, 0o600) == 0 else { throw MeasurementError.stageFailed("stores: cannot make a fifo at \(path): errno \(errno)") }
        }
        let readable = input.placement.holdsFile && access(path, R_OK) == 0
        return Placed(
            input: input, pristine: pristine, content: content, mutations: mutations, readable: readable,
            object: StoreFileObject.read(path) ?? .other)
    }

    /// Runs the two launches on what ``place(_:pristine:in:)`` put in `directory`.
    static func run(_ placed: Placed, in directory: URL) throws -> Observation {
        let path = directory.appendingPathComponent("store").appendingPathComponent(storeName)
        let faults = placed.input.fault.map { StoreFaults.failing($0.step, errno: EIO, times: $0.times) }
        let retained = 2 * StoreDamageMatrix.ids
        let first: (outcome: RestoreOutcome, settled: RestoreOutcome, repairs: [StoreRepair], newAcknowledged: Bool)
        do {
            let store = StoreDesigns.store(placed.input.design, at: path, durability: .processKill, faults: faults)
            let launched = try StoreDesigns.deduplicator(retained: retained, store: store)
            let outcome = launched.restoreOutcome
            let navigated = launched.receiveEmit(pushID: "new").navigated
            let counters = launched.counters
            // The app's retries of a restore that had to wait (protected data available, then
            // background): a store that copies damage aside at each try piles copies up.
            launched.retryRestore()
            launched.didEnterBackground()
            first = (outcome, launched.restoreOutcome, launched.storeRepairs, navigated && counters.saves > 0 && counters.failedSaves == 0)
        }
        let store = StoreDesigns.store(placed.input.design, at: path, durability: .processKill)
        let relaunched = try StoreDesigns.deduplicator(retained: retained, store: store)
        let consumed = relaunched.pipeline.consumed
        let elsewhere = directory.appendingPathComponent("elsewhere")
        return Observation(
            firstOutcome: first.outcome, settledOutcome: first.settled, firstRepairs: first.repairs,
            newAcknowledged: first.newAcknowledged, secondOutcome: relaunched.restoreOutcome,
            knownConsumed: Set((0..<placed.input.ids).filter { consumed.contains(EnvelopeID(token: consumedToken($0))) }),
            knowsNew: consumed.contains(EnvelopeID(token: "new")),
            knowsGhost: consumed.contains(EnvelopeID(token: placed.input.ghostToken)),
            knownCount: consumed.count,
            pathAfter: StoreFileObject.read(path.path),
            targetAfter: placed.input.placement == .symlinkToStore ? StoreFileObject.read(elsewhere.appendingPathComponent(storeName).path) : nil,
            copiesAside: copies(in: [path.deletingLastPathComponent(), elsewhere]))
    }

    /// The copies aside of the store's file in `directories`, by `directory/name`.
    static func copies(in directories: [URL]) -> [String: StoreFileObject] {
        var copies: [String: StoreFileObject] = [:]
        for directory in directories {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for name in names where name.hasPrefix(storeName + ".corrupt-") {
                copies[directory.lastPathComponent + "/" + name] = StoreFileObject.read(directory.appendingPathComponent(name).path)
            }
        }
        return copies
    }
}
