extension FIFOSet: SnapshottableConsumedSet {
    /// The evictions so far and the retained ids, oldest first.
    ///
    /// - Complexity: O(`count`).
    public func snapshot() -> [UInt8] {
        var writer = _SnapshotWriter(reservingCapacity: 16 * _count + 16)
        writer.write(count: _evictions)
        let capacity = _geometry.capacity
        let oldest = _count < capacity ? 0 : _next
        _withStorage { _, ring in writer.write(ids: (0..<_count).lazy.map { ring[(oldest + $0) % capacity] }) }
        return writer.finished(strategyID: Self.strategyID)
    }

    /// Rebuilds the set at `configuration.capacity` by accepting the ids oldest first; a smaller
    /// capacity forgets the oldest, counted as evictions.
    ///
    /// - Complexity: O(`capacity` + ids held).
    public init(snapshot: [UInt8], configuration: ConsumedSetConfiguration) throws(SnapshotError) {
        let (evictions, ids) = try _SnapshotReader.evictionsAndIDs(snapshot, strategyID: Self.strategyID)
        self = try Self._empty(configuration)
        try _replayDistinct(ids)
        _evictions &+= evictions
    }
}

extension FIFOSet: _IDListSnapshot {
    static func _snapshotIDs(_ snapshot: [UInt8]) throws(SnapshotError) -> [EnvelopeID] {
        try _SnapshotReader.evictionsAndIDs(snapshot, strategyID: strategyID).ids
    }
}
