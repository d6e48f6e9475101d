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
        let tag = geometry.table.tag(hash)
        let home = geometry.table.home(hash)
        // The lookup only reads, so a hit (a replay) never pays the storage's uniqueness check.
        let found = _withStorage { lanes, ids in
            _LaneTable.find(
                id, tag: tag, home: home, geometry: geometry.table, lanes: lanes,
                liveness: geometry.liveness(sequence: sequence, count: count, next: slot), keys: ids)
        }
        if found >= 0 { return false }
        // Once this id is in, a full ring has dropped its oldest id, whose lane is therefore
        // free to reuse now.
        let retained = full ? count &- 1 : count
        _withMutableStorage { lanes, ids in
            _LaneTable.insert(
                tag | sequence, home: home, groupMask: geometry.groupMask, lanes: lanes,
                liveness: geometry.liveness(sequence: sequence, count: retained, next: slot))
            // Restamp the lanes under the cursor that are not retained once this id is in.
            let following = (sequence &+ 1) & geometry.sequenceMask
            let vacant = geometry.vacantStamp(sequence: following)
            let after = geometry.liveness(sequence: following, count: retained &+ 1, next: slot)
            // One lane unless the capacity is above 2²⁹; the one-lane case is kept straight-line
            // (a loop of one trip cost about 1 ns per accept).
            if geometry.sweptLanesPerAccept == 1 {
                after.restamp(sweep, vacant: vacant, lanes: lanes)
            } else {
                for lane in sweep..<sweep &+ geometry.sweptLanesPerAccept {
                    after.restamp(lane, vacant: vacant, lanes: lanes)
                }
            }
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
        let liveness = geometry.liveness(sequence: _accepted & geometry.sequenceMask, count: _count, next: _next)
        return _withStorage { lanes, ids in
            _LaneTable.find(
                id, tag: geometry.table.tag(hash), home: geometry.table.home(hash), geometry: geometry.table,
                lanes: lanes, liveness: liveness, keys: ids) >= 0
        }
    }

    @inlinable
    public var count: Int { _count }

    /// The ring plus the lanes.
    @inlinable
    public var footprint: Int { _storage.byteCount }

    @inlinable
    public var evictions: Int { _evictions }
}

extension FIFOSet._Geometry {
    /// The tag bits of `hash` with the top bit set, so no entry's tag is a vacant lane's zero.
    @inlinable @inline(__always)
    func tag(_ hash: _SlotHash) -> UInt32 { table.tag(hash) }

    /// A vacant lane: tag zero and the sequence number of an id `capacity + 1` accepts before
    /// the one numbered `sequence`, so it reads as not retained until the cursor restamps it.
    @inlinable @inline(__always)
    func vacantStamp(sequence: UInt32) -> UInt32 {
        (sequence &- UInt32(truncatingIfNeeded: capacity &+ 1)) & sequenceMask
    }

    /// The liveness rule when `sequence` is the number the next id gets, the `count` newest ids
    /// are retained, and `next` is the ring slot the next id goes to.
    @inlinable @inline(__always)
    func liveness(sequence: UInt32, count: Int, next: Int) -> _RetainedByAge {
        _RetainedByAge(sequenceMask: sequenceMask, sequence: sequence, count: count, next: next, capacity: capacity)
    }
}
