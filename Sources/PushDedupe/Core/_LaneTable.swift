/// The one open-addressing engine of the package: a power of two of lane groups (`_LaneGroup`,
/// seven `UInt32` entry lanes and a control lane each), probed group by group from a key's home
/// group. `_SlotIndex` (explicit deletion: `bounded-lru`, `rotating-sets`, `id-time-map`,
/// `epoch-sets`) and `_AgeRing` (liveness by sequence age: `fifo-set`, `hash-deque`) are built
/// on it.
///
/// An entry lane holds a tag (high bits of the key's `_SlotHash`, top bit always set) over a
/// payload (low bits) from which the liveness rule reads the key's slot in a caller-owned key
/// array. The keys are never in the lanes, so each is stored once; a tag match is confirmed by
/// one comparison with the key in its slot. A key lives in its home group unless that group was
/// full of live entries when it was inserted; it then went to the first following group with
/// room, and every full group it passed marks that in its control lane, which lookups read to
/// decide whether to go on.
///
/// Generic over the liveness rule and the key array, both specialized at every use: no
/// existential, closure or allocation per lookup.
@usableFromInline
enum _LaneTable {
    /// Where a key of `hash` is filed: its home group and the tag its entries carry.
    @usableFromInline
    struct Geometry: Sendable {
        /// The group count less one (a power of two less one).
        @usableFromInline let groupMask: Int
        /// `_SlotHash.shift(forGroupMask: groupMask)`.
        @usableFromInline let groupShift: UInt64
        /// The low bits of an entry lane, which hold the payload.
        @usableFromInline let payloadMask: UInt32

        /// One group per `slotsPerGroup` slots, rounded up to a power of two, with payloads of
        /// `payloadBits` bits (at most 31: the top bit is the tag's).
        @inlinable
        init(slots: Int, slotsPerGroup: Int, payloadBits: Int) {
            precondition(payloadBits >= 1 && payloadBits <= 31, "payloads must leave the tag's top bit")
            let groups = Self.groupCount(slots: slots, slotsPerGroup: slotsPerGroup)
            groupMask = groups - 1
            groupShift = _SlotHash.shift(forGroupMask: groups - 1)
            payloadMask = UInt32(truncatingIfNeeded: (1 << payloadBits) - 1)
        }

        /// The smallest power of two of groups with `slotsPerGroup` slots each that covers `slots`.
        @inlinable
        static func groupCount(slots: Int, slotsPerGroup: Int) -> Int {
            var groups = 1
            while groups * slotsPerGroup < slots { groups &<<= 1 }
            return groups
        }

        /// The high bits of an entry lane, which hold the tag.
        @inlinable var tagMask: UInt32 { ~payloadMask }

        /// Every lane, entry and control.
        @inlinable var laneCount: Int { (groupMask &+ 1) &* _LaneGroup.lanes }

        /// The home group of `hash`.
        @inlinable @inline(__always)
        func home(_ hash: _SlotHash) -> Int { hash.group(shift: groupShift, mask: groupMask) }

        /// The tag of `hash`, top bit set so that no entry's tag bits are zero.
        @inlinable @inline(__always)
        func tag(_ hash: _SlotHash) -> UInt32 { (hash.tagBits | 1 << 31) & tagMask }
    }

    /// The slot of `key`, tagged `tag`, among the live entries from group `home` on; -1 if it has
    /// none.
    ///
    /// - Complexity: O(1) expected: one group unless the home group overflowed.
    @inlinable @inline(__always)
    static func find<Liveness: _LaneLiveness, Keys: _LaneKeys>(
        _ key: Keys.Key, tag: UInt32, home: Int, geometry: Geometry,
        lanes: UnsafeBufferPointer<UInt32>, liveness: Liveness, keys: Keys
    ) -> Int {
        let groupMask = geometry.groupMask
        let tagMask = geometry.tagMask
        var group = home
        // A chain through every group is impossible, but the bound keeps the loop finite by
        // construction.
        var groupsLeft = groupMask
        while true {
            let base = group &* _LaneGroup.lanes
            var matches = _LaneGroup.entries(lanes, at: base, masked: tagMask, equalTo: tag)
            while !matches.isEmpty {
                let slot = liveness.liveSlot(lanes[base &+ matches.first])
                if slot >= 0 && keys.laneKey(at: slot) == key { return slot }
                matches.removeFirst()
            }
            if !liveness.continuesPast(lanes[base &+ _LaneGroup.entryLanes]) || groupsLeft == 0 { return -1 }
            groupsLeft &-= 1
            group = (group &+ 1) & groupMask
        }
    }

