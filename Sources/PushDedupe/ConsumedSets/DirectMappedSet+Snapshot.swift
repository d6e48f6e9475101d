extension DirectMappedSet: SnapshottableConsumedSet, _EvictionsAndIDsSnapshot {
    /// The occupied slots' ids in slot order: each goes back to its hash's slot (in a smaller
    /// table, ids that now share a slot keep the later one).
    func _writeRetainedIDs(to writer: inout _SnapshotWriter) {
        writer.write(ids: _ids.indices.lazy.filter { self._occupied[$0 >> 6] & (1 << UInt64($0 & 63)) != 0 }.map { self._ids[$0] })
    }
}
