/// An evicting exact set (`bounded-lru`, `direct-mapped`, `fifo-set`, `last-id`, `recent-ids`)
/// whose snapshot is its eviction count, then its retained ids in the order that rebuilds it:
/// the format, the restore and the migration source are written once here, and each set says
/// only how it lists its ids.
protocol _EvictionsAndIDsSnapshot: _IDListSnapshot {
    var _evictions: Int { get set }

    /// Writes the retained ids, in the order that consuming them rebuilds the set.
    func _writeRetainedIDs(to writer: inout _SnapshotWriter)

    /// The most ids a snapshot of this set may list.
    static var _snapshotIDLimit: Int { get }
}

extension _EvictionsAndIDsSnapshot {
    static var _snapshotIDLimit: Int { .max }

    /// The evictions so far and the retained ids, in the order that rebuilds the set (oldest or
    /// least recently used first, or in slot order).
    ///
    /// - Complexity: O(`count`), or O(slots) for a table.
    public func snapshot() -> [UInt8] {
        var writer = _SnapshotWriter(reservingCapacity: 16 * count + 16)
        writer.write(count: _evictions)
        _writeRetainedIDs(to: &writer)
        return writer.finished(strategyID: Self.strategyID)
    }

    /// Rebuilds the set at `configuration.capacity` by consuming the ids in their stored order; a
    /// smaller capacity forgets the earliest (or, in a table, those that now share a slot keep
    /// the later one), counted as evictions.
    ///
    /// - Complexity: O(`capacity` + ids held × `consume`).
    public init(snapshot: [UInt8], configuration: ConsumedSetConfiguration) throws(SnapshotError) {
        let (evictions, ids) = try _SnapshotReader.evictionsAndIDs(
            snapshot, strategyID: Self.strategyID, limit: Self._snapshotIDLimit)
        self = try Self._empty(configuration)
        try _replayDistinct(ids)
        _evictions &+= evictions
    }

    static func _snapshotIDs(_ snapshot: [UInt8]) throws(SnapshotError) -> [EnvelopeID] {
        try _SnapshotReader.evictionsAndIDs(snapshot, strategyID: strategyID, limit: _snapshotIDLimit).ids
    }
}
