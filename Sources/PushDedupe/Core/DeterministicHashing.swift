/// Deterministic hashing shared by every strategy.
///
/// Swift's `Hasher` is seeded per process, so anything that decides which slot or Bloom bit an
/// id lands in would differ between runs. Every index and probe in this library goes through
/// these functions instead; their output depends only on their input.
public enum DeterministicHashing {
    /// FNV-1a 64-bit offset basis.
    @usableFromInline static let fnvOffsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    /// FNV-1a 64-bit prime.
    @usableFromInline static let fnvPrime: UInt64 = 0x0000_0100_0000_01b3

    /// The 64-bit finalizer of SplitMix64 (Steele, Lea & Flood 2014; constants from Stafford's
    /// "Mix13"). A bijection on `UInt64` whose every output bit depends on every input bit.
    ///
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    public static func mix64(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z &>> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z &>> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z &>> 31)
    }

    /// FNV-1a over the bytes, seeded by xoring `seed` into the offset basis, then `mix64`.
    ///
    /// FNV-1a alone leaves the low bits weakly mixed for short keys; the finalizer fixes that, so
    /// the low bits can index a power-of-two table directly.
    ///
    /// - Complexity: O(*n*) in the number of bytes.
    @inlinable
    public static func fnv1a64<Bytes: Sequence>(_ bytes: Bytes, seed: UInt64 = 0) -> UInt64
    where Bytes.Element == UInt8 {
        var hash = fnvOffsetBasis ^ seed
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* fnvPrime
        }
        return mix64(hash)
    }
}
