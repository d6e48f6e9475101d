/// Whole-group views of the 8-lane `UInt32` groups that `FIFOSet` and `_SlotIndex` index with:
/// one 32-byte load and one vector compare per question, instead of seven scalar loads and
/// compares (SSE2 on baseline x86-64, NEON on arm64; pure Swift either way).
///
/// Lane 7 of a group is its control lane, so callers mask results with ``entryLaneBits``.
@usableFromInline
enum _LaneGroup {
    /// Bits 0...6: the seven entry lanes.
    @inlinable static var entryLaneBits: UInt32 { 0x7f }

    /// The eight lanes from lane `base`, a multiple of 8 below `lanes.count`.
    @inlinable @inline(__always)
    static func load(_ lanes: UnsafeBufferPointer<UInt32>, at base: Int) -> SIMD8<UInt32> {
        assert(base >= 0 && base &+ 8 <= lanes.count, "group at lane \(base) outside \(lanes.count) lanes")
        // Unchecked: every caller's base is a group index times 8, below the lane count.
        return UnsafeRawPointer(lanes.baseAddress.unsafelyUnwrapped + base).loadUnaligned(as: SIMD8<UInt32>.self)
    }

    @inlinable @inline(__always)
    static func load(_ lanes: UnsafeMutableBufferPointer<UInt32>, at base: Int) -> SIMD8<UInt32> {
        load(UnsafeBufferPointer(lanes), at: base)
    }

    /// Bit i set when lane i of `mask` is true.
    @inlinable @inline(__always)
    static func bits(_ mask: SIMDMask<SIMD8<Int32>>) -> UInt32 {
        // `SIMDMask` is frozen, with the signed lanes as its one stored property, and a
        // comparison fills a true lane with ones. `replacing(with:where:)` would say the same
        // through generic code that does not vectorize (a tenth slower per `fifo-set` consume).
        (unsafeBitCast(mask, to: SIMD8<UInt32>.self) & SIMD8(1, 2, 4, 8, 16, 32, 64, 128)).wrappedSum()
    }
}
