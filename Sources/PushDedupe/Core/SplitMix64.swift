/// SplitMix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number generators", 2014):
/// a 64-bit state advanced by the golden-ratio increment and passed through ``DeterministicHashing/mix64``.
///
/// Deterministic on every platform, so a seed reproduces a run exactly. Strategies that need
/// randomness (a Stable Bloom filter's decrements, a cuckoo filter's victim choice) own one,
/// seeded from their configuration; workloads and tests seed theirs from the run's seed.
///
/// `package`, not `public`: the other modules of this package seed their workloads with it, but
/// it is no API for apps (which have `SystemRandomNumberGenerator`).
///
/// ```swift
/// var random = SplitMix64(seed: 42)
/// let roll = Int.random(in: 0..<6, using: &random)
/// ```
@usableFromInline
package struct SplitMix64: RandomNumberGenerator, Hashable, Sendable {
    @usableFromInline var state: UInt64

    @inlinable
    package init(seed: UInt64) {
        self.state = seed
    }

    /// - Complexity: O(1).
    @inlinable
    package mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        return DeterministicHashing.mix64(state)
    }
}
