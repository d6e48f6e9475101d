extension DirectMappedSet: _InvariantChecked {
    /// Returns `false` if `id`'s slot holds it; otherwise stores it there, counting an eviction
    /// if the slot held another id, and returns `true`. `now` is ignored.
    ///
    /// - Complexity: O(1); allocates nothing.
    @inlinable @inline(__always)
    public mutating func consume(_ id: EnvelopeID, at now: Timestamp) -> Bool {
        defer { _checkAfterConsume() }
        guard _slotMask >= 0 else {
            _evictions &+= 1
            return true
        }
        let slot = Int(truncatingIfNeeded: id.hash64) & _slotMask
        let word = slot &>> 6
        let bit: UInt64 = 1 &<< UInt64(slot & 63)
        if _occupied[word] & bit != 0 {
            if _ids[slot] == id { return false }
            _evictions &+= 1
        } else {
            _occupied[word] |= bit
            _count &+= 1
        }
        _ids[slot] = id
        return true
    }

    /// Whether `id`'s slot holds it.
    ///
    /// - Complexity: O(1).
    @inlinable
    public func contains(_ id: EnvelopeID) -> Bool {
        guard _slotMask >= 0 else { return false }
        let slot = Int(truncatingIfNeeded: id.hash64) & _slotMask
        return _occupied[slot &>> 6] & (1 &<< UInt64(slot & 63)) != 0 && _ids[slot] == id
    }

    @inlinable
    public var footprint: Int {
        _ids.count * MemoryLayout<EnvelopeID>.stride + _occupied.count * MemoryLayout<UInt64>.stride
    }

    #if PUSHDEDUPE_INTERNAL_CHECKS
    /// Checks that `count` matches the occupancy bits (for up to 4,096 slots) and that no bit
    /// beyond the table is set.
    @usableFromInline
    func _checkInvariants() {
        precondition(_count >= 0 && _count <= _ids.count, "count \(_count) outside 0...\(_ids.count)")
        if _ids.count % 64 != 0, let last = _occupied.last {
            precondition(last &>> UInt64(_ids.count % 64) == 0, "occupancy bit beyond the table")
        }
        guard _ids.count <= 4_096 else { return }
        precondition(_occupied.reduce(0) { $0 + $1.nonzeroBitCount } == _count, "count disagrees with occupancy")
    }
    #endif
}
