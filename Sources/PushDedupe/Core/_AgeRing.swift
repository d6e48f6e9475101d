/// A ring of the last `capacity` keys indexed by a lane table under liveness by sequence age
/// (`_RetainedByAge`): `fifo-set` (ids, forgotten by count) and `hash-deque` (fingerprints,
/// expired by time from the front). Both need no index work to forget the oldest key: its lane
/// just reads as not retained once fewer than its age are retained.
///
/// The sizes are fixed at construction, in one value so the per-event code can copy it out of
/// its owner before it opens the storage.
@usableFromInline
struct _AgeRing: Sendable {
    @usableFromInline let capacity: Int
    /// The lane table; its payloads are sequence numbers.
    @usableFromInline let table: _LaneTable.Geometry
    /// Lanes the cursor restamps per inserted key: 1, or more only for capacities above 2²⁹.
    @usableFromInline let sweptLanesPerAccept: Int
    /// The lane count less one (a power of two less one).
    @usableFromInline let laneMask: Int

    /// One group of eight lanes per four slots, rounded up to a power of two.
    ///
    /// The cursor restamps every lane that is not retained once per pass, so no lane's
    /// sequence number is older than `capacity` plus one pass; the sequence field must tell
    /// those ages apart within 31 bits (the top bit is the tag's). One lane per accept (a
    /// pass of 2 · capacity accepts at a power-of-two capacity) fits up to 2²⁹; above, the
    /// cursor restamps 2 lanes per accept, and 4 at 2³⁰.
    @usableFromInline
    init(capacity: Int) {
        let lanes = Self.laneCount(capacity: capacity)
        var swept = 1
        while capacity + lanes / swept >= 1 << 31 { swept &<<= 1 }
        self.init(capacity: capacity, sweptLanesPerAccept: swept)
    }

    /// The sizes for `capacity` with the cursor at a given speed, a power of two that divides
    /// the lane count. Tests force a faster cursor at small sizes, to cover what only
    /// capacities above 2²⁹ do otherwise.
    @usableFromInline
    init(capacity: Int, sweptLanesPerAccept swept: Int) {
        let lanes = Self.laneCount(capacity: capacity)
        precondition(swept > 0 && swept & (swept - 1) == 0 && lanes % swept == 0, "cursor speed must divide the lanes")
        let oldestAge = capacity + lanes / swept
        let sequenceBits = Int.bitWidth - oldestAge.leadingZeroBitCount
        self.capacity = capacity
        self.table = _LaneTable.Geometry(slots: capacity, slotsPerGroup: 4, payloadBits: sequenceBits)
        self.sweptLanesPerAccept = swept
        self.laneMask = lanes - 1
    }

    static func laneCount(capacity: Int) -> Int {
        _LaneTable.Geometry.groupCount(slots: capacity, slotsPerGroup: 4) * _LaneGroup.lanes
    }

    @inlinable var groupMask: Int { table.groupMask }
    /// The low bits of a lane that hold a sequence number.
    @inlinable var sequenceMask: UInt32 { table.payloadMask }
    /// The high bits that hold the tag; its top bit is always set in an entry.
    @inlinable var tagMask: UInt32 { table.tagMask }
}

extension _AgeRing {
    /// The tag bits of `hash` with the top bit set, so no entry's tag is a vacant lane's zero.
    @inlinable @inline(__always)
    func tag(_ hash: _SlotHash) -> UInt32 { table.tag(hash) }

    /// A vacant lane: tag zero and the sequence number of a key `capacity + 1` insertions before
    /// the one numbered `sequence`, so it reads as not retained until the cursor restamps it.
    @inlinable @inline(__always)
    func vacantStamp(sequence: UInt32) -> UInt32 {
        (sequence &- UInt32(truncatingIfNeeded: capacity &+ 1)) & sequenceMask
    }

    /// The liveness rule when `sequence` is the number the next key gets, the `count` newest keys
    /// are retained, and `next` is the ring slot the next key goes to.
    @inlinable @inline(__always)
    func liveness(sequence: UInt32, count: Int, next: Int) -> _RetainedByAge {
        _RetainedByAge(sequenceMask: sequenceMask, sequence: sequence, count: count, next: next, capacity: capacity)
    }

    /// The slot of `key` among the `count` newest keys, `sequence` being the number the next key
    /// gets and `next` the ring slot it goes to; -1 if it is not retained.
    ///
    /// - Complexity: O(1) expected.
    @inlinable @inline(__always)
    func find<Keys: _LaneKeys>(
        _ key: Keys.Key, hash: _SlotHash, sequence: UInt32, count: Int, next: Int,
        lanes: UnsafeBufferPointer<UInt32>, keys: Keys
    ) -> Int {
        _LaneTable.find(
            key, tag: table.tag(hash), home: table.home(hash), geometry: table, lanes: lanes,
            liveness: liveness(sequence: sequence, count: count, next: next), keys: keys)
    }

    /// Files the key numbered `sequence`, hashing to `hash`, that is about to go into ring slot
    /// `next` while `retained` older keys stay retained; then restamps the lanes under the
    /// cursor at `sweep` that are not retained once it is in. The caller moves the cursor on by
    /// `sweptLanesPerAccept` and counts the insertion.
    ///
    /// - Complexity: O(1) expected.
    @inlinable @inline(__always)
    func insert(
        hash: _SlotHash, sequence: UInt32, retained: Int, next: Int, sweep: Int,
        lanes: UnsafeMutableBufferPointer<UInt32>
    ) {
        _LaneTable.insert(
            table.tag(hash) | sequence, home: table.home(hash), groupMask: groupMask, lanes: lanes,
            liveness: liveness(sequence: sequence, count: retained, next: next))
        let following = (sequence &+ 1) & sequenceMask
        let vacant = vacantStamp(sequence: following)
        let after = liveness(sequence: following, count: retained &+ 1, next: next)
        // One lane unless the capacity is above 2²⁹; the one-lane case is kept straight-line
        // (a loop of one trip cost about 1 ns per accept).
        if sweptLanesPerAccept == 1 {
            after.restamp(sweep, vacant: vacant, lanes: lanes)
        } else {
            for lane in sweep..<sweep &+ sweptLanesPerAccept {
                after.restamp(lane, vacant: vacant, lanes: lanes)
            }
        }
    }
}
