import DedupeMeasurement
import Foundation
import PushDedupe

/// One store instance as the explorer drives it: an app launch (or its extension's) that
/// restored the file, consumes ids, and says which it acknowledged.
protocol StoreExplorerInstance: AnyObject {
    /// Why the restore at launch did not read the file, or `nil`.
    var restoreFailure: String? { get }
    /// The last store error, or `nil`.
    var storeFailure: String? { get }
    /// Consumes `token`; whether the call returned with the id written (acknowledged).
    func consume(_ token: String) -> Bool
    func knows(_ token: String) -> Bool
    /// Ids the instance holds.
    var knownCount: Int { get }
}

/// What the explorer explores: a way to launch an instance on a file, and what its contract
/// promises.
struct StoreExplorerSubject: Sendable {
    let name: String
    /// Whether simulated kills apply: SQLite's descriptors are its own, and its POSIX locks are
    /// the process's, so a kill of one connection cannot be simulated in-process.
    let kills: Bool
    /// Whether two instances on one file lose nothing (every design but the snapshot's, which
    /// only promises that the last acknowledged save survives).
    let sharesFile: Bool
    /// Whether a damaged header's valid records are salvaged (the journals).
    let salvagesRecords: Bool
    let scenarios: [StoreExplorerScenario]
    /// Launches an instance retaining `retained` ids on the file at `url`.
    let launch: @Sendable (_ url: URL, _ retained: Int, _ faults: StoreFaults) throws -> any StoreExplorerInstance
    /// Writes the scenario's file before a schedule.
    let prepare: @Sendable (_ scenario: StoreExplorerScenario, _ url: URL) throws -> Void

    /// A store design driven through ``SharedDeduplicator``, so the real restore, migration and
    /// append code runs.
    static func design(_ design: DedupeStore.Design) -> StoreExplorerSubject {
        StoreExplorerSubject(
            name: design.rawValue, kills: design != .sqlite, sharesFile: design != .snapshot,
            salvagesRecords: design == .journal || design == .mappedJournal, scenarios: StoreExplorerScenario.all,
            launch: { url, retained, faults in
                try DeduplicatorInstance(retained: retained, store: store(design, url, faults: faults))
            },
            prepare: { scenario, url in try prepare(design, scenario, url) })
    }

    static let designs = DedupeStore.Design.allCases.map(design)

    private static func store(_ design: DedupeStore.Design, _ url: URL, faults: StoreFaults?) -> DedupeStore {
        switch design {
        case .snapshot: .snapshot(url, faults: faults)
        case .journal: .journal(url, faults: faults)
        case .mappedJournal: .mappedJournal(url, faults: faults)
        case .sqlite: .sqlite(url, faults: faults)
        }
    }

    private static func prepare(_ design: DedupeStore.Design, _ scenario: StoreExplorerScenario, _ url: URL) throws {
        func consumeSeeds(on store: DedupeStore) throws {
            let seeding = try DeduplicatorInstance(retained: scenario.retained, store: store)
            for seed in scenario.seeds where !seeding.consume(seed) {
                throw MeasurementError.stageFailed("store explorer: cannot seed \(seed): \(seeding.storeFailure ?? "")")
            }
        }
        switch scenario.seeding {
        case .none: break
        case .v2Snapshot: try consumeSeeds(on: .snapshot(url))
        case .designFile: try consumeSeeds(on: store(design, url, faults: nil))
        case .damagedHeader:
            try consumeSeeds(on: store(design, url, faults: nil))
            guard var bytes = FileManager.default.contents(atPath: url.path).map(Array.init), !bytes.isEmpty else {
                throw MeasurementError.stageFailed("store explorer: no file to damage at \(url.lastPathComponent)")
            }
            bytes[0] ^= 0xff
            try StoreDesigns.writeFile(url.path, bytes)
        }
    }
}

/// A ``SharedDeduplicator`` on a manual clock (a restore that had to wait is retried only when
/// the explorer says, never by time).
final class DeduplicatorInstance: StoreExplorerInstance {
    let dedupe: StoreDesigns.Deduplicator

