extension FIFOSet {
    /// Returns `true` and records `id` if it is not retained, overwriting the oldest id when
    /// full; returns `false` and changes nothing otherwise. `now` is ignored.
    ///
    /// - Complexity: O(1) expected; allocates nothing.
    @inlinable
    public mutating func consume(_ id: EnvelopeID, at now: Timestamp) -> Bool {
        defer { _checkAfterConsume() }
        let hash = id.hash64
        let found = _index.find(id, hash: hash, keys: _ids)
        if found.slot >= 0 { return false }
        if _capacity == 0 {
            _evictions &+= 1
            return true
        }
        let slot = _next
        if _count == _capacity {
            // Unindex the oldest id while the ring still holds it; the shift may move the
            // bucket `find` returned, so the new id is placed by a fresh probe.
            _index.remove(slot: slot, hash: _ids[slot].hash64, keys: _ids)
            _evictions &+= 1
            _ids[slot] = id
            _index.insertAbsent(slot: slot, hash: hash)
        } else {
            _count &+= 1
            _ids[slot] = id
            _index.insert(slot: slot, hash: hash, at: found.bucket)
        }
        _next = slot &+ 1 == _capacity ? 0 : slot &+ 1
        return true
    }

    /// Whether `id` is retained.
    ///
    /// - Complexity: O(1) expected.
    @inlinable
    public func contains(_ id: EnvelopeID) -> Bool {
        _index.find(id, hash: id.hash64, keys: _ids).slot >= 0
    }

    @inlinable
    public var count: Int { _count }

    /// The ring plus the index's buckets.
    @inlinable
    public var footprint: Int {
        _capacity * MemoryLayout<EnvelopeID>.stride + _index.footprint
    }

    @inlinable
    public var evictions: Int { _evictions }
}
