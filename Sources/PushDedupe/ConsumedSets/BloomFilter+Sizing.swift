/// The size of a Bloom filter: how many bits and probes it takes to hold `expectedCount` ids at a
/// target false-positive rate, or at a given number of bits per entry.
///
/// For a target rate p the optimum is m/n = −ln p / (ln 2)² bits per entry and k = (m/n)·ln 2
/// probes, rounded to the nearest whole probe and at least 1. The bit count is rounded up to whole
/// 64-bit words, and is at least one word, so a filter for 0 or 1 ids is a single word.
///
/// ```swift
/// let sizing = try BloomSizing(expectedCount: 65_536, falsePositiveRate: 0.01)
/// // sizing.bitsPerEntry ≈ 9.585, sizing.hashCount == 7, sizing.bitCount == 628_224
/// ```
///
/// The harness sweeps memory with ``init(expectedCount:bitsPerEntry:)``.
public struct BloomSizing: Hashable, Sendable {
    /// The number of ids the filter is sized for (n).
    public private(set) var expectedCount: Int
    /// The design ratio m/n before rounding to words.
    public private(set) var bitsPerEntry: Double
    /// Probes per id (k).
    public private(set) var hashCount: Int
    /// Bits in the array (m): a positive multiple of 64.
    public private(set) var bitCount: Int
    /// (1 − e^(−k·n/m))ᵏ with the rounded m and k, once `expectedCount` ids are in.
    public private(set) var expectedFalsePositiveRate: Double

    /// Sizes a filter for `expectedCount` ids at false-positive rate `falsePositiveRate`.
    ///
    /// - Throws: ``ConfigurationError`` for a negative count, a rate outside (0, 1), or a size past
    ///   2³⁵ bits (4 GiB) of storage.
    /// - Complexity: O(1).
    public init(expectedCount: Int, falsePositiveRate: Double) throws(ConfigurationError) {
        try self.init(expectedCount: expectedCount, falsePositiveRate: falsePositiveRate, strategy: BloomFilter.strategyID)
    }

    /// Sizes a filter for `expectedCount` ids with `bitsPerEntry` bits each and the optimal k for
    /// that ratio, round((m/n)·ln 2).
    ///
    /// - Throws: ``ConfigurationError`` for a negative count, a ratio that is not positive and
    ///   finite, or a size past 2³⁵ bits (4 GiB) of storage.
    /// - Complexity: O(1).
    public init(expectedCount: Int, bitsPerEntry: Double) throws(ConfigurationError) {
        let strategy = BloomFilter.strategyID
        try _CapacityValidation.validated(expectedCount, strategy: strategy)
        guard bitsPerEntry > 0 && bitsPerEntry.isFinite else {
            throw ConfigurationError(
                strategy: strategy, parameter: "bitsPerEntry", reason: "must be positive and finite, got \(bitsPerEntry)")
        }
        try self.init(
            expectedCount: expectedCount, bitsPerEntry: bitsPerEntry, strategy: strategy,
            countParameter: "capacity", ratioParameter: "bitsPerEntry")
    }

    /// `countParameter` names the configuration field `expectedCount` came from, so a size error
    /// points at what the user set (`aging-bloom` derives it from rate × retention).
    init(
        expectedCount: Int, falsePositiveRate: Double, strategy: String, countParameter: String = "capacity"
    ) throws(ConfigurationError) {
        try _CapacityValidation.validated(expectedCount, strategy: strategy)
        try _FilterValidation.falsePositiveRate(falsePositiveRate, strategy: strategy)
        let ratio = -DeterministicMath.log(falsePositiveRate) / (DeterministicMath.ln2 * DeterministicMath.ln2)
        try self.init(
            expectedCount: expectedCount, bitsPerEntry: ratio, strategy: strategy,
            countParameter: countParameter, ratioParameter: "falsePositiveRate")
    }

    private init(
        expectedCount: Int, bitsPerEntry: Double, strategy: String, countParameter: String, ratioParameter: String
    ) throws(ConfigurationError) {
        let bits = (bitsPerEntry * Double(expectedCount)).rounded(.up)
        try _FilterValidation.size(bits, parameter: countParameter, strategy: strategy)
        let hashes = (bitsPerEntry * DeterministicMath.ln2).rounded()
        // k beyond 64 buys nothing measurable and would make every consume slow.
        guard hashes <= 64 else {
            throw ConfigurationError(
                strategy: strategy, parameter: ratioParameter,
                reason: "needs \(hashes) probes per id; at most 64 are supported (about 92 bits per entry, a rate ≥ about 1e-19)")
        }
        self.expectedCount = expectedCount
        self.bitsPerEntry = bitsPerEntry
        self.hashCount = max(1, Int(hashes))
        self.bitCount = max(64, (Int(bits) + 63) / 64 * 64)
        self.expectedFalsePositiveRate = 0
        self.expectedFalsePositiveRate = falsePositiveRate(afterInserting: expectedCount)
    }

    /// The target rate whose optimal sizing spends `bitsPerEntry` bits per id: e^(−b·(ln 2)²).
    ///
    /// Lets a bits-per-entry sweep go through ``ConsumedSetConfiguration/falsePositiveRate``, so
    /// every filter can be built at the same memory point from one configuration.
    ///
    /// - Complexity: O(1).
    public static func falsePositiveRate(forBitsPerEntry bitsPerEntry: Double) -> Double {
        DeterministicMath.exp(-bitsPerEntry * DeterministicMath.ln2 * DeterministicMath.ln2)
    }

    /// (1 − e^(−k·n/m))ᵏ: the textbook false-positive rate after `count` distinct insertions.
    ///
    /// - Complexity: O(1).
    public func falsePositiveRate(afterInserting count: Int) -> Double {
        let perBit = 1 - DeterministicMath.exp(-Double(hashCount) * Double(count) / Double(bitCount))
        return DeterministicMath.power(perBit, hashCount)
    }

    /// Bytes of the bit array per expected id; for a count of 0, the bytes of the whole array.
    ///
    /// - Complexity: O(1).
    public var bytesPerEntry: Double {
        Double(bitCount / 8) / Double(max(1, expectedCount))
    }
}
