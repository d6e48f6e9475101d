/// A time-bounded Bloom filter of consumed envelope ids (`aging-bloom`): two Bloom generations
/// that rotate every `retention`, so the filter forgets old ids instead of filling up forever.
///
/// New ids go into the current generation. When `retention` has passed since the current
/// generation began, the previous one is cleared in place and becomes the current one. A lookup
/// checks both.
///
/// Guarantees:
/// - **Missed duplicates only past the retention.** An id is remembered for more than
///   `retention` after it was accepted, and forgotten once 2 × `retention` have passed since its
///   generation began (at most 2 × `retention` after acceptance; the clearing happens at the
///   first `consume` from then on). A repeat refused from the previous generation is not
///   re-inserted, so its horizon stays the first acceptance. Ageing out is not an eviction;
///   ``evictions`` is always 0.
/// - **False drops happen**, with probability ``theoreticalFalsePositiveRate``: the union of the
///   two generations, 1 − (1 − p_current)(1 − p_previous). Each generation is sized for
///   `expectedRatePerSecond × retention` ids at 1 − √(1 − p), so the union stays at about
///   `falsePositiveRate` while the traffic matches the expected rate. Faster traffic raises it;
///   memory never grows.
///
/// Memory: two bit arrays of m = −n·ln p′ / (ln 2)² bits each (n and p′ as above), plus a log of
/// up to m/1024 dirtied words per generation, about 2.85 bytes per id of n at 1%; fixed at
/// construction, so flat over any run length.
///
/// - Complexity: `consume` is O(k), plus clearing a generation once per `retention`: O(words
///   dirtied) while at most 1 in 16 words was dirtied (quiet traffic), else O(m/64). `contains`
///   is O(k). No allocation after construction.
public struct AgingBloomFilter: ProbabilisticConsumedSet, Sendable {
    public static let strategyID = "aging-bloom"
    public static let guarantee: Guarantee = .mayDrop(forgetting: .afterTime(fraction: 1))

    /// The size of each of the two generations.
    public let generationSizing: BloomSizing
    /// How long each generation collects new ids; an id is remembered at least this long.
    public let retention: Duration

    @usableFromInline var current: _BloomBits
    @usableFromInline var previous: _BloomBits
    @usableFromInline var currentInsertions: Int
    @usableFromInline var previousInsertions: Int
    /// Generations of `retention`, at least 1 ns; earlier times are clamped to the latest.
    @usableFromInline var clock: _GenerationClock

