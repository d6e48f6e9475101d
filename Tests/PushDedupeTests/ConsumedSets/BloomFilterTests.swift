import PushDedupe
import Testing

// Helpers shared by the filter suites in this folder.

/// The `index`-th id of a numbered family, with UUIDv4's fixed version and variant bits as real
/// envelopes have. Different families never share an id.
func filterTestID(_ index: Int, family: UInt64 = 1) -> EnvelopeID {
    EnvelopeID(high: family << 16 | 0x4000, low: 0x8000_0000_0000_0000 | UInt64(index))
}

/// The fraction of `trials` never-consumed ids (family 0xdead) that `contains` wrongly reports.
func measuredFalsePositiveRate<S: ConsumedSet>(of set: S, trials: Int) -> Double {
    var hits = 0
    for index in 0..<trials where set.contains(filterTestID(index, family: 0xdead)) {
        hits += 1
    }
    return Double(hits) / Double(trials)
}

/// How far a measured rate may sit from theory: five binomial standard deviations of the
/// measurement (a false alarm about once in 1.7 million runs, and the seeds are fixed anyway)
/// plus 10% of theory, for what the theory leaves out (double hashing's correlated probes, a
/// fingerprint's slightly non-uniform values).
func falsePositiveTolerance(theory: Double, trials: Int) -> Double {
    5 * (theory * (1 - theory) / Double(trials)).squareRoot() + 0.1 * theory
}

/// Invalid configurations every filter must reject, with the parameter each one names.
let invalidFilterConfigurations: [(String, ConsumedSetConfiguration)] = [
    ("capacity", ConsumedSetConfiguration(capacity: -1)),
    ("falsePositiveRate", ConsumedSetConfiguration(falsePositiveRate: 0)),
    ("falsePositiveRate", ConsumedSetConfiguration(falsePositiveRate: -0.5)),
    ("falsePositiveRate", ConsumedSetConfiguration(falsePositiveRate: 1)),
    ("falsePositiveRate", ConsumedSetConfiguration(falsePositiveRate: 1.5)),
    ("falsePositiveRate", ConsumedSetConfiguration(falsePositiveRate: .nan)),
]

