/// What a deduplicator's store held, for the app to log: at init, and again after a restore
/// that had to wait (``pending(_:)``) succeeds.
public enum RestoreOutcome: Sendable, Equatable, CustomStringConvertible {
    /// The store is ``DedupeStore/none``: nothing to restore.
    case notPersisted
    /// No file yet (the first launch, or the file was deleted).
    case nothingStored
    /// The store's own ids (for a filter's snapshot, insertions), `ids` held now.
    case restored(ids: Int)
    /// A snapshot another exact strategy wrote (an earlier preset version), whose ids were
    /// re-inserted in their stored order; `ids` held now.
    case migrated(from: String, ids: Int)
    /// The file could not be read yet (locked by Data Protection, an I/O error, too many open
    /// files). It is left alone: the set works in memory, and the restore is retried after a
    /// back-off at the next consume, at `retryRestore()` and at background; what it then reads
    /// is merged with what was consumed meanwhile.
    case pending(StoreError)
    /// A newer version's file: left untouched, and never written by this version.
    case leftUntouched(StoreError)
    /// The file could not be used (corrupt, or a set that cannot migrate); it was moved aside,
    /// never deleted, and the set started empty.
    case movedAside(StoreRepair)

    /// Whether the set started from the store's contents.
    public var isRestored: Bool {
        switch self {
        case .restored, .migrated: true
        case .notPersisted, .nothingStored, .pending, .leftUntouched, .movedAside: false
        }
    }

    public var description: String {
        switch self {
        case .notPersisted: "not persisted"
        case .nothingStored: "nothing stored"
        case .restored(let ids): "restored \(ids) ids"
        case .migrated(let strategy, let ids): "migrated \(ids) ids from \(strategy)"
        case .pending(let error): "pending: \(error)"
        case .leftUntouched(let error): "left untouched: \(error)"
        case .movedAside(let repair): "\(repair)"
        }
    }
}
