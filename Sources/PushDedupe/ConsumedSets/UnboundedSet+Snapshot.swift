extension UnboundedSet: SnapshottableConsumedSet {
    /// The ids, sorted so that the bytes do not depend on `Set`'s per-process seeded order.
    ///
    /// - Complexity: O(*n* log *n*).
    public func snapshot() -> [UInt8] {
        var writer = _SnapshotWriter(reservingCapacity: 16 * _ids.count + 16)
        writer.write(ids: _ids.sorted { ($0.high, $0.low) < ($1.high, $1.low) })
        return writer.finished(strategyID: Self.strategyID)
    }

    /// Rebuilds the set, reserving the larger of `configuration.capacity` and the ids held.
    ///
    /// - Complexity: O(*n*).
    public init(snapshot: [UInt8], configuration: ConsumedSetConfiguration) throws(SnapshotError) {
        let ids = try Self._snapshotIDs(snapshot)
        var configuration = configuration
        configuration.capacity = Swift.max(configuration.capacity, ids.count)
        self = try Self._empty(configuration)
        try _replayDistinct(ids)
    }
}

extension UnboundedSet: _IDListSnapshot {
    static func _snapshotIDs(_ snapshot: [UInt8]) throws(SnapshotError) -> [EnvelopeID] {
        var reader = try _SnapshotReader(snapshot, strategyID: strategyID)
        let ids = try reader.readIDs()
        try reader.finish()
        return ids
    }
}