/// Checks that every invalid configuration throws naming the right parameter and the strategy.
func expectInvalidConfigurationsThrow<S: ConsumedSet>(
    _ type: S.Type, extra: [(String, ConsumedSetConfiguration)] = [],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    for (parameter, configuration) in invalidFilterConfigurations + extra {
        do {
            _ = try S(configuration: configuration)
            Issue.record("\(S.strategyID) accepted \(configuration)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.parameter == parameter, "\(configuration)", sourceLocation: sourceLocation)
            #expect(error.strategy == S.strategyID, sourceLocation: sourceLocation)
            #expect(!error.reason.isEmpty, sourceLocation: sourceLocation)
        }
    }
}

@Suite struct BloomFilterTests {
    @Test func conformsWithNoMissedRepeats() {
        // Capacities up to 3 also get every 7-consume sequence over 4 ids, so keep those few.
        let configurations = [(0, 0.3), (1, 0.01), (3, 0.3), (16, 0.01), (16, 0.3), (200, 0.01), (200, 0.3)].map {
            ConsumedSetConfiguration(capacity: $0.0, falsePositiveRate: $0.1)
        }
        checkConsumedSetConformance(
            BloomFilter.self,
            contract: { _ in ConsumedSetContract(exact: nil, neverFalseDrop: false, ignoresTime: true) { _, _ in false } },
            configurations: configurations)
    }

    @Test(arguments: [(65_536, 0.01), (20_000, 0.001), (10_000, 0.1)])
    func falsePositiveRateMatchesTheory(capacity: Int, rate: Double) throws {
        var filter = try BloomFilter(configuration: .init(capacity: capacity, falsePositiveRate: rate))
        var falseDrops = 0
        for index in 0..<capacity where !filter.consume(filterTestID(index), at: .milliseconds(0)) {
            falseDrops += 1
        }
        let trials = 100_000
        let measured = measuredFalsePositiveRate(of: filter, trials: trials)
        let theory = filter.theoreticalFalsePositiveRate
        #expect(abs(measured - theory) <= falsePositiveTolerance(theory: theory, trials: trials),
                "measured \(measured), theory \(theory)")
        // The fill-based theory and the textbook formula agree at the design point, and both sit
        // near the requested rate (rounding k and m moves it a little).
        let textbook = filter.sizing.falsePositiveRate(afterInserting: filter.count)
        #expect(abs(theory - textbook) <= 0.1 * textbook, "fill \(theory), textbook \(textbook)")
        #expect(abs(textbook - rate) <= 0.2 * rate)
        #expect(filter.count == capacity - falseDrops)
        #if PUSHDEDUPE_INTERNAL_CHECKS
        filter._checkInvariants()
        #endif
    }

    @Test func falsePositiveRateClimbsPastCapacity() throws {
        var filter = try BloomFilter(configuration: .init(capacity: 1_000, falsePositiveRate: 0.01))
        #expect(filter.theoreticalFalsePositiveRate == 0)
        for index in 0..<1_000 { filter.consume(filterTestID(index), at: .milliseconds(0)) }
        let atCapacity = filter.theoreticalFalsePositiveRate
        for index in 1_000..<3_000 { filter.consume(filterTestID(index), at: .milliseconds(0)) }
        #expect(filter.theoreticalFalsePositiveRate > 10 * atCapacity)
        #expect(filter.evictions == 0)
    }

    @Test(arguments: [0, 1])
    func tinyCapacityIsOneWordAndStillNeverMisses(capacity: Int) throws {
        var filter = try BloomFilter(configuration: .init(capacity: capacity, falsePositiveRate: 0.01))
        #expect(filter.footprint == 8)
        #expect(filter.sizing.bitCount == 64)
        #expect(filter.consume(filterTestID(0), at: .milliseconds(0)) == true)
        #expect(filter.consume(filterTestID(0), at: .milliseconds(0)) == false)
        for index in 0..<50 { filter.consume(filterTestID(index), at: .milliseconds(Double(index))) }
        for index in 0..<50 { #expect(filter.consume(filterTestID(index), at: .milliseconds(100)) == false) }
        // Overfull, the filter refuses nearly everything: that is its documented failure mode.
        #expect(filter.theoreticalFalsePositiveRate > 0.5)
    }

    @Test func timeIsIgnoredIncludingBackwardsAndEqual() throws {
        var filter = try BloomFilter(configuration: .init(capacity: 100, falsePositiveRate: 0.01))
        #expect(filter.consume(filterTestID(1), at: Timestamp(nanoseconds: 5_000_000_000)) == true)
        #expect(filter.consume(filterTestID(1), at: Timestamp(nanoseconds: 5_000_000_000)) == false)
        #expect(filter.consume(filterTestID(1), at: Timestamp(nanoseconds: -5_000_000_000)) == false)
        #expect(filter.consume(filterTestID(1), at: Timestamp(nanoseconds: .max)) == false)
        #expect(filter.consume(filterTestID(2), at: Timestamp(nanoseconds: .min)) == true)
        #expect(filter.contains(filterTestID(2)))
        #expect(filter.count == 2)
    }

    @Test func millionIdsNeverMissARepeat() throws {
        // k = 4 at 5% keeps a debug build quick; the property does not depend on k.
        let count = 1_000_000
        var filter = try BloomFilter(configuration: .init(capacity: count, falsePositiveRate: 0.05))
        var accepted = 0
        for index in 0..<count where filter.consume(filterTestID(index), at: .milliseconds(0)) {
            accepted += 1
        }
        var missed = 0
        for index in stride(from: 0, to: count, by: 7) where filter.consume(filterTestID(index), at: .milliseconds(1)) {
            missed += 1
        }
        #expect(missed == 0)
        #expect(filter.count == accepted)
        // False drops during the fill average half the final rate.
        #expect(Double(count - accepted) / Double(count) < filter.theoreticalFalsePositiveRate)
        #expect(Double(filter.footprint) / Double(count) < 0.8)
    }

    @Test func invalidConfigurationThrows() {
        expectInvalidConfigurationsThrow(BloomFilter.self, extra: [("capacity", .init(capacity: .max))])
    }
}
