extension BoundedLRU: SnapshottableConsumedSet {
    /// The evictions so far and the retained ids, least recently used first.
    ///
    /// - Complexity: O(`count`).
    public func snapshot() -> [UInt8] {
        var writer = _SnapshotWriter(reservingCapacity: 16 * _count + 16)
        writer.write(count: _evictions)
        var order: [EnvelopeID] = []
        order.reserveCapacity(_count)
        var slot = _oldest
        while slot >= 0 {
            order.append(_ids[Int(slot)])
            slot = _links[Int(slot)].newer
        }
        writer.write(ids: order)
        return writer.finished(strategyID: Self.strategyID)
    }

    /// Rebuilds the set at `configuration.capacity` by consuming the ids in recency order; a
    /// smaller capacity forgets the least recently used, counted as evictions.
    ///
    /// - Complexity: O(`capacity` + ids held).
    public init(snapshot: [UInt8], configuration: ConsumedSetConfiguration) throws(SnapshotError) {
        let (evictions, ids) = try _SnapshotReader.evictionsAndIDs(snapshot, strategyID: Self.strategyID)
        self = try Self._empty(configuration)
        try _replayDistinct(ids)
        _evictions &+= evictions
    }
}

extension BoundedLRU: _IDListSnapshot {
    static func _snapshotIDs(_ snapshot: [UInt8]) throws(SnapshotError) -> [EnvelopeID] {
        try _SnapshotReader.evictionsAndIDs(snapshot, strategyID: strategyID).ids
    }
}
