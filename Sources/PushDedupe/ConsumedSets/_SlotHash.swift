/// Where the exact sets (`fifo-set`, `bounded-lru`, `rotating-sets`) file an id: a group of
/// lanes and a tag within it.
///
/// These sets compare the full 128-bit id on every candidate, so the hash only spreads ids and
/// never decides an answer, and their lookups wait on it. It is therefore Fibonacci hashing
/// (two multiplies deep) rather than `hash64` (three multiplies and the shifts of `mix64`): the
/// halves are combined as `high ^ low · K` (an odd multiply, so ids that differ in one half
/// never collide), then multiplied by two odd constants whose upper bits give the group and the
/// tag. The filters keep `hash64`: their answers depend on how independent its bits are.
@usableFromInline
struct _SlotHash {
    /// Bits 32 and up index groups: the upper half of a product mixes every input bit.
    @usableFromInline let spread: UInt64
    /// The upper 32 bits of an independent product, for the lane tag.
    @usableFromInline let tagBits: UInt32

    @inlinable @inline(__always)
    init(_ id: EnvelopeID) {
        let combined = id.high ^ (id.low &* 0x9e37_79b9_7f4a_7c15)
        spread = combined &* 0xbf58_476d_1ce4_e5b9
        tagBits = UInt32(truncatingIfNeeded: (combined &* 0x94d0_49bb_1331_11eb) &>> 32)
    }

    /// The home group among `groupMask + 1`, a power of two up to 2³².
    @inlinable @inline(__always)
    func group(_ groupMask: Int) -> Int {
        Int(truncatingIfNeeded: spread &>> 32) & groupMask
    }
}
