/// Liveness by explicit deletion: an entry lane is `tag | (slot + 1)` until its owner removes
/// it, zero when empty; a control lane counts the live entries that passed its full group, so a
/// lookup goes on while it is non-zero. Deletion (`_SlotIndex.remove`) clears the lane and
/// decrements the counts along the way: no tombstones, nothing to rebuild.
@usableFromInline
struct _DeletedExplicitly: _LaneLiveness {
    /// The low bits of an entry, which hold `slot + 1`.
    @usableFromInline let slotMask: UInt32

    @inlinable
    init(slotMask: UInt32) { self.slotMask = slotMask }

    /// The lane of `slot` under `tag`.
    @inlinable @inline(__always)
    func entry(tag: UInt32, slot: Int) -> UInt32 { tag | UInt32(truncatingIfNeeded: slot &+ 1) }

    @inlinable @inline(__always)
    func liveSlot(_ lane: UInt32) -> Int { Int(truncatingIfNeeded: lane & slotMask) &- 1 }

    @inlinable @inline(__always)
    func freeLanes(_ group: SIMD8<UInt32>) -> _LaneSet {
        _LaneGroup.entryLanes(group .== SIMD8(repeating: 0))
    }

    @inlinable @inline(__always)
    func continuesPast(_ control: UInt32) -> Bool { control != 0 }

    @inlinable @inline(__always)
    func passing(_ control: UInt32) -> UInt32 { control &+ 1 }
}

/// Liveness by sequence age, for a ring of the last `count` keys: an entry lane is
/// `tag | sequence`, the key's insertion number modulo the field, so its age (how many
/// insertions ago it came) says both whether it is still retained (age ≤ `count`) and where it
/// sits (age slots before `next`). Overwriting the oldest ring slot therefore needs no index
/// work: its lane just reads as not retained from then on. A control lane holds the sequence
/// number of the newest key that overflowed past its group, and a lookup goes on while that key
/// is retained. The owner restamps stale lanes (`restamp`) so no age wraps round to look young.
@usableFromInline
struct _RetainedByAge: _LaneLiveness {
    /// The low bits of a lane that hold a sequence number.
    @usableFromInline let sequenceMask: UInt32
    /// The number the next key gets.
    @usableFromInline let sequence: UInt32
    /// How many of the newest keys are retained.
    @usableFromInline let count: Int
    /// The ring slot the next key goes to, and the ring's length.
    @usableFromInline let next: Int
    @usableFromInline let capacity: Int

    @inlinable @inline(__always)
    init(sequenceMask: UInt32, sequence: UInt32, count: Int, next: Int, capacity: Int) {
        self.sequenceMask = sequenceMask
        self.sequence = sequence
        self.count = count
        self.next = next
        self.capacity = capacity
    }

    /// 1 when `lane` (entry or control) holds the sequence number of one of the `count` newest
    /// keys; 0 otherwise.
    @inlinable @inline(__always)
    func retainedBit(_ lane: UInt32) -> UInt32 {
        // Age 1 is the newest key; restamping keeps every lane's age within the field.
        let age = (sequence &- lane) & sequenceMask
        return age &- 1 < UInt32(truncatingIfNeeded: count) ? 1 : 0
    }

    @inlinable @inline(__always)
    func liveSlot(_ lane: UInt32) -> Int {
        let age = (sequence &- lane) & sequenceMask
        guard age &- 1 < UInt32(truncatingIfNeeded: count) else { return -1 }
        // The key inserted `age` insertions ago sits `age` slots before `next`.
        let back = next &- Int(truncatingIfNeeded: age)
        return back &+ capacity & (back &>> (Int.bitWidth &- 1))
    }

    /// The complement of `retainedBit`, for the group's seven entry lanes at once.
    @inlinable @inline(__always)
    func freeLanes(_ group: SIMD8<UInt32>) -> _LaneSet {
        // A lane is not retained when its age less one, (sequence - 1 - lane) mod 2^b, is at
        // least `count` (age 0 comes out as 2^b - 1, which the geometry makes larger than the
        // capacity). Both are below 2³¹, so adding 2³¹ - count sets the top bit exactly then:
        // a test SSE2 has, unlike an unsigned compare.
        let topBit = SIMD8<UInt32>(repeating: 1 << 31)
        let agesLessOne = (SIMD8(repeating: sequence &- 1) &- group) & SIMD8(repeating: sequenceMask)
        let biased = agesLessOne &+ SIMD8(repeating: (1 << 31) &- UInt32(truncatingIfNeeded: count))
        return _LaneGroup.entryLanes(biased & topBit .== topBit)
    }

    @inlinable @inline(__always)
    func continuesPast(_ control: UInt32) -> Bool { retainedBit(control) != 0 }

    @inlinable @inline(__always)
    func passing(_ control: UInt32) -> UInt32 { sequence }

    /// Restamps `lane` as `vacant` unless it is retained.
    @inlinable @inline(__always)
    func restamp(_ lane: Int, vacant: UInt32, lanes: UnsafeMutableBufferPointer<UInt32>) {
        let value = lanes[lane]
        let keep = 0 &- retainedBit(value)
        lanes[lane] = value & keep | vacant & ~keep
    }
}
