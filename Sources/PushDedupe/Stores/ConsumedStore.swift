/// Layer 2's store: how the ids a router consumed are kept across launches, so that a push
/// handed back after iOS killed the app is still known.
///
/// A deduplicator owns one store and calls it from one isolation domain (the main actor, or
/// under ``SharedDeduplicator``'s lock); the app and its Notification Service Extension may each
/// hold a store on the same file. The contract every design meets (`Guides/Stores.md`):
///
/// - **Acknowledged means kept.** When ``append(_:snapshot:)`` returns, the ids it was given
///   survive a SIGKILL of the process at any moment (and a power cut, with
///   ``StoreDurability/powerLoss``).
/// - **Two processes lose nothing** (every design but `snapshot`, whose whole-state writes are
///   last-writer-wins): a lock is held only around one write, never while the app can be
///   suspended.
/// - **Nothing unread is overwritten.** ``load()`` throws a transient ``StoreError`` for a file
///   it cannot read now, leaves a newer version's file (and anything but a regular file at the
///   path) untouched, and moves a file it cannot use aside under a `.corrupt-N` name, never
///   deleting it. Every change of which file the path names is a compare-and-swap against what
///   the store read, so one store never replaces another's acknowledged writes.
///
/// Designs: ``SnapshotStore`` (the whole set per write, the baseline), ``JournalStore`` (one
/// `write(2)` per consume), ``MappedJournalStore`` (a copy into a shared memory map), and
/// ``SQLiteStore`` (a WAL-mode database).
public protocol ConsumedStore: AnyObject {
    /// The stable kebab-case design id used in reports, e.g. `journal`.
    static var designID: String { get }
    /// The store's file.
    var path: String { get }
    /// What a returned ``append(_:snapshot:)`` has survived.
    var durability: StoreDurability { get }
    /// Whether a write replaces what the store holds (the snapshot design): such a store must
    /// not be written before a ``load()`` succeeded, or it would overwrite ids it never read.
    var writesWholeState: Bool { get }
    /// What the store holds, oldest first.
    ///
    /// - Throws: ``StoreError``: `.unreadable` (transient: retry later; nothing was changed),
    ///   `.newerVersion` (the file is left untouched and the store will not write it).
    /// - Complexity: O(size of the file).
    func load() throws(StoreError) -> StoreLoad
    /// Records `ids`, just consumed, before returning; `snapshot` gives the whole set's bytes
    /// to a design that writes whole state.
    ///
    /// - Complexity: O(`ids.count`) plus the design's system calls; O(size of the set) for the
    ///   snapshot design, and amortized O(1) per id for a journal's compaction.
    func append(_ ids: [EnvelopeID], snapshot: () -> [UInt8]) throws(StoreError)
    /// Replaces the file the last ``load()`` read with one holding `ids` (oldest first) or, for
    /// the snapshot design, `snapshot()`: a migration from another format. A compare-and-swap:
    /// it writes only if the path still names that file, unchanged.
    ///
    /// - Throws: ``StoreError/Kind/changedSinceRead`` when another store changed the file since
    ///   the load (or nothing was loaded since the last replace); nothing was written, and the
    ///   caller loads again.
    func replace(with ids: [EnvelopeID], snapshot: () -> [UInt8]) throws(StoreError)
    /// Moves the file the last ``load()`` read aside under a `.corrupt-N` name, never deleting
    /// it: for a file whose contents the deduplicator cannot use (a snapshot of a strategy it
    /// cannot migrate from). A compare-and-swap, as ``replace(with:snapshot:)``.
    func moveAside(reason: String) throws(StoreError) -> StoreRepair
    /// Bytes written to files since the store opened, compactions included.
    var bytesWritten: Int { get }
    /// Compactions since the store opened.
    var compactions: Int { get }
}

/// What a store held at ``ConsumedStore/load()``.
public enum StoredConsumes: Sendable, Equatable {
    /// No file yet.
    case nothing
    /// Consumed ids, oldest first.
    case ids([EnvelopeID])
    /// A consumed set's snapshot (`Guides/Snapshots.md`): the snapshot design's file, or an
    /// earlier version's snapshot at a journal's path, which the deduplicator migrates.
    case snapshot([UInt8])
}

/// A load's contents and what recovery had to do to read them.
public struct StoreLoad: Sendable, Equatable {
    public var contents: StoredConsumes
    /// Repairs made while reading, in order; empty for a clean file.
    public var repairs: [StoreRepair]

    public init(_ contents: StoredConsumes, repairs: [StoreRepair] = []) {
        self.contents = contents
        self.repairs = repairs
    }
}

/// One repair a store made while reading its file. None loses an acknowledged id: a torn tail is
/// a write that never returned, and damaged records are copied aside before they are skipped.
public enum StoreRepair: Sendable, Equatable, CustomStringConvertible {
    /// A partial or unwritten record at the end (a write a kill interrupted) was cut off.
    case truncatedTornTail(bytes: Int)
    /// Whole records in the middle failed their checksum and were skipped; the file was first
    /// copied to `copy` (once per distinct damaged file).
    case skippedDamagedRecords(count: Int, copy: String)
    /// The file's header could not be used: it was moved, or copied, to `movedTo`, and the
    /// valid records `reason` counts were salvaged (none: the store starts empty).
    case movedAside(movedTo: String, reason: String)

    public var description: String {
        switch self {
        case .truncatedTornTail(let bytes): "truncated a torn tail of \(bytes) bytes"
        case .skippedDamagedRecords(let count, let copy): "skipped \(count) damaged record(s), copied the file to \(copy)"
        case .movedAside(let path, let reason): "moved the file aside to \(path): \(reason)"
        }
    }
}
