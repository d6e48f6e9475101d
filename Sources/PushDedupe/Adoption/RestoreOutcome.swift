/// What a deduplicator found in its store at init, for the app to log.
///
/// Every outcome but ``restored(ids:)`` and ``migrated(from:ids:)`` starts an empty set: a
/// snapshot that cannot be trusted whole is never partly used.
public enum RestoreOutcome: Sendable, Equatable, CustomStringConvertible {
    /// The store is ``DedupeStore/none``: nothing to restore.
    case notPersisted
    /// No file yet (the first launch, or the file was deleted).
    case noSnapshot
    /// The snapshot this strategy wrote, now holding `ids` ids (for a filter, insertions).
    case restored(ids: Int)
    /// A snapshot another exact strategy wrote (e.g. an earlier preset version), whose ids were
    /// re-inserted in their stored order; `ids` are held now.
    case migrated(from: String, ids: Int)
    /// A file that cannot be used; the set starts empty, and the next save replaces the file.
    case discarded(DiscardReason)

    /// Why a file was not used.
    public enum DiscardReason: Sendable, Equatable, CustomStringConvertible {
        /// The file has no bytes.
        case emptyFile
        /// The file could not be read (permissions, I/O); the file system's message.
        case unreadable(String)
        /// The bytes are not a usable snapshot: truncated, corrupt (checksum), not a snapshot,
        /// another format version (older or newer), another strategy that cannot migrate, or one
        /// the configuration cannot hold. `error.kind` says which.
        case invalidSnapshot(SnapshotError)

        public var description: String {
            switch self {
            case .emptyFile: "the file is empty"
            case .unreadable(let reason): "the file cannot be read: \(reason)"
            case .invalidSnapshot(let error): "\(error)"
            }
        }
    }

    /// Whether the set started from the file's contents.
    public var isRestored: Bool {
        switch self {
        case .restored, .migrated: true
        case .notPersisted, .noSnapshot, .discarded: false
        }
    }

    public var description: String {
        switch self {
        case .notPersisted: "not persisted"
        case .noSnapshot: "no snapshot"
        case .restored(let ids): "restored \(ids) ids"
        case .migrated(let strategy, let ids): "migrated \(ids) ids from \(strategy)"
        case .discarded(let reason): "discarded: \(reason)"
        }
    }
}
