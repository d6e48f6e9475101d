/// A Stable Bloom filter of consumed envelope ids (`stable-bloom`; Deng & Rafiei, "Approximately
/// detecting duplicates for streaming data using stable Bloom filters", SIGMOD 2006).
///
/// m cells of d = 3 bits (values 0…Max, Max = 7). Each `consume` looks at the id's K cells (seen
/// when none is 0), then decrements P cells by one, then sets the id's K cells to Max. The
/// decrements make old ids fade at a steady pace, so the fraction of non-zero cells settles at a
/// stable point whatever the traffic rate, and memory never grows.
///
/// P is chosen from the paper's stable-point analysis. At the stable point a cell is 0 with
/// probability P₀ = (1 / (1 + 1/(P·(1/K − 1/m))))^Max, so the stable false-positive rate is
/// FPS = (1 − P₀)^K. Solving for P at the target FPS = `falsePositiveRate`:
///
///     P = 1 / ((1 / (1 − FPS^(1/K))^(1/Max) − 1) · (1/K − 1/m))
///
/// rounded to a whole number (at least 1). ``stableFalsePositiveRate`` is FPS for that whole P.
/// K and m are the Bloom filter's for `capacity` ids at `falsePositiveRate` (see ``BloomSizing``),
/// so the filter remembers roughly the last Max·m/P ≈ 1.05·`capacity` ids (for p from 0.1 to 0.001).
///
/// The P decremented cells are consecutive from a random start, a common variant of the paper's
/// P independent cells: each cell is still decremented with probability P/m per consume, which
/// is all the stable-point analysis uses, and it costs one random number and P/21 words. The
/// random start comes from a `SplitMix64` with a fixed seed, so runs repeat exactly.
///
/// Guarantees, both weak:
/// - **Missed duplicates happen**: a repeat is accepted again once one of its cells has decayed to
///   0 (likely after about Max·m/P intervening consumes). Each consume decrements a cell at most
///   once, so a repeat with at most Max − 1 = 6 other consumes between is always caught.
/// - **False drops happen**, at ``theoreticalFalsePositiveRate``, which rises to about
///   ``stableFalsePositiveRate`` and stays there.
///
/// Memory: 3 bits per cell, m ≈ −capacity·ln p / (ln 2)² cells, packed 21 to a 64-bit word: about
/// 3.6 bytes per id of `capacity` at 1%; fixed at construction.
///
/// - Complexity: `consume` is O(K + P/21): the P decrements go a word of 21 cells at a time;
///   `contains` is O(K). No allocation after construction.
public struct StableBloomFilter: ProbabilisticConsumedSet, Sendable {
    public static let strategyID = "stable-bloom"
    public static let guarantee: Guarantee = .mayDrop(forgetting: .anyTime)
    /// The largest cell value, 2^d − 1 for d = 3 bits per cell.
    public static let cellMaximum = 7
    // Computed, not stored, so inlined code folds them (and the division by 21) into constants.
    @inlinable static var bitsPerCell: Int { 3 }
    @inlinable static var cellsPerWord: Int { 21 }
    /// The low bit of each of a word's 21 cells.
    @inlinable static var lowBits: UInt64 { 0x1249_2492_4924_9249 }

    /// Cells in the array (m): a multiple of 21.
    public let cellCount: Int
    /// Cells per id (K).
    public let hashCount: Int
    /// Cells decremented per consume (P).
    public let decrementCount: Int
    /// The false-positive rate the filter settles at: FPS for the whole-number P.
    public let stableFalsePositiveRate: Double

    @usableFromInline var cells: [UInt64]
    @usableFromInline var nonzeroCells: Int
    @usableFromInline var accepted: Int
    @usableFromInline var random: SplitMix64
    /// About how many recent ids the filter still represents: Max·m/P.
    @usableFromInline let retainedEstimate: Int

    /// Builds an empty filter for about `capacity` recent ids at stable false-positive rate
    /// `falsePositiveRate`. Retention and rate are ignored.
    ///
    /// - Throws: ``ConfigurationError`` for a negative capacity, a rate outside (0, 1), or a size
    ///   past 2³⁵ bits (4 GiB) of storage.
    /// - Complexity: O(m/21).
    public init(configuration: ConsumedSetConfiguration) throws(ConfigurationError) {
        let sizing = try BloomSizing(
            expectedCount: configuration.capacity, falsePositiveRate: configuration.falsePositiveRate,
            strategy: Self.strategyID)
        let k = sizing.hashCount
        // P needs 1/K − 1/m > 0, so at least 2K cells.
        let minimumCells = max(sizing.bitCount, 2 * k)
        let m = (minimumCells + Self.cellsPerWord - 1) / Self.cellsPerWord * Self.cellsPerWord
        let maximum = Double(Self.cellMaximum)
        let span = 1 / Double(k) - 1 / Double(m)
        let zeroAtStable = 1 - DeterministicMath.pow(configuration.falsePositiveRate, 1 / Double(k))
        let exact = 1 / ((DeterministicMath.pow(1 / zeroAtStable, 1 / maximum) - 1) * span)
        let p = Int(min(Double(m), max(1, exact.rounded())))
        self.cellCount = m
        self.hashCount = k
        self.decrementCount = p
        self.stableFalsePositiveRate = Self.stableRate(decrements: p, cells: m, hashes: k)
        self.cells = Array(repeating: 0, count: m / Self.cellsPerWord)
        self.nonzeroCells = 0
        self.accepted = 0
        self.random = SplitMix64(seed: 0x5354_4142_4c45_424c)
        self.retainedEstimate = max(1, Int(maximum * Double(m) / Double(p)))
    }