    /// Writes `entry` into the first lane free by `liveness` from group `home` on, marking every
    /// full group it passes. The table must have a free lane.
    ///
    /// - Complexity: O(1) expected.
    @inlinable @inline(__always)
    static func insert<Liveness: _LaneLiveness>(
        _ entry: UInt32, home: Int, groupMask: Int, lanes: UnsafeMutableBufferPointer<UInt32>, liveness: Liveness
    ) {
        var group = home
        while true {
            let base = group &* _LaneGroup.lanes
            let free = liveness.freeLanes(_LaneGroup.load(lanes, at: base))
            if !free.isEmpty {
                lanes[base &+ free.first] = entry
                return
            }
            // Seven live entries share this group (about one insertion in ten at 4/7 average
            // load): mark this one as passing, and go on.
            let control = base &+ _LaneGroup.entryLanes
            lanes[control] = liveness.passing(lanes[control])
            group = (group &+ 1) & groupMask
        }
    }
}

/// How a lane table tells live entries from dead ones, and what its control lanes record.
@usableFromInline
protocol _LaneLiveness {
    /// The slot named by the entry lane `lane` when it is live, or -1.
    func liveSlot(_ lane: UInt32) -> Int
    /// The entry lanes of `group` that a new entry may take.
    func freeLanes(_ group: SIMD8<UInt32>) -> _LaneSet
    /// Whether a lookup must go on past a group whose control lane is `control`.
    func continuesPast(_ control: UInt32) -> Bool
    /// The control lane of a full group once a new entry has passed it.
    func passing(_ control: UInt32) -> UInt32
}

/// The caller-owned array a lane table's slots index: the only copy of each key.
@usableFromInline
protocol _LaneKeys {
    associatedtype Key: _LaneKey
    /// The key in `slot`.
    func laneKey(at slot: Int) -> Key
}

/// A key a lane table files: compared in full, hashed by `_SlotHash`.
@usableFromInline
protocol _LaneKey: Equatable {
    var slotHash: _SlotHash { get }
}

/// An element of a key array: the key itself, or a record that carries it.
@usableFromInline
protocol _LaneKeyed {
    associatedtype LaneKey: _LaneKey
    var laneKey: LaneKey { get }
}

extension EnvelopeID: _LaneKey, _LaneKeyed {
    @inlinable var slotHash: _SlotHash { _SlotHash(self) }
    @inlinable var laneKey: EnvelopeID { self }
}

/// A fingerprint digest.
extension UInt64: _LaneKey, _LaneKeyed {
    @inlinable var slotHash: _SlotHash { _SlotHash(digest: self) }
    @inlinable var laneKey: UInt64 { self }
}

extension Array: _LaneKeys where Element: _LaneKeyed {
    @inlinable @inline(__always)
    func laneKey(at slot: Int) -> Element.LaneKey { self[slot].laneKey }
}

extension ContiguousArray: _LaneKeys where Element: _LaneKeyed {
    @inlinable @inline(__always)
    func laneKey(at slot: Int) -> Element.LaneKey { self[slot].laneKey }
}

extension UnsafeBufferPointer: _LaneKeys where Element: _LaneKeyed {
    @inlinable @inline(__always)
    func laneKey(at slot: Int) -> Element.LaneKey { self[slot].laneKey }
}
