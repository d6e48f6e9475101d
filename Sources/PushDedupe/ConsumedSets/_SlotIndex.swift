/// An index from envelope ids to slot numbers in a caller-owned array of ids, with explicit
/// deletion: `BoundedLRU` and `RotatingSets` keep their ids in a slab and find them here.
///
/// Lanes are `UInt32`, in groups of eight (32 bytes): seven entries and a control lane. An entry
/// is `tag | (slot + 1)`, the tag being high bits of the id's `_SlotHash` with the top bit set,
/// and zero is an empty lane. An id lives in its home group unless that group
/// was full when it was inserted; then it went to the first following group with room, and
/// every full group it passed counts it in its control lane. A lookup therefore scans one group
/// in the common case (about 4 of 7 lanes are taken on average) and goes on to the next only
/// while the control lane is non-zero. Deletion empties the lane and decrements the counts
/// along the way, so there are no tombstones and nothing to rebuild.
///
/// The scans compare a whole group at once (`_LaneGroup`) into a bit mask; the tag lets a
/// lookup skip foreign lanes without loading their ids, which is the cache miss that would
/// dominate.
///
/// Every method that compares or rehashes ids takes the caller's id array: the entry for slot
/// `s` is `keys[s]`.
@usableFromInline
struct _SlotIndex: Sendable {
    @usableFromInline var _lanes: [UInt32]
    @usableFromInline let _groupMask: Int
    /// `_SlotHash.shift(forGroupMask: _groupMask)`.
    @usableFromInline let _groupShift: UInt64
    /// The low bits of an entry, which hold `slot + 1`.
    @usableFromInline let _slotMask: UInt32
    /// The high bits, which hold the tag.
    @usableFromInline let _tagMask: UInt32
    /// The number of slots the index can name: slot numbers are `0..<slotCapacity`.
    @usableFromInline let slotCapacity: Int

    /// Seven entry lanes and one control lane per group (`_LaneGroup`).
    @inlinable static var lanesPerGroup: Int { _LaneGroup.lanes }
    @inlinable static var entryLanes: Int { _LaneGroup.entryLanes }

    /// The largest slot capacity any set built on this index accepts: slot numbers and the
    /// `Int32` links of `BoundedLRU` must fit, and the table must stay allocatable.
    @usableFromInline static var maximumSlotCapacity: Int { _CapacityValidation.maximum }

    /// An index for slots `0..<slotCapacity`, every lane empty: one group per four slots,
    /// rounded up to a power of two, so 8 bytes per slot at a power-of-two capacity of at least 4.
    ///
    /// - Complexity: O(`slotCapacity`).
    @inlinable
    init(slotCapacity: Int) {
        precondition(slotCapacity >= 0 && slotCapacity <= Self.maximumSlotCapacity)
        var groups = 1
        while groups * 4 < slotCapacity { groups &<<= 1 }
        // `slot + 1` goes up to `slotCapacity`; at 2³⁰ that leaves one tag bit, the forced one.
        let slotBits = Int.bitWidth - slotCapacity.leadingZeroBitCount
        _lanes = Array(repeating: 0, count: groups * Self.lanesPerGroup)
        _groupMask = groups - 1
        _groupShift = _SlotHash.shift(forGroupMask: groups - 1)
        _slotMask = UInt32(truncatingIfNeeded: (1 << slotBits) - 1)
        _tagMask = ~_slotMask
        self.slotCapacity = slotCapacity
    }

    /// Bytes held by the lanes.
    @inlinable
    var footprint: Int { _lanes.count * MemoryLayout<UInt32>.stride }

    /// The tag of `hash`, top bit set so that no entry's tag bits are an empty lane's zero.
    @inlinable @inline(__always)
    func _tag(_ hash: _SlotHash) -> UInt32 {
        (hash.tagBits | 1 << 31) & _tagMask
    }

    /// The slot of `id`, or -1 when it is not indexed.
    ///
    /// - Complexity: O(1) expected.
    @inlinable @inline(__always)
    func find(_ id: EnvelopeID, hash: _SlotHash, keys: [EnvelopeID]) -> Int {
        let tag = _tag(hash)
        return _lanes.withUnsafeBufferPointer { lanes in
            var group = hash.group(shift: _groupShift, mask: _groupMask)
            // Bounded by the group count so that the loop is finite by construction.
            var groupsLeft = _groupMask
            while true {
                let base = group &* Self.lanesPerGroup
                var matches = _LaneGroup.entries(lanes, at: base, masked: _tagMask, equalTo: tag)
                while matches != 0 {
                    let slot = Int(truncatingIfNeeded: lanes[base &+ matches.trailingZeroBitCount] & _slotMask) &- 1
                    if keys[slot] == id { return slot }
                    matches &= matches &- 1
                }
                if lanes[base &+ Self.entryLanes] == 0 || groupsLeft == 0 { return -1 }
                groupsLeft &-= 1
                group = (group &+ 1) & _groupMask
            }
        }
    }

