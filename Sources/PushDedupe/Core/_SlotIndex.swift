/// An index from keys to slot numbers in a caller-owned array of keys, with explicit deletion:
/// `_LaneTable` under the `_DeletedExplicitly` rule. `BoundedLRU`, `RotatingSets` and `IDTimeMap`
/// keep their ids in a slab and find them here; `EpochSetsWindow` finds fingerprint digests in
/// its key logs.
///
/// An entry is `tag | (slot + 1)` in one of seven lanes of its group. A lookup scans one group
/// in the common case (about 4 of 7 lanes are taken on average at four slots per group) and
/// goes on to the next only while the control lane is non-zero. The scans compare a whole group
/// at once (`_LaneGroup`) into a bit mask; the tag lets a lookup skip foreign lanes without
/// loading their keys, which is the cache miss that would dominate.
///
/// Every method that compares or rehashes keys takes the caller's key array: the entry for slot
/// `s` is `keys.laneKey(at: s)`.
@usableFromInline
struct _SlotIndex: Sendable {
    @usableFromInline var _lanes: [UInt32]
    @usableFromInline let _geometry: _LaneTable.Geometry
    /// The number of slots the index can name: slot numbers are `0..<slotCapacity`.
    @usableFromInline let slotCapacity: Int

    /// The largest slot capacity any set built on this index accepts: slot numbers and the
    /// `Int32` links of `BoundedLRU` must fit, and the table must stay allocatable.
    @inlinable static var maximumSlotCapacity: Int { _CapacityValidation.maximum }

    /// An index for slots `0..<slotCapacity`, every lane empty: one group per `slotsPerGroup`
    /// slots, rounded up to a power of two, so 32 / `slotsPerGroup` bytes per slot at a
    /// power-of-two capacity of at least `slotsPerGroup`.
    ///
    /// - Complexity: O(`slotCapacity`).
    @inlinable
    init(slotCapacity: Int, slotsPerGroup: Int = 4) {
        precondition(slotCapacity >= 0 && slotCapacity <= Self.maximumSlotCapacity)
        // `slot + 1` goes up to `slotCapacity`; at 2³⁰ that leaves one tag bit, the forced one.
        let slotBits = Int.bitWidth - slotCapacity.leadingZeroBitCount
        _geometry = _LaneTable.Geometry(slots: slotCapacity, slotsPerGroup: slotsPerGroup, payloadBits: max(1, slotBits))
        _lanes = Array(repeating: 0, count: _geometry.laneCount)
        self.slotCapacity = slotCapacity
    }

    /// Bytes held by the lanes.
    @inlinable
    var footprint: Int { _lanes.count * MemoryLayout<UInt32>.stride }

    /// The slot of `key`, or -1 when it is not indexed.
    ///
    /// - Complexity: O(1) expected.
    @inlinable @inline(__always)
    func find<Keys: _LaneKeys>(_ key: Keys.Key, hash: _SlotHash, keys: Keys) -> Int {
        let geometry = _geometry
        return _lanes.withUnsafeBufferPointer { lanes in
            _LaneTable.find(
                key, tag: geometry.tag(hash), home: geometry.home(hash), geometry: geometry,
                lanes: lanes, liveness: _DeletedExplicitly(slotMask: geometry.payloadMask), keys: keys)
        }
    }

    /// Records `slot`, whose key (hashing to `hash`) is not indexed.
    ///
    /// - Complexity: O(1) expected.
    @inlinable @inline(__always)
    mutating func insert(slot: Int, hash: _SlotHash) {
        let geometry = _geometry
        let liveness = _DeletedExplicitly(slotMask: geometry.payloadMask)
        let entry = liveness.entry(tag: geometry.tag(hash), slot: slot)
        _lanes.withUnsafeMutableBufferPointer { lanes in
            _LaneTable.insert(entry, home: geometry.home(hash), groupMask: geometry.groupMask, lanes: lanes, liveness: liveness)
        }
    }

