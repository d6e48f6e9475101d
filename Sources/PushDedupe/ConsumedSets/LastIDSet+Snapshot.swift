extension LastIDSet: SnapshottableConsumedSet {
    /// The evictions so far and the id in the slot, if any.
    ///
    /// - Complexity: O(1).
    public func snapshot() -> [UInt8] {
        var writer = _SnapshotWriter()
        writer.write(count: _evictions)
        writer.write(ids: _holdsID ? [_last] : [])
        return writer.finished(strategyID: Self.strategyID)
    }

    /// Restores the slot; `configuration` is ignored, as by `init(configuration:)`.
    ///
    /// - Complexity: O(1).
    public init(snapshot: [UInt8], configuration: ConsumedSetConfiguration) throws(SnapshotError) {
        let (evictions, ids) = try _SnapshotReader.evictionsAndIDs(snapshot, strategyID: Self.strategyID, limit: 1)
        self = try Self._empty(configuration)
        _replay(ids)
        _evictions = evictions
    }
}

extension LastIDSet: _IDListSnapshot {
    static func _snapshotIDs(_ snapshot: [UInt8]) throws(SnapshotError) -> [EnvelopeID] {
        try _SnapshotReader.evictionsAndIDs(snapshot, strategyID: strategyID, limit: 1).ids
    }
}
