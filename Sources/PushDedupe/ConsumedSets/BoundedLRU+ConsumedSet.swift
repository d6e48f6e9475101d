extension BoundedLRU {
    /// Returns `true` and records `id` as most recently used if it is not retained; otherwise
    /// refreshes it to most recently used and returns `false`. `now` is ignored.
    ///
    /// - Complexity: O(1) expected; allocates nothing.
    @inlinable @inline(__always)
    public mutating func consume(_ id: EnvelopeID, at now: Timestamp) -> Bool {
        defer { _checkAfterConsume() }
        let hash = _SlotHash(id)
        let found = _index.find(id, hash: hash, keys: _ids)
        if found >= 0 {
            _moveToNewest(Int32(truncatingIfNeeded: found))
            return false
        }
        if _capacity == 0 {
            _evictions &+= 1
            return true
        }
        if _count < _capacity {
            let slot = _count
            _count &+= 1
            _ids[slot] = id
            _index.insert(slot: slot, hash: hash)
            _link(asNewest: Int32(truncatingIfNeeded: slot))
        } else {
            // Reuse the least recently used slot: unindex its id, then store the new id and
            // make the slot the newest.
            let slot = _oldest
            _index.remove(slot: Int(slot), hash: _SlotHash(_ids[Int(slot)]))
            _evictions &+= 1
            _ids[Int(slot)] = id
            _index.insert(slot: Int(slot), hash: hash)
            _moveToNewest(slot)
        }
        return true
    }

    /// Whether `id` is retained. Does not refresh its recency.
    ///
    /// - Complexity: O(1) expected.
    @inlinable
    public func contains(_ id: EnvelopeID) -> Bool {
        _index.find(id, hash: _SlotHash(id), keys: _ids) >= 0
    }

    /// Ids and links for every slot, plus the index's lanes.
    @inlinable
    public var footprint: Int {
        _capacity * (MemoryLayout<EnvelopeID>.stride + MemoryLayout<_Links>.stride) + _index.footprint
    }

    /// Appends a slot that is not in the list at the newest end.
    @inlinable
    mutating func _link(asNewest slot: Int32) {
        _links[Int(slot)] = (older: _newest, newer: -1)
        if _newest >= 0 {
            _links[Int(_newest)].newer = slot
        } else {
            _oldest = slot
        }
        _newest = slot
    }

    /// Moves a slot already in the list to the newest end.
    ///
    /// The five link writes go through one buffer access, so the array's uniqueness is checked
    /// once per move rather than once per write.
    @inlinable
    mutating func _moveToNewest(_ slot: Int32) {
        let newest = _newest
        guard slot != newest else { return }
        var oldest = _oldest
        _links.withUnsafeMutableBufferPointer { links in
            let moved = links[Int(slot)]
            // `slot` is not the newest, so it has a newer neighbour, and `newest` is a slot.
            links[Int(moved.newer)].older = moved.older
            if moved.older >= 0 {
                links[Int(moved.older)].newer = moved.newer
            } else {
                oldest = moved.newer
            }
            links[Int(slot)] = (older: newest, newer: -1)
            links[Int(newest)].newer = slot
        }
        _oldest = oldest
        _newest = slot
    }
}
