/// A consumed set that can write its state to bytes and be rebuilt from them, so that what it
/// remembers survives the app's process being killed.
///
/// The app chooses the store (a file, `UserDefaults`); the library only turns state into bytes
/// and back, in the versioned format of `Guides/Snapshots.md`: a header naming the strategy, the
/// strategy's payload, and a checksum. Restoring validates everything before it builds the set:
/// a truncated, corrupt or foreign snapshot throws ``SnapshotError``, never traps and never
/// yields a silently empty set.
///
/// ```swift
/// var consumed = try FIFOSet(configuration: configuration)
/// if let saved = store.load() {
///     consumed = try FIFOSet(snapshot: saved, configuration: configuration)
/// }
/// // … before the app may be suspended:
/// store.save(consumed.snapshot())
/// ```
///
/// Exact sets write their retained ids compactly and are rebuilt by replaying them in order, so
/// they may be restored into another capacity (a smaller one forgets the oldest ids, counted as
/// evictions). Filters write their arrays word for word and must be restored with the
/// configuration that sized them.
public protocol SnapshottableConsumedSet: ConsumedSet {
    /// The set's whole state, as bytes.
    ///
    /// - Complexity: O(size of the state): the retained ids of an exact set, the arrays of a
    ///   filter.
    func snapshot() -> [UInt8]

    /// Rebuilds a set from `snapshot`, with `configuration` for what the snapshot does not hold.
    ///
    /// - Throws: ``SnapshotError`` for a truncated or corrupt snapshot, one of another strategy
    ///   or format version, or one a set of `configuration` cannot hold.
    /// - Complexity: O(size of the state).
    init(snapshot: [UInt8], configuration: ConsumedSetConfiguration) throws(SnapshotError)
}

extension SnapshottableConsumedSet {
    /// Restores `snapshot` whichever set wrote it: as `init(snapshot:configuration:)` when this
    /// strategy did, and otherwise by consuming the stored ids, in their stored order, into an
    /// empty set of `configuration`, when both strategies hold their ids (every set but the
    /// filters). So an app that moves from one exact pair to another keeps what its users
    /// already navigated to.
    ///
    /// ```swift
    /// let saved = lru.snapshot()                                     // written by bounded-lru
    /// let fifo = try FIFOSet(migrating: saved, configuration: .init(capacity: 448))
    /// ```
    ///
    /// The order is the one each strategy writes (oldest or least recently used first, so a
    /// smaller target forgets the oldest, counted as evictions); eviction counts and times are
    /// not carried over.
    ///
    /// - Throws: ``SnapshotError``: `incompatibleStrategy`, naming both strategies, when either
    ///   is a filter (bits cannot give back the ids, and ids cannot rebuild another filter's bits
    ///   faithfully); otherwise what `init(snapshot:configuration:)` throws.
    /// - Complexity: O(size of the state + ids × the target's `consume`).
    public init(migrating snapshot: [UInt8], configuration: ConsumedSetConfiguration) throws(SnapshotError) {
        let stored = try _SnapshotReader(framing: snapshot).storedStrategyID
        if stored == Self.strategyID {
            try self.init(snapshot: snapshot, configuration: configuration)
            return
        }
        guard Self.self is any _IDListSnapshot.Type, let source = _IDListSnapshots.strategy(named: stored) else {
            throw .incompatibleStrategy(stored: stored, requested: Self.strategyID)
        }
        let ids = try source._snapshotIDs(snapshot)
        self = try Self._empty(configuration)
        _replay(ids)
    }
}
