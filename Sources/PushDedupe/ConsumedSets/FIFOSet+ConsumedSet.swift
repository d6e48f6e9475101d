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
        let tag = geometry.tag(hash)
        let home = hash.group(shift: geometry.groupShift, mask: geometry.groupMask)
        // The lookup only reads, so a hit (a replay) never pays the storage's uniqueness check.
        let found = _withStorage { lanes, ids in
            geometry.find(id, tag: tag, from: home, sequence: sequence, count: count, next: slot, lanes: lanes, ids: ids)
        }
        if found { return false }
        // Once this id is in, a full ring has dropped its oldest id, whose lane is therefore
        // free to reuse now.
        let retained = full ? count &- 1 : count
        _withMutableStorage { lanes, ids in
            var group = home
            while true {
                let base = group &* Self.lanesPerGroup
                let free = geometry.notRetainedLanes(
                    _LaneGroup.load(lanes, at: base), sequence: sequence, count: retained)
                if free != 0 {
                    lanes[base &+ free.trailingZeroBitCount] = tag | sequence
                    break
                }
                // Seven retained ids share this group (about one insertion in ten at 4/7
                // average load): go on, and have lookups follow while this id is retained.
                lanes[base &+ Self.entryLanes] = sequence
                group = (group &+ 1) & geometry.groupMask
            }
            // Restamp the lanes under the cursor that are not retained once this id is in.
            let following = (sequence &+ 1) & geometry.sequenceMask
            let vacant = geometry.vacantStamp(sequence: following)
            // One lane unless the capacity is above 2²⁹; the one-lane case is kept straight-line
            // (a loop of one trip cost about 1 ns per accept).
            if geometry.sweptLanesPerAccept == 1 {
                geometry.restamp(sweep, vacant: vacant, following: following, retained: retained &+ 1, lanes: lanes)
            } else {
                for lane in sweep..<sweep &+ geometry.sweptLanesPerAccept {
                    geometry.restamp(lane, vacant: vacant, following: following, retained: retained &+ 1, lanes: lanes)
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
        let sequence = _accepted & geometry.sequenceMask
        let count = _count
        let next = _next
        return _withStorage { lanes, ids in
            geometry.find(
                id, tag: geometry.tag(hash), from: hash.group(shift: geometry.groupShift, mask: geometry.groupMask),
                sequence: sequence, count: count, next: next, lanes: lanes, ids: ids)
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
    func tag(_ hash: _SlotHash) -> UInt32 {
        (hash.tagBits | FIFOSet.tagBit) & tagMask
    }

    /// A vacant lane: tag zero and the sequence number of an id `capacity + 1` accepts before
    /// the one numbered `sequence`, so it reads as not retained until the cursor restamps it.
    @inlinable @inline(__always)
    func vacantStamp(sequence: UInt32) -> UInt32 {
        (sequence &- UInt32(truncatingIfNeeded: capacity &+ 1)) & sequenceMask
    }

    /// 1 when `lane` (entry or control) holds the sequence number of one of the `count` newest
    /// ids, `sequence` being the number the next id gets; 0 otherwise.
    @inlinable @inline(__always)
    func retainedBit(_ lane: UInt32, sequence: UInt32, count: Int) -> UInt32 {
        // Age 1 is the newest id; the cursor keeps every lane's age within the field.
        let age = (sequence &- lane) & sequenceMask
        return age &- 1 < UInt32(truncatingIfNeeded: count) ? 1 : 0
    }

    /// A bit per entry lane of `group` that does not hold one of the `count` newest ids, given
    /// that `sequence` is the number the next id gets: the complement of `retainedBit`, for
    /// the group's seven entry lanes at once.
    @inlinable @inline(__always)
    func notRetainedLanes(_ group: SIMD8<UInt32>, sequence: UInt32, count: Int) -> UInt32 {
        // A lane is not retained when its age less one, (sequence - 1 - lane) mod 2^b, is at
        // least `count` (age 0 comes out as 2^b - 1, which the geometry makes larger than the
        // capacity). Both are below 2³¹, so adding 2³¹ - count sets the top bit exactly then:
        // a test SSE2 has, unlike an unsigned compare.
        let topBit = SIMD8<UInt32>(repeating: 1 << 31)
        let agesLessOne = (SIMD8(repeating: sequence &- 1) &- group) & SIMD8(repeating: sequenceMask)
        let biased = agesLessOne &+ SIMD8(repeating: (1 << 31) &- UInt32(truncatingIfNeeded: count))
        return _LaneGroup.bits(biased & topBit .== topBit) & _LaneGroup.entryLaneBits
    }

    /// Restamps `lane` as `vacant` unless it is one of the `retained` newest ids, `following`
    /// being the number the next id gets.
    @inlinable @inline(__always)
    func restamp(
        _ lane: Int, vacant: UInt32, following: UInt32, retained: Int, lanes: UnsafeMutableBufferPointer<UInt32>
    ) {
        let value = lanes[lane]
        let keep = 0 &- retainedBit(value, sequence: following, count: retained)
        lanes[lane] = value & keep | vacant & ~keep
    }

    /// Whether one of the lanes in `matches` (a bit per lane of the group at `base`) is `id`'s,
    /// retained among the `count` newest.
    @inlinable @inline(__always)
    func holds(
        _ id: EnvelopeID, lanes matches: UInt32, at base: Int, sequence: UInt32, count: Int, next: Int,
        in lanes: UnsafeBufferPointer<UInt32>, ids: UnsafeBufferPointer<EnvelopeID>
    ) -> Bool {
        var matches = matches
        while matches != 0 {
            let age = (sequence &- lanes[base &+ matches.trailingZeroBitCount]) & sequenceMask
            if age &- 1 < UInt32(truncatingIfNeeded: count) {
                // The id accepted `age` accepts ago sits `age` slots before `next`.
                let back = next &- Int(truncatingIfNeeded: age)
                let slot = back &+ capacity & (back &>> (Int.bitWidth &- 1))
                if ids[slot] == id { return true }
            }
            matches &= matches &- 1
        }
        return false
    }

    /// Whether `id` is among the `count` retained ids, looking in `group` and then in each
    /// following group while an id that overflowed past the previous one is retained.
    @inlinable @inline(__always)
    func find(
        _ id: EnvelopeID, tag: UInt32, from group: Int, sequence: UInt32, count: Int, next: Int,
        lanes: UnsafeBufferPointer<UInt32>, ids: UnsafeBufferPointer<EnvelopeID>
    ) -> Bool {
        var group = group
        // A chain through every group is impossible (at most `capacity` ids are retained), but
        // the bound keeps the loop finite by construction.
        var groupsLeft = groupMask
        while true {
            let base = group &* FIFOSet.lanesPerGroup
            let matches = _LaneGroup.entries(lanes, at: base, masked: tagMask, equalTo: tag)
            if holds(id, lanes: matches, at: base, sequence: sequence, count: count, next: next, in: lanes, ids: ids) {
                return true
            }
            if retainedBit(lanes[base &+ FIFOSet.entryLanes], sequence: sequence, count: count) == 0 || groupsLeft == 0 {
                return false
            }
            groupsLeft &-= 1
            group = (group &+ 1) & groupMask
        }
    }
}
