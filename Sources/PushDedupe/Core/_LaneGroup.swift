/// The lane groups that `FIFOSet` and `_SlotIndex` index with, and whole-group views of them:
/// one 32-byte load and one vector compare per question, instead of seven scalar loads and
/// compares (SSE2 on baseline x86-64, NEON on arm64; pure Swift either way).
///
/// A group is eight `UInt32` lanes: seven entries, then a control lane. Answers are `_LaneSet`s
/// of entry lanes only.
@usableFromInline
enum _LaneGroup {
    // Computed constants rather than stored ones, so that the per-event code sees literals.
    @inlinable static var lanes: Int { 8 }
    @inlinable static var entryLanes: Int { 7 }

    /// The group whose first lane is `base`.
    @inlinable @inline(__always)
    static func load(_ lanes: UnsafeBufferPointer<UInt32>, at base: Int) -> SIMD8<UInt32> {
        assert(base >= 0 && base &+ Self.lanes <= lanes.count, "group at lane \(base) outside \(lanes.count) lanes")
        // Unchecked: every caller's base is group · 8 with group ≤ its group mask, and its lane
        // count is (group mask + 1) · 8. The load is unaligned because `FIFOSet`'s lanes follow
        // its ring in one 8-byte-aligned allocation.
        return UnsafeRawPointer(lanes.baseAddress.unsafelyUnwrapped + base).loadUnaligned(as: SIMD8<UInt32>.self)
    }

    @inlinable @inline(__always)
    static func load(_ lanes: UnsafeMutableBufferPointer<UInt32>, at base: Int) -> SIMD8<UInt32> {
        load(UnsafeBufferPointer(lanes), at: base)
    }

    /// The entry lanes of `group` whose bits under `mask` equal `value`.
    @inlinable @inline(__always)
    static func entries(_ group: SIMD8<UInt32>, masked mask: UInt32, equalTo value: UInt32) -> _LaneSet {
        entryLanes(group & SIMD8(repeating: mask) .== SIMD8(repeating: value))
    }

    /// The entry lanes of the group at `base` whose bits under `mask` equal `value`.
    @inlinable @inline(__always)
    static func entries(
        _ lanes: UnsafeBufferPointer<UInt32>, at base: Int, masked mask: UInt32, equalTo value: UInt32
    ) -> _LaneSet {
        entries(load(lanes, at: base), masked: mask, equalTo: value)
    }

    @inlinable @inline(__always)
    static func entries(
        _ lanes: UnsafeMutableBufferPointer<UInt32>, at base: Int, masked mask: UInt32, equalTo value: UInt32
    ) -> _LaneSet {
        entries(UnsafeBufferPointer(lanes), at: base, masked: mask, equalTo: value)
    }

    /// The entry lanes (0...6) that are true in `mask`, which must come from a lane comparison.
    @inlinable @inline(__always)
    static func entryLanes(_ mask: SIMDMask<SIMD8<Int32>>) -> _LaneSet {
        // `SIMDMask` is frozen, with the signed lanes as its one stored property, and a
        // comparison fills a true lane with ones. Narrowing such lanes to bytes is two
        // saturating packs on SSE2 (one narrowing on NEON), where a bit per lane took a masked
        // horizontal sum of a dozen instructions.
        let bytes = SIMD8<Int8>(truncatingIfNeeded: unsafeBitCast(mask, to: SIMD8<Int32>.self))
        return _LaneSet(bits: unsafeBitCast(bytes, to: UInt64.self) & _LaneSet.entryLaneBits)
    }
}

/// Some lanes of one group, as the top bit of byte i for lane i.
@usableFromInline
struct _LaneSet: Equatable {
    @usableFromInline var bits: UInt64

    @inlinable @inline(__always)
    init(bits: UInt64) { self.bits = bits }

    /// The top bit of each entry lane's byte (lanes 0...6).
    @inlinable static var entryLaneBits: UInt64 { 0x0080_8080_8080_8080 }

    @inlinable var isEmpty: Bool { bits == 0 }

    /// The lowest lane in the set; 8 when it is empty.
    @inlinable var first: Int { bits.trailingZeroBitCount &>> 3 }

    /// Whether the set holds more than its lowest lane.
    @inlinable var hasSeveral: Bool { bits & (bits &- 1) != 0 }

    /// Removes the lowest lane.
    @inlinable @inline(__always)
    mutating func removeFirst() { bits &= bits &- 1 }

    /// Whether `lane` (0...7) is in the set.
    @inlinable func contains(_ lane: Int) -> Bool { bits >> UInt64(lane &* 8 &+ 7) & 1 == 1 }
}