    init(retained: Int, store: DedupeStore) throws {
        dedupe = try StoreDesigns.Deduplicator(
            window: HashDequeWindow(preset: .compact), consumed: ConsumedSetConfiguration(capacity: retained), store: store,
            clock: .manual(ManualClock()))
    }

    var restoreFailure: String? {
        switch dedupe.restoreOutcome {
        case .pending(let error), .leftUntouched(let error): "\(error)"
        case .notPersisted, .nothingStored, .restored, .migrated, .movedAside: nil
        }
    }

    var storeFailure: String? { dedupe.lastStoreError.map { "\($0)" } }

    func consume(_ token: String) -> Bool {
        let saves = dedupe.counters.saves
        return dedupe.receiveEmit(pushID: token) == .navigated && dedupe.counters.saves > saves && !dedupe.hasUnsavedChanges
    }

    func knows(_ token: String) -> Bool { dedupe.pipeline.consumed.contains(EnvelopeID(token: token)) }

    var knownCount: Int { dedupe.pipeline.consumed.count }
}

/// The file a schedule starts from and what each instance does.
struct StoreExplorerScenario: Sendable, Hashable {
    enum Seeding: Sendable, Hashable {
        case none
        /// A v2 app's FIFO set snapshot of the seeds at the store's path.
        case v2Snapshot
        /// The design's own file holding the seeds.
        case designFile
        /// The design's file holding the seeds, its first byte flipped.
        case damagedHeader
    }

    let name: String
    let retained: Int
    /// Ids in the file before the schedule, oldest first.
    let seeds: [String]
    let seeding: Seeding
    /// The ids each instance consumes after its launch's restore.
    let programs: [[String]]
    /// The instance each one launches after (its predecessor's end, by exit or kill), if any.
    let launchesAfter: [Int?]
    /// A cap on the preemption bound, for scenarios whose programs are longer.
    let maximumPreemptions: Int

    var instances: Int { programs.count }

    static let fresh = StoreExplorerScenario(
        name: "fresh", retained: 4, seeds: [], seeding: .none, programs: [["a1"], ["b1"]], launchesAfter: [nil, nil],
        maximumPreemptions: 3)
    static let migration = StoreExplorerScenario(
        name: "migration", retained: 4, seeds: ["s1", "s2"], seeding: .v2Snapshot, programs: [["a1"], ["b1"]],
        launchesAfter: [nil, nil], maximumPreemptions: 3)
    static let salvage = StoreExplorerScenario(
        name: "salvage", retained: 4, seeds: ["s1", "s2"], seeding: .damagedHeader, programs: [["a1"], ["b1"]],
        launchesAfter: [nil, nil], maximumPreemptions: 3)
    /// The file holds one record fewer than a journal compacts at (2 × retained), and SQLite's
    /// next row id is a multiple of retained.
    static let compaction = StoreExplorerScenario(
        name: "compaction", retained: 2, seeds: ["s1", "s2", "s3"], seeding: .designFile, programs: [["a1"], ["b1"]],
        launchesAfter: [nil, nil], maximumPreemptions: 3)
    /// The app (A) consumes two ids while its extension (C) consumes one; the app relaunches
    /// (B) once A has ended, by a kill or not.
    static let restart = StoreExplorerScenario(
        name: "restart", retained: 4, seeds: [], seeding: .none, programs: [["a1", "a2"], ["b1"], ["c1"]],
        launchesAfter: [nil, 0, nil], maximumPreemptions: 1)

    static let all = [fresh, migration, salvage, compaction, restart]

    /// Whether the seeds are the file's to keep: a v2 snapshot's, valid records in a damaged
    /// journal's, or a file of the design's own.
    func seedsRequired(by subject: StoreExplorerSubject) -> Bool {
        switch seeding {
        case .none: false
        case .v2Snapshot, .designFile: true
        case .damagedHeader: subject.salvagesRecords
        }
    }

    static func instanceName(_ instance: Int) -> String { String(UnicodeScalar(UInt8(ascii: "A") + UInt8(instance))) }
}