    /// FPS = (1 − (1 / (1 + 1/(P·(1/K − 1/m))))^Max)^K.
    static func stableRate(decrements: Int, cells: Int, hashes: Int) -> Double {
        let span = 1 / Double(hashes) - 1 / Double(cells)
        let zero = DeterministicMath.pow(1 / (1 + 1 / (Double(decrements) * span)), Double(cellMaximum))
        return DeterministicMath.power(1 - zero, hashes)
    }

    /// Returns `true` unless all of `id`'s cells are non-zero; then decrements P cells and sets
    /// `id`'s cells to Max. `now` is ignored: the filter forgets by traffic, not by time.
    ///
    /// - Complexity: O(K + P/21).
    @inlinable @inline(__always)
    @discardableResult
    public mutating func consume(_ id: EnvelopeID, at now: Timestamp) -> Bool {
        let probes = _BloomProbes(id)
        let m = cellCount
        let k = hashCount
        let p = decrementCount
        var start = Int(truncatingIfNeeded: random.next().multipliedFullWidth(by: UInt64(truncatingIfNeeded: m)).high)
        let (seen, change) = cells.withUnsafeMutableBufferPointer { words -> (Bool, Int) in
            var seen = true
            for index in 0..<k where Self.cell(probes.position(index, in: m), in: UnsafeBufferPointer(words)) == 0 {
                seen = false
                break
            }
            var change = 0
            // P consecutive cells, a word (up to 21 cells) at a time.
            var remaining = p
            while remaining > 0 {
                let (word, shift) = Self.location(of: start)
                let lanes = min(remaining, Self.cellsPerWord - Int(shift) / Self.bitsPerCell, m - start)
                let selected = (Self.lowBits & ((1 &<< UInt64(lanes * Self.bitsPerCell)) &- 1)) &<< shift
                let value = words[word]
                let nonzero = (value | value &>> 1 | value &>> 2) & selected
                let ones = value & ~(value &>> 1) & ~(value &>> 2) & selected
                // Each selected non-zero cell loses 1 at its low bit; no borrow leaves a cell.
                words[word] = value &- nonzero
                change &-= ones.nonzeroBitCount
                remaining &-= lanes
                start &+= lanes
                if start == m { start = 0 }
            }
            for index in 0..<k {
                let (word, shift) = Self.location(of: probes.position(index, in: m))
                if (words[word] &>> shift) & 7 == 0 { change &+= 1 }
                words[word] |= 7 &<< shift
            }
            return (seen, change)
        }
        nonzeroCells &+= change
        if !seen { accepted &+= 1 }
        return !seen
    }

    /// Whether none of `id`'s cells is 0.
    ///
    /// - Complexity: O(K).
    @inlinable
    public func contains(_ id: EnvelopeID) -> Bool {
        let probes = _BloomProbes(id)
        return cells.withUnsafeBufferPointer { words in
            for index in 0..<hashCount where Self.cell(probes.position(index, in: cellCount), in: words) == 0 {
                return false
            }
            return true
        }
    }

    @inlinable @inline(__always)
    static func location(of cell: Int) -> (word: Int, shift: UInt64) {
        let word = cell / cellsPerWord
        return (word, UInt64(truncatingIfNeeded: (cell - word * cellsPerWord) * bitsPerCell))
    }

    @inlinable @inline(__always)
    static func cell(_ cell: Int, in words: UnsafeBufferPointer<UInt64>) -> UInt64 {
        let (word, shift) = location(of: cell)
        return (words[word] &>> shift) & 7
    }

    /// An estimate, since the filter cannot count its members: ids accepted, capped at Max·m/P,
    /// about how many consumes a cell set to Max survives.
    public var count: Int { min(accepted, retainedEstimate) }

    /// Bytes of the cell array.
    public var footprint: Int { cells.count * MemoryLayout<UInt64>.stride }

    /// An estimate to match ``count``: ids accepted beyond what the filter can represent.
    public var evictions: Int { accepted - count }

    /// (non-zero cells / m)^K: the chance a never-consumed id is refused now. It climbs from 0
    /// towards ``stableFalsePositiveRate``.
    public var theoreticalFalsePositiveRate: Double {
        DeterministicMath.power(Double(nonzeroCells) / Double(cellCount), hashCount)
    }

    #if PUSHDEDUPE_INTERNAL_CHECKS
    package func _checkInvariants() {
        precondition(cellCount == cells.count * Self.cellsPerWord && cellCount > hashCount, "cell count out of step")
        precondition(decrementCount >= 1 && decrementCount <= cellCount, "P outside 1...m")
        var nonzero = 0
        for word in cells {
            precondition(word &>> 63 == 0, "the spare top bit of a word is set")
            for slot in 0..<Self.cellsPerWord where (word &>> UInt64(slot * Self.bitsPerCell)) & 7 != 0 {
                nonzero += 1
            }
        }
        precondition(nonzero == nonzeroCells, "non-zero cell tally drifted")
    }
    #endif
}
