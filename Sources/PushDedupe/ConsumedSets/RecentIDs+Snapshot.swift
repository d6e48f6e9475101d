extension RecentIDs: SnapshottableConsumedSet, _EvictionsAndIDsSnapshot {
    static var _snapshotIDLimit: Int { maximumCapacity }

    /// Oldest first, so a smaller capacity forgets those.
    func _writeRetainedIDs(to writer: inout _SnapshotWriter) {
        writer.write(ids: _idsOldestFirst)
    }
}
