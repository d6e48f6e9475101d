/// Fixed-width bit fields packed back to back in `UInt64` words, as `CuckooFilter` keeps its
/// buckets (4·f bits each) and its FIFO ring (log₂(buckets) + f bits each). Every array ends in
/// one spare word, so a field straddling a word boundary is always two reads.
@usableFromInline
enum _CuckooPackedFields {
    /// The `index`-th field of `width` bits (1…64) in `words`, which has a spare word at the end.
    @inlinable @inline(__always)
    static func load(at index: Int, width: Int, from words: [UInt64]) -> UInt64 {
        let offset = index &* width
        let word = offset &>> 6
        let shift = UInt64(truncatingIfNeeded: offset & 63)
        var value = words[word] &>> shift
        if shift != 0 { value |= words[word &+ 1] &<< (64 &- shift) }
        return width == 64 ? value : value & ((1 &<< UInt64(truncatingIfNeeded: width)) &- 1)
    }

    /// Writes `value` (which fits in `width` bits) as the `index`-th field of `words`.
    @inlinable @inline(__always)
    static func store(_ value: UInt64, at index: Int, width: Int, in words: inout [UInt64]) {
        let offset = index &* width
        let word = offset &>> 6
        let shift = UInt64(truncatingIfNeeded: offset & 63)
        let mask: UInt64 = width == 64 ? ~0 : (1 &<< UInt64(truncatingIfNeeded: width)) &- 1
        words[word] = words[word] & ~(mask &<< shift) | value &<< shift
        if shift != 0 && Int(shift) &+ width > 64 {
            let spill = 64 &- shift
            words[word &+ 1] = words[word &+ 1] & ~(mask &>> spill) | value &>> spill
        }
    }
}
