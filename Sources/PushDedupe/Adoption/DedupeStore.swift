import struct Foundation.URL

/// Where a deduplicator keeps its consumed set across launches, and how: nowhere (``none``), or a
/// file of one of the four store designs (`Guides/Stores.md`).
///
/// ```swift
/// let support = try FileManager.default.url(
///     for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil, create: true)
/// let dedupe = MainActorDeduplicator(preset: RecommendedPreset.v3, store: .journal(support.appendingPathComponent("consumed-routes.pdcs")))
/// ```
///
/// iOS kills a suspended app without notice, so every design records a consume before the call
/// that made it returns (the snapshot design: as its ``SavingPolicy`` says). At init the
/// deduplicator restores the file and reports what it found in `restoreOutcome`; a file it cannot
/// read now is left alone and read again later, a newer version's file is never written, and a
/// file it cannot use is moved aside, never deleted.
///
/// **Where the file lives.** In Application Support (not purged like Caches; backed up with the
/// app unless excluded with `isExcludedFromBackup`, which suits a set that only matters on this
/// device), or, when a Notification Service Extension must see the same set, in the App Group
/// container both targets share (`FileManager.containerURL(forSecurityApplicationGroupIdentifier:)`).
/// Every design but ``snapshot(_:saving:durability:protection:faults:)`` keeps both processes'
/// ids.
public struct DedupeStore: Sendable {
    /// The store designs, by their report ids.
    public enum Design: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// ``SnapshotStore``: the whole set per save.
        case snapshot
        /// ``JournalStore``: one appended record per consume.
        case journal
        /// ``MappedJournalStore``: one record copied into a shared memory map per consume.
        case mappedJournal = "mapped-journal"
        /// ``SQLiteStore``: one row per consume in a WAL-mode database.
        case sqlite

        public var description: String { rawValue }
    }

    /// When the snapshot design writes the set. The journal designs record every consume.
    public enum SavingPolicy: String, Sendable, Hashable, CaseIterable {
        /// After every consume that changed the set, before the call returns: nothing navigated
        /// is lost at a kill.
        case afterEveryConsume
        /// Only at `didEnterBackground()` (and `save()`): whatever navigated after the last
        /// background is lost when the app is killed without going there.
        case onBackground
        /// Only when the app calls `save()`, for apps that batch.
        case manual
    }

    /// The file, or `nil` for ``none``.
    public let url: URL?
    public let design: Design
    /// When the set is written (``Design/snapshot`` only; the others record every consume).
    public let saving: SavingPolicy
    public let durability: StoreDurability
    public let protection: StoreFileProtection
    let faults: StoreFaults?

    /// Nothing is restored or saved: the set lives and dies with the process.
    public static let none = DedupeStore(
        url: nil, design: .snapshot, saving: .manual, durability: .processKill, protection: .completeUntilFirstUserAuthentication,
        faults: nil)

    /// The whole set's snapshot at `url`, written as `saving` says (``SnapshotStore``).
    public static func snapshot(
        _ url: URL, saving: SavingPolicy = .afterEveryConsume, durability: StoreDurability = .processKill,
        protection: StoreFileProtection = .completeUntilFirstUserAuthentication, faults: StoreFaults? = nil
    ) -> DedupeStore {
        DedupeStore(url: url, design: .snapshot, saving: saving, durability: durability, protection: protection, faults: faults)
    }

    /// An append-only journal at `url` (``JournalStore``).
    public static func journal(
        _ url: URL, durability: StoreDurability = .processKill,
        protection: StoreFileProtection = .completeUntilFirstUserAuthentication, faults: StoreFaults? = nil
    ) -> DedupeStore {
        DedupeStore(url: url, design: .journal, saving: .afterEveryConsume, durability: durability, protection: protection, faults: faults)
    }

    /// A memory-mapped journal at `url` (``MappedJournalStore``), whose protection class cannot
    /// be `complete` (``MappedFileProtection``).
    public static func mappedJournal(
        _ url: URL, durability: StoreDurability = .processKill,
        protection: MappedFileProtection = .completeUntilFirstUserAuthentication, faults: StoreFaults? = nil
    ) -> DedupeStore {
        DedupeStore(
            url: url, design: .mappedJournal, saving: .afterEveryConsume, durability: durability,
            protection: protection.fileProtection, faults: faults)
    }

    /// A WAL-mode SQLite database at `url` (``SQLiteStore``).
    public static func sqlite(
        _ url: URL, durability: StoreDurability = .processKill,
        protection: StoreFileProtection = .completeUntilFirstUserAuthentication, faults: StoreFaults? = nil
    ) -> DedupeStore {
        DedupeStore(url: url, design: .sqlite, saving: .afterEveryConsume, durability: durability, protection: protection, faults: faults)
    }

    /// Opens the design's store for a set that retains `retained` ids; `nil` for ``none``.
    public func open(retaining retained: Int) -> (any ConsumedStore)? {
        guard let url else { return nil }
        switch design {
        case .snapshot:
            return SnapshotStore(url: url, durability: durability, protection: protection, faults: faults)
        case .journal:
            return JournalStore(url: url, retained: retained, durability: durability, protection: protection, faults: faults)
        case .mappedJournal:
            // `mappedJournal(_:…)` only takes mappable classes; `complete` cannot reach here.
            let mappable = MappedFileProtection(rawValue: protection.rawValue) ?? .completeUntilFirstUserAuthentication
            return MappedJournalStore(url: url, retained: retained, durability: durability, protection: mappable, faults: faults)
        case .sqlite:
            return SQLiteStore(url: url, retained: retained, durability: durability, protection: protection, faults: faults)
        }
    }
}
