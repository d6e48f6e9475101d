extension LastIDSet: SnapshottableConsumedSet, _EvictionsAndIDsSnapshot {
    static var _snapshotIDLimit: Int { 1 }

    /// The id in the slot, if any; `configuration` is ignored when it is restored, as by
    /// `init(configuration:)`.
    func _writeRetainedIDs(to writer: inout _SnapshotWriter) {
        writer.write(ids: _holdsID ? [_last] : [])
    }
}
