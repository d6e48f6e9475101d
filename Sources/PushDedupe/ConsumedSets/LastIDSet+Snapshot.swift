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
        var reader = try _SnapshotReader(snapshot, strategyID: Self.strategyID)
        let evictions = try reader.readInteger()
        let ids = try reader.readIDs(limit: 1)
        try reader.finish()
        self = try Self._empty(configuration)
        _replay(ids)
        _evictions = evictions
    }
}
