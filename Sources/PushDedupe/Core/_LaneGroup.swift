/// The lane groups that `FIFOSet` and `_SlotIndex` index with, and whole-group views of them:
/// one 32-byte load and one vector compare per question, instead of seven scalar loads and
/// compares (SSE2 on baseline x86-64, NEON on arm64; pure Swift either way).
///
/// A group is eight `UInt32` lanes: seven entries, then a control lane, so callers mask
/// results with ``entryLaneBits``.
@usableFromInline
enum _LaneGroup {
    // Computed constants rather than stored ones, so that the per-event code sees literals.
    @inlinable static var lanes: Int { 8 }
    @inlinable static var entryLanes: Int { 7 }
    /// A bit per entry lane: bits 0...6.
    @inlinable static var entryLaneBits: UInt32 { 1 << UInt32(entryLanes) - 1 }

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

    /// A bit per entry lane of the group at `base` whose bits under `mask` equal `value`.
    @inlinable @inline(__always)
    static func entries(
        _ lanes: UnsafeBufferPointer<UInt32>, at base: Int, masked mask: UInt32, equalTo value: UInt32
    ) -> UInt32 {
        bits(load(lanes, at: base) & SIMD8(repeating: mask) .== SIMD8(repeating: value)) & entryLaneBits
    }

    @inlinable @inline(__always)
    static func entries(
        _ lanes: UnsafeMutableBufferPointer<UInt32>, at base: Int, masked mask: UInt32, equalTo value: UInt32
    ) -> UInt32 {
        entries(UnsafeBufferPointer(lanes), at: base, masked: mask, equalTo: value)
    }

    /// Bit i set when lane i of `mask` is true; `mask` must come from a lane comparison.
    @inlinable @inline(__always)
    static func bits(_ mask: SIMDMask<SIMD8<Int32>>) -> UInt32 {
        // `SIMDMask` is frozen, with the signed lanes as its one stored property, and a
        // comparison fills a true lane with ones. `replacing(with:where:)` would say the same
        // through generic code that does not vectorize (a tenth slower per `fifo-set` consume).
        (unsafeBitCast(mask, to: SIMD8<UInt32>.self) & SIMD8(1, 2, 4, 8, 16, 32, 64, 128)).wrappedSum()
    }
}
