extension BoundedLRU: SnapshottableConsumedSet, _EvictionsAndIDsSnapshot {
    /// Least recently used first, so a smaller capacity forgets those.
    func _writeRetainedIDs(to writer: inout _SnapshotWriter) {
        var order: [EnvelopeID] = []
        order.reserveCapacity(_count)
        var slot = _oldest
        while slot >= 0 {
            order.append(_ids[Int(slot)])
            slot = _links[Int(slot)].newer
        }
        writer.write(ids: order)
    }
}
