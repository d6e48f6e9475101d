import PushDedupe
import Testing

@Suite struct StableBloomFilterTests {
    /// Both error directions are allowed, so the contract only checks that `contains` predicts
    /// `consume` and that counts stay sane.
    @Test func conforms() {
        // Capacities up to 3 also get every 7-consume sequence over 4 ids, so keep those few.
        let configurations = [(1, 0.01), (3, 0.2), (16, 0.01), (16, 0.2), (200, 0.01), (200, 0.2)].map {
            ConsumedSetConfiguration(capacity: $0.0, falsePositiveRate: $0.1)
        }
        checkConsumedSetConformance(
            StableBloomFilter.self,
            contract: { _ in ConsumedSetContract(exact: nil, neverFalseDrop: false, ignoresTime: true) { _, _ in true } },
            configurations: configurations)
    }

    @Test func parametersFollowThePaper() throws {
        let filter = try StableBloomFilter(configuration: .init(capacity: 65_536, falsePositiveRate: 0.01))
        let sizing = try BloomSizing(expectedCount: 65_536, falsePositiveRate: 0.01)
        #expect(filter.hashCount == sizing.hashCount)
        #expect(filter.cellCount >= sizing.bitCount && filter.cellCount < sizing.bitCount + 21)
        // P = 1 / ((1/(1 − 0.01^(1/7)))^(1/7) − 1)·(1/7 − 1/m)) ≈ 63.7.
        #expect(filter.decrementCount == 64)
        #expect(abs(filter.stableFalsePositiveRate - 0.01) < 0.0005)
        // 3 bits a cell, 21 cells a word.
        #expect(filter.footprint == filter.cellCount / 21 * 8)
    }

    /// After many times its memory span of distinct ids, the rate has settled near the stable
    /// point, and the fill-based theory predicts the measurement.
    @Test(arguments: [0.01, 0.05])
    func falsePositiveRateConvergesToTheStablePoint(rate: Double) throws {
        var filter = try StableBloomFilter(configuration: .init(capacity: 2_000, falsePositiveRate: rate))
        var checkpoints: [Double] = []
        for index in 0..<40_000 {
            filter.consume(filterTestID(index), at: .milliseconds(0))
            if index % 10_000 == 9_999 { checkpoints.append(filter.theoreticalFalsePositiveRate) }
        }
        let trials = 100_000
        let measured = measuredFalsePositiveRate(of: filter, trials: trials)
        let theory = filter.theoreticalFalsePositiveRate
        #expect(abs(measured - theory) <= falsePositiveTolerance(theory: theory, trials: trials),
                "measured \(measured), fill theory \(theory)")
        // The stable-point analysis is an approximation (it treats cells as independent), so the
        // settled rate is held to 25% of it.
        #expect(abs(measured - filter.stableFalsePositiveRate) <= 0.25 * filter.stableFalsePositiveRate,
                "measured \(measured), stable \(filter.stableFalsePositiveRate)")
        // Settled: the last checkpoints differ by a few percent, not a trend.
        let spread = (checkpoints.max()! - checkpoints.min()!) / checkpoints.last!
        #expect(spread < 0.1, "\(checkpoints)")
    }

    /// Repeats after a short gap are caught; after a long one most are missed. Both are counted.
    @Test func falseNegativesGrowWithTheGap() throws {
        var filter = try StableBloomFilter(configuration: .init(capacity: 2_000, falsePositiveRate: 0.01))
        /// Consumes a stream of new ids, re-presenting each one `gap` new ids later; returns how
        /// many of the 1,000 repeats were accepted (missed).
        func missedRepeats(gap: Int, family: UInt64) -> Int {
            var missed = 0
            for index in 0..<(gap + 1_000) {
                filter.consume(filterTestID(index, family: family), at: .milliseconds(0))
                if index >= gap, filter.consume(filterTestID(index - gap, family: family), at: .milliseconds(0)) {
                    missed += 1
                }
            }
            return missed
        }
        // Warm up to the stable point.
        for index in 0..<20_000 { filter.consume(filterTestID(index, family: 3), at: .milliseconds(0)) }
        // About how many consumes a cell set to Max survives.
        let span = StableBloomFilter.cellMaximum * filter.cellCount / filter.decrementCount
        let immediate = missedRepeats(gap: 0, family: 4)
        let short = missedRepeats(gap: 20, family: 5)
        let long = missedRepeats(gap: 3 * span, family: 6)
        #expect(immediate == 0, "an immediate repeat is always caught")
        #expect(short <= 2, "\(short) of 1,000 repeats missed after 20 ids")
        #expect(long > 500, "\(long) of 1,000 repeats missed after \(3 * span) ids")
        #expect(filter.evictions > 0 && filter.count <= span)
    }

    @Test(arguments: [0, 1])
    func tinyCapacityHasFixedMemoryAndIgnoresTime(capacity: Int) throws {
        var filter = try StableBloomFilter(configuration: .init(capacity: capacity, falsePositiveRate: 0.01))
        // At least 64 cells, rounded up to whole words of 21.
        #expect(filter.cellCount == 84)
        let footprint = filter.footprint
        #expect(filter.consume(filterTestID(1), at: Timestamp(nanoseconds: .max)) == true)
        #expect(filter.consume(filterTestID(1), at: Timestamp(nanoseconds: .min)) == false)
        for index in 0..<5_000 { filter.consume(filterTestID(index), at: .milliseconds(Double(index))) }
        #expect(filter.footprint == footprint)
        #expect(filter.theoreticalFalsePositiveRate < 0.05)
        #if PUSHDEDUPE_INTERNAL_CHECKS
        filter._checkInvariants()
        #endif
    }

    @Test func invalidConfigurationThrows() {
        expectInvalidConfigurationsThrow(StableBloomFilter.self, extra: [("capacity", .init(capacity: .max))])
    }
}
