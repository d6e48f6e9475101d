extension DirectMappedSet: SnapshottableConsumedSet {
    /// The evictions so far and the occupied slots' ids, in slot order.
    ///
    /// - Complexity: O(slots).
    public func snapshot() -> [UInt8] {
        var writer = _SnapshotWriter(reservingCapacity: 16 * _count + 16)
        writer.write(count: _evictions)
        writer.write(ids: _ids.indices.lazy.filter { self._occupied[$0 >> 6] & (1 << UInt64($0 & 63)) != 0 }.map { self._ids[$0] })
        return writer.finished(strategyID: Self.strategyID)
    }

    /// Rebuilds the table at `configuration.capacity`: each id goes back to its hash's slot (in
    /// a smaller table, ids that now share a slot keep the later one, counted as evictions).
    ///
    /// - Complexity: O(slots + ids held).
    public init(snapshot: [UInt8], configuration: ConsumedSetConfiguration) throws(SnapshotError) {
        let (evictions, ids) = try _SnapshotReader.evictionsAndIDs(snapshot, strategyID: Self.strategyID)
        self = try Self._empty(configuration)
        try _replayDistinct(ids)
        _evictions &+= evictions
    }
}

extension DirectMappedSet: _IDListSnapshot {
    static func _snapshotIDs(_ snapshot: [UInt8]) throws(SnapshotError) -> [EnvelopeID] {
        try _SnapshotReader.evictionsAndIDs(snapshot, strategyID: strategyID).ids
    }
}