    /// Removes the entry for `slot`, whose key hashes to `hash`.
    ///
    /// - Complexity: O(1) expected.
    @inlinable @inline(__always)
    mutating func remove(slot: Int, hash: _SlotHash) {
        let target = UInt32(truncatingIfNeeded: slot &+ 1)
        let geometry = _geometry
        _lanes.withUnsafeMutableBufferPointer { lanes in
            var group = geometry.home(hash)
            for _ in 0...geometry.groupMask {
                let base = group &* _LaneGroup.lanes
                let found = _LaneGroup.entries(lanes, at: base, masked: geometry.payloadMask, equalTo: target)
                if !found.isEmpty {
                    lanes[base &+ found.first] = 0
                    return
                }
                // The entry passed this full group on its way: it no longer does.
                lanes[base &+ _LaneGroup.entryLanes] &-= 1
                group = (group &+ 1) & geometry.groupMask
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

    /// Empties the index, given the keys of all its entries (slot `s` holds `keys[s]` for every
    /// slot in `0..<keys.count`): removes them one by one when they are few, so that an index
    /// sized for an earlier burst does not cost a full wipe.
    ///
    /// - Complexity: O(min(`keys.count`, lane count)) expected.
    @inlinable
    mutating func removeAll<Keys: _LaneKeys & Collection>(keys: Keys) {
        guard keys.count &* 8 < _lanes.count else { return removeAll() }
        for slot in 0..<keys.count { remove(slot: slot, hash: keys.laneKey(at: slot).slotHash) }
    }

    #if PUSHDEDUPE_INTERNAL_CHECKS
    /// Checks that the index names exactly the slots `live`, each reachable from its key's home
    /// group, and that every control lane counts exactly the entries that passed its group.
    /// O(lane count + probe lengths); for small indexes.
    @usableFromInline
    func _checkInvariants<Keys: _LaneKeys>(live: some Sequence<Int>, keys: Keys) {
        if let violation = _invariantViolation(live: live, keys: keys) { preconditionFailure(violation) }
    }

    /// What `_checkInvariants(live:keys:)` would trap on, or `nil`: tests corrupt an index and
    /// expect a message here, so a check that stopped looking would fail them.
    func _invariantViolation<Keys: _LaneKeys>(live: some Sequence<Int>, keys: Keys) -> String? {
        let groups = _geometry.groupMask + 1
        let lanesPerGroup = _LaneGroup.lanes
        let entryLanes = _LaneGroup.entryLanes
        // One pass over the lanes finds each slot's lane, so the walk stays linear.
        var laneOfSlot = [Int](repeating: -1, count: slotCapacity)
        var occupied = 0
        for lane in _lanes.indices where lane % lanesPerGroup < entryLanes && _lanes[lane] != 0 {
            occupied += 1
            let slot = Int(_lanes[lane] & _geometry.payloadMask) - 1
            guard slot >= 0 && slot < slotCapacity else { return "lane \(lane) names slot \(slot), outside the index" }
            guard laneOfSlot[slot] < 0 else { return "lanes \(laneOfSlot[slot]) and \(lane) both name slot \(slot)" }
            laneOfSlot[slot] = lane
        }
        var passing = [UInt32](repeating: 0, count: groups)
        var expected = 0
        for slot in live {
            expected += 1
            guard slot >= 0 && slot < slotCapacity else { return "live slot \(slot) outside the index" }
            let hash = keys.laneKey(at: slot).slotHash
            guard find(keys.laneKey(at: slot), hash: hash, keys: keys) == slot else { return "index lost slot \(slot)" }
            let lane = laneOfSlot[slot]
            guard lane >= 0 else { return "slot \(slot) has no lane" }
            guard _lanes[lane] & _geometry.tagMask == _geometry.tag(hash) else { return "slot \(slot) has a wrong tag" }
            var group = _geometry.home(hash)
            while group != lane / lanesPerGroup {
                passing[group] += 1
                group = (group + 1) & _geometry.groupMask
            }
        }
        guard occupied == expected else { return "index holds \(occupied) entries, expected \(expected)" }
        for group in 0..<groups {
            let control = _lanes[group * lanesPerGroup + entryLanes]
            guard control == passing[group] else {
                return "group \(group) counts \(control) passing entries, expected \(passing[group])"
            }
        }
        return nil
    }
    #endif
}
