import PushDedupe
import Testing

@Suite struct CuckooFilterTests {
    /// Capacities 15 and 60 fill their tables to 94%, where kick chains fail and the
    /// evict-and-retry path runs; the contract holds there too.
    @Test func conformsMissingRepeatsOnlyAfterAnEviction() {
        // Capacities up to 3 also get every 7-consume sequence over 4 ids, so keep those few.
        let small = [(0, 0.1), (1, 0.01), (3, 0.1)]
        let large = [8, 15, 60, 200].flatMap { capacity in [0.01, 0.1].map { (capacity, $0) } }
        let configurations = (small + large).map { ConsumedSetConfiguration(capacity: $0.0, falsePositiveRate: $0.1) }
        checkConsumedSetConformance(
            CuckooFilter.self,
            contract: { _ in ConsumedSetContract(exact: nil, neverFalseDrop: false, ignoresTime: true) { _, evicted in evicted } },
            configurations: configurations)
    }

    @Test(arguments: [(0.1, 8), (0.01, 12), (0.001, 16), (0.000_2, 16)])
    func fingerprintBitsFollowTheTargetRate(rate: Double, bits: Int) throws {
        let filter = try CuckooFilter(configuration: .init(capacity: 1_000, falsePositiveRate: rate))
        #expect(filter.fingerprintBits == bits)
        // 1,000 / 0.95 slots need 264 buckets, rounded up to a power of two.
        #expect(filter.bucketCount == 512)
        // Packed 4·f-bit buckets and (9 + f)-bit ring entries, each with a spare word.
        let tableBytes = (512 * 4 * bits + 63) / 64 * 8 + 8
        let ringBytes = (1_000 * (9 + bits) + 63) / 64 * 8 + 8
        #expect(filter.footprint == tableBytes + ringBytes + 8 * CuckooFilter.maximumKicks)
    }

    /// Filled to 90% load, the measured rate matches 1 − (1 − 2^−f)^(8α), and stays under target.
    @Test(arguments: [0.1, 0.01])
    func falsePositiveRateMatchesTheory(rate: Double) throws {
        let capacity = 62_259  // 95% of 16,384 buckets × 4 slots
        var filter = try CuckooFilter(configuration: .init(capacity: capacity, falsePositiveRate: rate))
        #expect(filter.bucketCount == 16_384)
        var accepted = 0
        for index in 0..<58_982 where filter.consume(filterTestID(index), at: .milliseconds(0)) {
            accepted += 1
        }
        #expect(filter.evictions == 0)
        #expect(filter.count == accepted)
        let trials = 200_000
        let measured = measuredFalsePositiveRate(of: filter, trials: trials)
        let theory = filter.theoreticalFalsePositiveRate
        #expect(abs(measured - theory) <= falsePositiveTolerance(theory: theory, trials: trials),
                "measured \(measured), theory \(theory)")
        #expect(theory < rate)
        #if PUSHDEDUPE_INTERNAL_CHECKS
        filter._checkInvariants()
        #endif
    }

    @Test func forgetsTheOldestAtCapacityLikeAFIFO() throws {
        var filter = try CuckooFilter(configuration: .init(capacity: 100, falsePositiveRate: 0.001))
        for index in 0..<150 { #expect(filter.consume(filterTestID(index), at: .milliseconds(0)) == true) }
        #expect(filter.count == 100)
        #expect(filter.evictions == 50)
        // The newest 100 are refused, the 50 oldest are forgotten (bar a false positive).
        for index in 50..<150 { #expect(filter.contains(filterTestID(index))) }
        let remembered = (0..<50).filter { filter.contains(filterTestID($0)) }.count
        #expect(remembered <= 1)
    }

    @Test func burstFarPastCapacityTerminatesAndStaysBounded() throws {
        // 15 ids in 16 slots: nearly every insert past the first dozen meets full buckets.
        var filter = try CuckooFilter(configuration: .init(capacity: 15, falsePositiveRate: 0.01))
        let footprint = filter.footprint
        var accepted = 0
        for index in 0..<20_000 where filter.consume(filterTestID(index), at: .milliseconds(Double(index))) {
            accepted += 1
            #expect(filter.contains(filterTestID(index)), "an accepted id is always stored")
        }
        #expect(filter.insertionFailures > 0)
        #expect(filter.count <= 15)
        #expect(filter.evictions == accepted - filter.count)
        #expect(filter.footprint == footprint)
        #if PUSHDEDUPE_INTERNAL_CHECKS
        filter._checkInvariants()
        #endif

        var large = try CuckooFilter(configuration: .init(capacity: 3_891, falsePositiveRate: 0.01))
        accepted = 0
        for index in 0..<40_000 where large.consume(filterTestID(index, family: 2), at: .milliseconds(0)) {
            accepted += 1
        }
        #expect(large.count <= 3_891 && large.count > 3_800)
        #expect(large.evictions == accepted - large.count)
        #if PUSHDEDUPE_INTERNAL_CHECKS
        large._checkInvariants()
        #endif
    }

    @Test func capacityZeroRetainsNothingAndCapacityOneKeepsTheLatest() throws {
        var none = try CuckooFilter(configuration: .init(capacity: 0, falsePositiveRate: 0.01))
        #expect(none.consume(filterTestID(1), at: .milliseconds(0)) == true)
        #expect(none.consume(filterTestID(1), at: .milliseconds(0)) == true)
        #expect(!none.contains(filterTestID(1)))
        #expect(none.count == 0 && none.evictions == 2)
        #expect(none.theoreticalFalsePositiveRate == 0)

        var one = try CuckooFilter(configuration: .init(capacity: 1, falsePositiveRate: 0.01))
        #expect(one.consume(filterTestID(1), at: .milliseconds(0)) == true)
        #expect(one.consume(filterTestID(1), at: .milliseconds(0)) == false)
        #expect(one.consume(filterTestID(2), at: .milliseconds(0)) == true)
        #expect(one.count == 1 && one.evictions == 1)
        #expect(one.contains(filterTestID(2)) && !one.contains(filterTestID(1)))
    }

    @Test func timeIsIgnoredIncludingBackwards() throws {
        var filter = try CuckooFilter(configuration: .init(capacity: 10, falsePositiveRate: 0.01))
        #expect(filter.consume(filterTestID(1), at: Timestamp(nanoseconds: .max)) == true)
        #expect(filter.consume(filterTestID(1), at: Timestamp(nanoseconds: .min)) == false)
        #expect(filter.consume(filterTestID(1), at: Timestamp(nanoseconds: .max)) == false)
    }

    #if PUSHDEDUPE_INTERNAL_CHECKS
    /// Every kick chain, undo and eviction leaves the table and the ring in step.
    @Test func invariantsHoldAfterEveryConsumeNearFull() throws {
        for rate in [0.1, 0.01, 0.001] {
            var filter = try CuckooFilter(configuration: .init(capacity: 60, falsePositiveRate: rate))
            var random = SplitMix64(seed: 5)
            for _ in 0..<3_000 {
                filter.consume(filterTestID(Int.random(in: 0..<400, using: &random)), at: .milliseconds(0))
                filter._checkInvariants()
            }
            #expect(filter.insertionFailures > 0, "f = \(filter.fingerprintBits)")
        }
    }
    #endif

    @Test func invalidConfigurationThrows() {
        expectInvalidConfigurationsThrow(CuckooFilter.self, extra: [
            ("falsePositiveRate", .init(falsePositiveRate: 0.000_1)),
            ("capacity", .init(capacity: .max)),
        ])
    }
}
