extension FIFOSet: SnapshottableConsumedSet, _EvictionsAndIDsSnapshot {
    /// Oldest first, so a smaller capacity forgets those.
    func _writeRetainedIDs(to writer: inout _SnapshotWriter) {
        let capacity = _geometry.capacity
        let oldest = _count < capacity ? 0 : _next
        _withStorage { _, ring in writer.write(ids: (0..<_count).lazy.map { ring[(oldest + $0) % capacity] }) }
    }
}
