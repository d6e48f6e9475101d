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