    /// Records `slot`, whose id (hashing to `hash`) is not indexed.
    ///
    /// - Complexity: O(1) expected.
    @inlinable @inline(__always)
    mutating func insert(slot: Int, hash: _SlotHash) {
        let entry = _tag(hash) | UInt32(truncatingIfNeeded: slot &+ 1)
        let groupMask = _groupMask
        let groupShift = _groupShift
        _lanes.withUnsafeMutableBufferPointer { lanes in
            var group = hash.group(shift: groupShift, mask: groupMask)
            while true {
                let base = group &* Self.lanesPerGroup
                let empty = _LaneGroup.entries(lanes, at: base, masked: .max, equalTo: 0)
                if empty != 0 {
                    lanes[base &+ empty.trailingZeroBitCount] = entry
                    return
                }
                // Seven entries share this group (about one insertion in ten at 4/7 average
                // load): count this one as passing, and go on.
                lanes[base &+ Self.entryLanes] &+= 1
                group = (group &+ 1) & groupMask
            }
        }
    }

    /// Removes the entry for `slot`, whose id hashes to `hash`.
    ///
    /// - Complexity: O(1) expected.
    @inlinable @inline(__always)
    mutating func remove(slot: Int, hash: _SlotHash) {
        let target = UInt32(truncatingIfNeeded: slot &+ 1)
        let groupMask = _groupMask
        let groupShift = _groupShift
        let slotMask = _slotMask
        _lanes.withUnsafeMutableBufferPointer { lanes in
            var group = hash.group(shift: groupShift, mask: groupMask)
            for _ in 0...groupMask {
                let base = group &* Self.lanesPerGroup
                let found = _LaneGroup.entries(lanes, at: base, masked: slotMask, equalTo: target)
                if found != 0 {
                    lanes[base &+ found.trailingZeroBitCount] = 0
                    return
                }
                // The entry passed this full group on its way: it no longer does.
                lanes[base &+ Self.entryLanes] &-= 1
                group = (group &+ 1) & groupMask
            }
            preconditionFailure("slot \(slot) is not indexed")
        }
    }

    /// Empties every lane, keeping the storage.
    ///
    /// - Complexity: O(lane count).
    @inlinable
    mutating func removeAll() {
        _lanes.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
    }

    /// Empties the index, given the ids of all its entries (slot `s` is `keys[s]` for every slot
    /// in `0..<keys.count`): removes them one by one when they are few, so that an index sized
    /// for an earlier burst does not cost a full wipe.
    ///
    /// - Complexity: O(min(`keys.count`, lane count)) expected.
    @inlinable
    mutating func removeAll(keys: [EnvelopeID]) {
        guard keys.count &* 8 < _lanes.count else { return removeAll() }
        for (slot, id) in keys.enumerated() { remove(slot: slot, hash: _SlotHash(id)) }
    }

    #if PUSHDEDUPE_INTERNAL_CHECKS
    /// Checks that the index names exactly the slots `live`, each reachable from its id's home
    /// group, and that every control lane counts exactly the entries that passed its group.
    /// O(lane count); for small indexes.
    @usableFromInline
    func _checkInvariants(live: some Sequence<Int>, keys: [EnvelopeID]) {
        let groups = _groupMask + 1
        var passing = [UInt32](repeating: 0, count: groups)
        var expected = 0
        for slot in live {
            expected += 1
            let hash = _SlotHash(keys[slot])
            let found = find(keys[slot], hash: hash, keys: keys)
            precondition(found == slot, "index lost slot \(slot)")
            guard let lane = _lanes.indices.first(where: {
                $0 % Self.lanesPerGroup < Self.entryLanes && _lanes[$0] & _slotMask == UInt32(slot + 1)
            }) else { preconditionFailure("slot \(slot) has no lane") }
            precondition(_lanes[lane] & _tagMask == _tag(hash), "slot \(slot) has a wrong tag")
            var group = hash.group(shift: _groupShift, mask: _groupMask)
            while group != lane / Self.lanesPerGroup {
                passing[group] += 1
                group = (group + 1) & _groupMask
            }
        }
        let occupied = _lanes.indices.filter { $0 % Self.lanesPerGroup < Self.entryLanes && _lanes[$0] != 0 }.count
        precondition(occupied == expected, "index holds \(occupied) entries, expected \(expected)")
        for group in 0..<groups {
            precondition(
                _lanes[group * Self.lanesPerGroup + Self.entryLanes] == passing[group],
                "group \(group) counts \(_lanes[group * Self.lanesPerGroup + Self.entryLanes]) passing entries, expected \(passing[group])")
        }
    }
    #endif
}
