/// Where a lane table (`_LaneTable`) files a key, an envelope id or a fingerprint digest: a
/// group of lanes and a tag within it.
///
/// Lane tables compare the full key (a 128-bit id, a 64-bit digest) on every candidate, so the
/// hash only spreads keys and never decides an answer, and their lookups wait on it. It is therefore Fibonacci hashing
/// (two multiplies deep) rather than `hash64` (three multiplies and the shifts of `mix64`): the
/// halves are combined as `high ^ low · K` (an odd multiply, so ids that differ in one half
/// never collide), then multiplied by two odd constants whose *top* bits give the group and the
/// tag. Only the top bits will do: bit i of a product depends on the input's bits 0...i alone,
/// so lower bits would ignore the id's high bits (ids that differ only there, such as
/// time-ordered ones, would share one group). The filters keep `hash64`: their answers depend
/// on how independent its bits are.
@usableFromInline
struct _SlotHash {
    /// A product whose top bits index groups.
    @usableFromInline let spread: UInt64
    /// The top 32 bits of an independent product; lanes keep the top bits of these as tags.
    @usableFromInline let tagBits: UInt32

    @inlinable @inline(__always)
    init(_ id: EnvelopeID) {
        self.init(digest: id.high ^ (id.low &* 0x9e37_79b9_7f4a_7c15))
    }

    /// The hash of a 64-bit key: a fingerprint digest, or an id's halves combined.
    @inlinable @inline(__always)
    init(digest: UInt64) {
        spread = digest &* 0xbf58_476d_1ce4_e5b9
        tagBits = UInt32(truncatingIfNeeded: (digest &* 0x94d0_49bb_1331_11eb) &>> 32)
    }

    /// The home group among `groupMask + 1`, a power of two up to 2³², given
    /// `shift = _SlotHash.shift(forGroupMask: groupMask)`: the top bits of `spread`.
    @inlinable @inline(__always)
    func group(shift: UInt64, mask groupMask: Int) -> Int {
        // With one group the shift is 64, which `&>>` takes as 0; the mask then gives 0.
        Int(truncatingIfNeeded: spread &>> shift) & groupMask
    }

    /// The shift that leaves log₂(groups) top bits; computed once per table, since counting
    /// bits is a dozen instructions on baseline x86-64.
    @inlinable
    static func shift(forGroupMask groupMask: Int) -> UInt64 {
        UInt64(truncatingIfNeeded: 64 &- groupMask.nonzeroBitCount)
    }

    /// The home group, for code off the per-event path.
    @inlinable
    func group(_ groupMask: Int) -> Int {
        group(shift: Self.shift(forGroupMask: groupMask), mask: groupMask)
    }
}
