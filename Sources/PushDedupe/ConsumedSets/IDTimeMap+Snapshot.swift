extension IDTimeMap: SnapshottableConsumedSet {
    /// The latest time, then every id with its last sighting, in first-sighting order.
    ///
    /// - Complexity: O(`count`).
    public func snapshot() -> [UInt8] {
        var writer = _SnapshotWriter(reservingCapacity: 26 * _ids.count + 16)
        writer.write(time: _latest)
        writer.write(ids: _ids)
        for time in _lastSeen { writer.write(time: time) }
        return writer.finished(strategyID: Self.strategyID)
    }

    /// Restores every id and its last sighting; T comes from `configuration.retention`, which
    /// may differ from the snapshot's.
    ///
    /// - Complexity: O(ids held).
    public init(snapshot: [UInt8], configuration: ConsumedSetConfiguration) throws(SnapshotError) {
        let (latest, ids, times) = try Self._decode(snapshot)
        var configuration = configuration
        configuration.capacity = Swift.max(configuration.capacity, ids.count)
        self = try Self._empty(configuration)
        for (id, time) in zip(ids, times) {
            let hash = _SlotHash(id)
            guard _index.find(id, hash: hash, keys: _ids) < 0 else { throw .malformed("id \(id) is listed twice") }
            _index.insert(slot: _ids.count, hash: hash)
            _ids.append(id)
            _lastSeen.append(time)
        }
        _latest = latest
    }
}

extension IDTimeMap: _IDListSnapshot {
    /// The ids in first-sighting order; their times are not carried over.
    static func _snapshotIDs(_ snapshot: [UInt8]) throws(SnapshotError) -> [EnvelopeID] {
        try _decode(snapshot).ids
    }

    /// The snapshot's fields, in the order `snapshot()` writes them.
    fileprivate static func _decode(_ snapshot: [UInt8]) throws(SnapshotError) -> (latest: Int64, ids: [EnvelopeID], times: [Int64]) {
        var reader = try _SnapshotReader(snapshot, strategyID: strategyID)
        let latest = try reader.readTime()
        let ids = try reader.readIDs(limit: _SlotIndex.maximumSlotCapacity)
        var times: [Int64] = []
        times.reserveCapacity(ids.count)
        for _ in ids.indices {
            let time = try reader.readTime()
            guard time <= latest else { throw .malformed("a last sighting at \(time) is after the latest time \(latest)") }
            times.append(time)
        }
        try reader.finish()
        return (latest, ids, times)
    }
}
