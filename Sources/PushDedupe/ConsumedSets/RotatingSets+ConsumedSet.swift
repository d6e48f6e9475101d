extension RotatingSets {
    /// Rotates if `now` (clamped to the latest time seen) has entered a new epoch, then returns
    /// `true` and records `id` if neither generation holds it; returns `false` otherwise.
    ///
    /// - Complexity: O(1) expected, plus an in-place clear once per epoch.
    @inlinable @inline(__always)
    public mutating func consume(_ id: EnvelopeID, at now: Timestamp) -> Bool {
        defer { _checkAfterConsume() }
        _advance(to: now.nanoseconds)
        let hash = _SlotHash(id)
        if _previous.count > 0 && _previous.contains(id, hash: hash) { return false }
        if _current.contains(id, hash: hash) { return false }
        _current.append(id, hash: hash)
        return true
    }

    /// Whether either generation holds `id`, as of the latest time given to `consume`.
    ///
    /// - Complexity: O(1) expected.
    @inlinable
    public func contains(_ id: EnvelopeID) -> Bool {
        let hash = _SlotHash(id)
        return _current.contains(id, hash: hash)
            || (_previous.count > 0 && _previous.contains(id, hash: hash))
    }

    /// Ids in both generations; each id is in at most one.
    @inlinable
    public var count: Int { _current.count + _previous.count }

    @inlinable
    public var footprint: Int { _current.footprint + _previous.footprint }

    /// Always 0: ids age out; none is dropped to make room.
    @inlinable
    public var evictions: Int { 0 }

    /// Clamps `nanoseconds` to the latest time seen and rotates the generations if it lies in a
    /// later epoch.
    @inlinable
    mutating func _advance(to nanoseconds: Int64) {
        switch _clock.advance(to: nanoseconds) {
        case 0:
            return
        case 1:
            // The previous generation's ids arrived before the epoch that just ended, so they are
            // all older than the retention now; the current generation becomes the previous.
            _previous.removeAll()
            swap(&_current, &_previous)
        default:
            // Every id arrived before the last full epoch, so all are older than the retention.
            _previous.removeAll()
            _current.removeAll()
        }
    }
}
