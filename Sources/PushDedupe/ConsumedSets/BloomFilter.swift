/// A classic Bloom filter of consumed envelope ids (`bloom`): a fixed bit array and k probes per
/// id, sized for `capacity` ids at `falsePositiveRate` (see ``BloomSizing``).
///
/// Guarantees:
/// - **Never a missed duplicate.** A consumed id's bits stay set for the filter's lifetime, so a
///   repeat is always refused. The filter never forgets and never evicts.
/// - **False drops happen.** A never-consumed id is refused when all its bits were set by others,
///   with probability ``theoreticalFalsePositiveRate`` (about `falsePositiveRate` once `capacity`
///   ids are in, and climbing past it as more arrive: `capacity` is the expected count, not a
///   bound).
///
/// Memory: m = −n·ln p / (ln 2)² bits rounded up to whole words, about 1.2 bytes per id at 1%;
/// fixed at construction, and at least one 64-bit word (so a capacity of 0 or 1 gets a single
/// word at any rate above about 4e-14).
///
/// Probe positions use Kirsch–Mitzenmacher double hashing from `EnvelopeID.hash64`, so they are
/// the same in every run.
///
/// ```swift
/// var consumed = try BloomFilter(configuration: .init(capacity: 65_536, falsePositiveRate: 0.01))
/// consumed.consume(id, at: now)  // true: first time
/// consumed.consume(id, at: now)  // false: a repeat, always caught
/// ```
///
/// - Complexity: `consume` and `contains` are O(k) with k ≈ −log₂ p (7 at 1%); no allocation after
///   construction.
public struct BloomFilter: ProbabilisticConsumedSet, Sendable {
    public static let strategyID = "bloom"
    public static let guarantee: Guarantee = .mayDrop(forgetting: .never)

    /// The size the filter was built with.
    public let sizing: BloomSizing

    @usableFromInline var bits: _BloomBits
    @usableFromInline var insertions: Int

    /// Builds an empty filter sized from `configuration.capacity` (the expected number of ids)
    /// and `configuration.falsePositiveRate`. Retention and rate are ignored.
    ///
    /// - Throws: ``ConfigurationError`` for a negative capacity, a rate outside (0, 1), or a size
    ///   past 2³⁵ bits (4 GiB) of storage.
    /// - Complexity: O(m/64).
    public init(configuration: ConsumedSetConfiguration) throws(ConfigurationError) {
        try self.init(sizing: BloomSizing(expectedCount: configuration.capacity, falsePositiveRate: configuration.falsePositiveRate))
    }

    /// Builds an empty filter of an explicit size, e.g. one from a bits-per-entry sweep.
    ///
    /// - Complexity: O(m/64).
    public init(sizing: BloomSizing) {
        self.sizing = sizing
        self.bits = _BloomBits(bitCount: sizing.bitCount, hashCount: sizing.hashCount)
        self.insertions = 0
    }

    /// Returns `true` unless all of `id`'s bits were already set, and sets them. `now` is ignored:
    /// the filter never forgets.
    ///
    /// - Complexity: O(k).
    @inlinable @inline(__always)
    @discardableResult
    public mutating func consume(_ id: EnvelopeID, at now: Timestamp) -> Bool {
        let alreadySet = bits.insert(_BloomProbes(id))
        if !alreadySet { insertions &+= 1 }
        return !alreadySet
    }

    /// Whether all of `id`'s bits are set.
    ///
    /// - Complexity: O(k).
    @inlinable
    public func contains(_ id: EnvelopeID) -> Bool {
        bits.contains(_BloomProbes(id))
    }

    /// Consumes that set at least one new bit: distinct ids, less those lost to false positives.
    public var count: Int { insertions }

    /// The bit array's bytes.
    public var footprint: Int { bits.footprint }

    /// Always 0: a Bloom filter never drops an id.
    public var evictions: Int { 0 }

    /// (set bits / m)ᵏ: the chance a never-consumed id is refused, computed from the bits actually
    /// set rather than from the insertion count, so it also reflects this filter's luck.
    /// ``BloomSizing/falsePositiveRate(afterInserting:)`` gives the textbook figure for `count`.
    public var theoreticalFalsePositiveRate: Double { bits.falsePositiveRate }

    /// The fraction of bits set.
    ///
    /// - Complexity: O(1).
    public var fillRatio: Double { Double(bits.setBits) / Double(bits.bitCount) }

    #if PUSHDEDUPE_INTERNAL_CHECKS
    package func _checkInvariants() {
        bits._checkInvariants()
        precondition(bits.bitCount == sizing.bitCount && bits.hashCount == sizing.hashCount, "storage differs from sizing")
        precondition(insertions >= 0 && bits.setBits <= insertions * sizing.hashCount, "more bits set than probes made")
    }
    #endif
}
