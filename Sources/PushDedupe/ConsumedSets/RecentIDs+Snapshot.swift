extension RecentIDs: SnapshottableConsumedSet {
    /// The evictions so far and the retained ids, oldest first.
    ///
    /// - Complexity: O(`count`).
    public func snapshot() -> [UInt8] {
        var writer = _SnapshotWriter(reservingCapacity: 16 * _count + 16)
        writer.write(count: _evictions)
        writer.write(ids: _idsOldestFirst)
        return writer.finished(strategyID: Self.strategyID)
    }

    /// Rebuilds the array at `configuration.capacity` by accepting the ids oldest first; a
    /// smaller capacity forgets the oldest, counted as evictions.
    ///
    /// - Complexity: O(`capacity` · ids held).
    public init(snapshot: [UInt8], configuration: ConsumedSetConfiguration) throws(SnapshotError) {
        let (evictions, ids) = try _SnapshotReader.evictionsAndIDs(snapshot, strategyID: Self.strategyID, limit: Self.maximumCapacity)
        self = try Self._empty(configuration)
        try _replayDistinct(ids)
        _evictions &+= evictions
    }
}

extension RecentIDs: _IDListSnapshot {
    static func _snapshotIDs(_ snapshot: [UInt8]) throws(SnapshotError) -> [EnvelopeID] {
        try _SnapshotReader.evictionsAndIDs(snapshot, strategyID: strategyID, limit: Self.maximumCapacity).ids
    }
}
