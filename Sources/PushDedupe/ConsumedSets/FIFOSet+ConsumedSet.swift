extension FIFOSet {
    /// Returns `true` and records `id` if it is not retained, overwriting the oldest id when
    /// full; returns `false` and changes nothing otherwise. `now` is ignored.
    ///
    /// - Complexity: O(1) expected; allocates nothing.
    @inlinable @inline(__always)
    public mutating func consume(_ id: EnvelopeID, at now: Timestamp) -> Bool {
        defer { _checkAfterConsume() }
        let geometry = _geometry
        guard geometry.capacity > 0 else {
            _evictions &+= 1
            return true
        }
        let hash = _SlotHash(id)
        let sequence = _accepted & geometry.sequenceMask
        let count = _count
        let full = count == geometry.capacity
        let slot = _next
        let sweep = _sweepLane
        // The lookup only reads, so a hit (a replay) never pays the storage's uniqueness check.
        let found = _withStorage { lanes, ids in
            geometry.find(id, hash: hash, sequence: sequence, count: count, next: slot, lanes: lanes, keys: ids)
        }
        if found >= 0 { return false }
        // Once this id is in, a full ring has dropped its oldest id, whose lane is therefore
        // free to reuse now.
        let retained = full ? count &- 1 : count
        _withMutableStorage { lanes, ids in
            geometry.insert(hash: hash, sequence: sequence, retained: retained, next: slot, sweep: sweep, lanes: lanes)
            ids[slot] = id
        }
        _sweepLane = (sweep &+ geometry.sweptLanesPerAccept) & geometry.laneMask
        _accepted &+= 1
        if full { _evictions &+= 1 } else { _count = count &+ 1 }
        _next = slot &+ 1 == geometry.capacity ? 0 : slot &+ 1
        return true
    }

    /// Whether `id` is retained.
    ///
    /// - Complexity: O(1) expected.
    @inlinable
    public func contains(_ id: EnvelopeID) -> Bool {
        let geometry = _geometry
        guard geometry.capacity > 0 else { return false }
        let hash = _SlotHash(id)
        let sequence = _accepted & geometry.sequenceMask
        let count = _count
        let next = _next
        return _withStorage { lanes, ids in
            geometry.find(id, hash: hash, sequence: sequence, count: count, next: next, lanes: lanes, keys: ids) >= 0
        }
    }

    /// The ring plus the lanes.
    @inlinable
    public var footprint: Int { _storage.byteCount }
}