    /// Builds an empty filter from `retention`, `expectedRatePerSecond` and `falsePositiveRate`.
    /// `capacity` is only validated: the generations are sized from the rate.
    ///
    /// - Throws: ``ConfigurationError`` for a negative capacity, a rate outside (0, 1), a
    ///   retention under 1 ns, a non-positive or non-finite expected rate, or two generations
    ///   past 2³⁵ bits (4 GiB).
    /// - Complexity: O(m/64).
    public init(configuration: ConsumedSetConfiguration) throws(ConfigurationError) {
        let strategy = Self.strategyID
        try _CapacityValidation.validated(configuration.capacity, strategy: strategy)
        try _FilterValidation.falsePositiveRate(configuration.falsePositiveRate, strategy: strategy)
        let nanoseconds = configuration.retention.wholeNanoseconds
        guard nanoseconds >= 1 else {
            throw ConfigurationError(
                strategy: strategy, parameter: "retention", reason: "must be at least 1 ns, got \(configuration.retention)")
        }
        let rate = configuration.expectedRatePerSecond
        guard rate > 0 && rate.isFinite else {
            throw ConfigurationError(
                strategy: strategy, parameter: "expectedRatePerSecond", reason: "must be positive and finite, got \(rate)")
        }
        let perGeneration = (rate * Double(nanoseconds) / 1e9).rounded(.up)
        guard perGeneration <= Double(_FilterValidation.maximumBits) else {
            throw ConfigurationError(
                strategy: strategy, parameter: "expectedRatePerSecond",
                reason: "rate × retention expects \(perGeneration) ids per generation; at most 2^35 are supported")
        }
        // Two generations each at p′ make a union of 1 − (1 − p′)² = p. p′ = 1 − √(1 − p), written
        // as p / (1 + √(1 − p)) so small rates do not cancel to 0.
        let union = configuration.falsePositiveRate
        let generationRate = union / (1 + (1 - union).squareRoot())
        let sizing = try BloomSizing(
            expectedCount: max(1, Int(perGeneration)), falsePositiveRate: generationRate, strategy: strategy,
            countParameter: "expectedRatePerSecond")
        try _FilterValidation.size(2 * Double(sizing.bitCount), parameter: "expectedRatePerSecond", strategy: strategy)
        self.generationSizing = sizing
        self.retention = configuration.retention
        // Rotation clears a generation; logging up to 1 in 16 of its words (3% more memory) lets a
        // sparse one clear in O(words dirtied) rather than O(m/64).
        let logCapacity = sizing.bitCount / 64 / 16
        self.current = _BloomBits(bitCount: sizing.bitCount, hashCount: sizing.hashCount, dirtyLogCapacity: logCapacity)
        // Its own storage, not a copy-on-write share of `current`, so the first write allocates
        // nothing.
        self.previous = _BloomBits(bitCount: sizing.bitCount, hashCount: sizing.hashCount, dirtyLogCapacity: logCapacity)
        self.currentInsertions = 0
        self.previousInsertions = 0
        self.clock = _GenerationClock(period: nanoseconds)
    }

    /// Rotates the generations up to `now`, then returns `true` unless `id` is in either one; a new
    /// id goes into the current generation.
    ///
    /// - Complexity: O(k), plus a generation's clear at rotation (see the type's complexity).
    @inlinable @inline(__always)
    @discardableResult
    public mutating func consume(_ id: EnvelopeID, at now: Timestamp) -> Bool {
        advance(to: now.nanoseconds)
        let probes = _BloomProbes(id)
        if previous.contains(probes) { return false }
        let alreadySet = current.insert(probes)
        if !alreadySet { currentInsertions &+= 1 }
        return !alreadySet
    }

    /// Whether `id` is in either live generation, as of the latest `consume`.
    ///
    /// - Complexity: O(k).
    @inlinable
    public func contains(_ id: EnvelopeID) -> Bool {
        let probes = _BloomProbes(id)
        return current.contains(probes) || previous.contains(probes)
    }

    @inlinable
    mutating func advance(to now: Int64) {
        switch clock.advance(to: now) {
        case 0:
            return
        case 1:
            swap(&current, &previous)
            previousInsertions = currentInsertions
        default:
            previous.removeAll()
            previousInsertions = 0
        }
        current.removeAll()
        currentInsertions = 0
    }

    /// Insertions represented in the two live generations.
    public var count: Int { currentInsertions + previousInsertions }

    /// Bytes of both bit arrays.
    public var footprint: Int { current.footprint + previous.footprint }

    /// Always 0: ids age out, which is not an eviction.
    public var evictions: Int { 0 }

    /// 1 − (1 − p_current)(1 − p_previous), each p = (set bits / m)ᵏ of its generation: the chance
    /// a never-consumed id is refused now.
    public var theoreticalFalsePositiveRate: Double {
        1 - (1 - current.falsePositiveRate) * (1 - previous.falsePositiveRate)
    }

    #if PUSHDEDUPE_INTERNAL_CHECKS
    package func _checkInvariants() {
        current._checkInvariants()
        previous._checkInvariants()
        precondition(current.words.count == previous.words.count, "generations differ in size")
        precondition(currentInsertions >= 0 && previousInsertions >= 0, "negative insertion count")
        precondition(!clock.started || clock.admits(start: clock.start, latest: clock.latest),
                     "latest time outside the current generation")
    }
    #endif
}
