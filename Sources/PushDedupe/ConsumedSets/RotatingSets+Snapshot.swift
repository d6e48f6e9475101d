extension RotatingSets: SnapshottableConsumedSet {
    /// The retention, the epoch clock, and each generation's ids in arrival order.
    ///
    /// - Complexity: O(`count`).
    public func snapshot() -> [UInt8] {
        var writer = _SnapshotWriter(reservingCapacity: 16 * count + 32)
        writer.write(varint: _clock.period)
        // A clock never started holds 0 as its latest time.
        writer.write(stateOf: _clock, latestIfUnstarted: 0)
        writer.write(ids: _previous._keys)
        writer.write(ids: _current._keys)
        return writer.finished(strategyID: Self.strategyID)
    }

    /// Restores both generations and the epoch clock. The retention must be the snapshot's: the
    /// epochs are cut by it.
    ///
    /// - Complexity: O(`capacity` + ids held).
    public init(snapshot: [UInt8], configuration: ConsumedSetConfiguration) throws(SnapshotError) {
        let (period, clockState, previous, current) = try Self._decode(snapshot)
        self = try Self._empty(configuration)
        let clock = try _clock._restored(period: period, state: clockState, generation: "epoch")
        guard clockState.started || (previous.isEmpty && current.isEmpty) else { throw .malformed("ids in a set that never started") }
        for id in previous { try Self._append(id, to: &_previous, unlessIn: nil) }
        for id in current { try Self._append(id, to: &_current, unlessIn: _previous) }
        _clock = clock
    }

    /// The snapshot's fields, in the order `snapshot()` writes them.
    private static func _decode(_ snapshot: [UInt8]) throws(SnapshotError) -> (
        period: UInt64, clockState: _StoredClockState, previous: [EnvelopeID], current: [EnvelopeID]
    ) {
        var reader = try _SnapshotReader(snapshot, strategyID: Self.strategyID)
        let period = try reader.readVarint()
        let clockState = try reader.readClockState()
        let previous = try reader.readIDs()
        let current = try reader.readIDs()
        try reader.finish()
        return (period, clockState, previous, current)
    }

    private static func _append(
        _ id: EnvelopeID, to generation: inout _Generation, unlessIn other: _Generation?
    ) throws(SnapshotError) {
        let hash = _SlotHash(id)
        guard !generation.contains(id, hash: hash), other?.contains(id, hash: hash) != true else {
            throw .malformed("id \(id) is listed twice")
        }
        generation.append(id, hash: hash)
    }
}

extension RotatingSets: _IDListSnapshot {
    /// The previous generation's ids, then the current one's, in arrival order.
    static func _snapshotIDs(_ snapshot: [UInt8]) throws(SnapshotError) -> [EnvelopeID] {
        let decoded = try _decode(snapshot)
        return decoded.previous + decoded.current
    }
}
