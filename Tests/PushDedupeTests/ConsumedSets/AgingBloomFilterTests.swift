import PushDedupe
import Testing

@Suite struct AgingBloomFilterTests {
    /// Retentions of a few random-walk steps, so sequences cross many rotations.
    @Test func conformsMissingRepeatsOnlyPastTheRetention() {
        let configurations = [
            ConsumedSetConfiguration(capacity: 0, falsePositiveRate: 0.01, retention: .milliseconds(25), expectedRatePerSecond: 100),
            ConsumedSetConfiguration(capacity: 1, falsePositiveRate: 0.2, retention: .milliseconds(40), expectedRatePerSecond: 50),
            ConsumedSetConfiguration(capacity: 8, falsePositiveRate: 0.01, retention: .milliseconds(100), expectedRatePerSecond: 1_000),
            ConsumedSetConfiguration(capacity: 64, falsePositiveRate: 0.05, retention: .milliseconds(250), expectedRatePerSecond: 200),
            ConsumedSetConfiguration(capacity: 64, falsePositiveRate: 0.01, retention: .nanoseconds(1), expectedRatePerSecond: 1),
        ]
        checkConsumedSetConformance(
            AgingBloomFilter.self,
            contract: { configuration in
                let retention = configuration.retention.wholeNanoseconds
                return ConsumedSetContract(exact: nil, neverFalseDrop: false) { age, _ in age > retention }
            },
            configurations: configurations)
    }

    @Test func remembersForAtLeastTheRetentionAndForgetsWithinTwice() throws {
        var filter = try AgingBloomFilter(configuration: .init(retention: .seconds(10), expectedRatePerSecond: 100))
        let id = filterTestID(7)
        #expect(filter.consume(filterTestID(0), at: .milliseconds(0)) == true)  // starts the first generation
        #expect(filter.consume(id, at: .milliseconds(9_999)) == true)            // late in generation one
        #expect(filter.consume(id, at: .milliseconds(19_998)) == false)          // 9.999 s later: remembered
        #expect(filter.contains(id))
        #expect(filter.consume(id, at: .milliseconds(19_999)) == false)          // 10 s later: exactly the retention
        // Generation one began at 0 and is cleared at the first consume at or after 20 s.
        #expect(filter.contains(id))
        #expect(filter.consume(filterTestID(1), at: .milliseconds(20_000)) == true)
        #expect(!filter.contains(id))
        #expect(filter.consume(id, at: .milliseconds(20_000)) == true)
        #expect(filter.evictions == 0)
    }

    @Test func refusedRepeatsDoNotExtendTheHorizon() throws {
        var filter = try AgingBloomFilter(configuration: .init(retention: .seconds(1), expectedRatePerSecond: 100))
        let id = filterTestID(3)
        #expect(filter.consume(id, at: .milliseconds(0)) == true)
        #expect(filter.consume(id, at: .milliseconds(1_500)) == false)
        #expect(filter.consume(id, at: .milliseconds(2_000)) == true)
    }

    @Test func backwardsAndEqualTimesClampToTheLatest() throws {
        var filter = try AgingBloomFilter(configuration: .init(retention: .seconds(1), expectedRatePerSecond: 100))
        #expect(filter.consume(filterTestID(1), at: .milliseconds(5_000)) == true)
        #expect(filter.consume(filterTestID(1), at: .milliseconds(5_000)) == false)
        // A time from before the start is read as 5 s: no rotation, nothing forgotten.
        #expect(filter.consume(filterTestID(2), at: .milliseconds(-100_000)) == true)
        #expect(filter.consume(filterTestID(1), at: .milliseconds(0)) == false)
        #expect(filter.count == 2)
        // Going back does not postpone expiry either: the clock stands at 5 s.
        #expect(filter.consume(filterTestID(3), at: .milliseconds(7_000)) == true)
        #expect(!filter.contains(filterTestID(1)))
    }

    @Test func extremeTimeJumpsClearBothGenerations() throws {
        var filter = try AgingBloomFilter(configuration: .init(retention: .seconds(1), expectedRatePerSecond: 100))
        #expect(filter.consume(filterTestID(1), at: Timestamp(nanoseconds: .min)) == true)
        #expect(filter.consume(filterTestID(1), at: Timestamp(nanoseconds: .min + 1)) == false)
        #expect(filter.consume(filterTestID(2), at: Timestamp(nanoseconds: .max)) == true)
        #expect(filter.consume(filterTestID(1), at: Timestamp(nanoseconds: .max)) == true)
        #expect(filter.count == 2)
        #if PUSHDEDUPE_INTERNAL_CHECKS
        filter._checkInvariants()
        #endif
    }

    /// Fills both generations at exactly the expected rate, then compares measured and theory.
    @Test func falsePositiveRateMatchesTheoryAtTheExpectedRate() throws {
        let retention = Duration.seconds(10)
        var filter = try AgingBloomFilter(
            configuration: .init(falsePositiveRate: 0.01, retention: retention, expectedRatePerSecond: 2_000))
        #expect(filter.generationSizing.expectedCount == 20_000)
        // 2,000 ids a second for 20 s, one every 0.5 ms: two full generations.
        var index = 0
        for tick in 0..<40_000 {
            filter.consume(filterTestID(index), at: .milliseconds(Double(tick) / 2))
            index += 1
        }
        let trials = 100_000
        let measured = measuredFalsePositiveRate(of: filter, trials: trials)
        let theory = filter.theoreticalFalsePositiveRate
        #expect(abs(measured - theory) <= falsePositiveTolerance(theory: theory, trials: trials),
                "measured \(measured), theory \(theory)")
        #expect(abs(theory - 0.01) <= 0.002, "two full generations should sit near the target, got \(theory)")
    }

    @Test func memoryIsFlatOverALongRun() throws {
        var filter = try AgingBloomFilter(
            configuration: .init(falsePositiveRate: 0.01, retention: .milliseconds(100), expectedRatePerSecond: 10_000))
        let footprint = filter.footprint
        var peakCount = 0
        var peakFootprint = 0
        var missedWithinRetention = 0
        var accepted = [Bool](repeating: false, count: 100_000)
        // 100,000 ids over 10 s at the expected rate: 100 rotations.
        for index in 0..<100_000 {
            let now = Timestamp.milliseconds(Double(index) / 10)
            accepted[index] = filter.consume(filterTestID(index), at: now)
            // A repeat of an accepted id one retention minus a tick later is always caught.
            if index >= 999, filter.consume(filterTestID(index - 999), at: now), accepted[index - 999] {
                missedWithinRetention += 1
            }
            peakCount = max(peakCount, filter.count)
            peakFootprint = max(peakFootprint, filter.footprint)
        }
        #expect(missedWithinRetention == 0)
        #expect(peakFootprint == footprint)
        // Two generations of 1,000 new ids each, plus the few repeats accepted because their
        // first consume was a false drop.
        #expect(peakCount <= 2_050)
        #expect(filter.theoreticalFalsePositiveRate < 0.012)
    }

    #if PUSHDEDUPE_INTERNAL_CHECKS
    @Test func invariantsHoldThroughRotationsAndBackwardsTime() throws {
        var filter = try AgingBloomFilter(configuration: .init(retention: .milliseconds(30), expectedRatePerSecond: 500))
        var random = SplitMix64(seed: 11)
        var time: Int64 = 0
        for step in 0..<3_000 {
            time += Int64.random(in: -5_000_000...10_000_000, using: &random)
            filter.consume(filterTestID(Int.random(in: 0..<200, using: &random)), at: Timestamp(nanoseconds: time))
            if step % 50 == 0 { filter._checkInvariants() }
        }
        filter._checkInvariants()
    }
    #endif

    @Test func invalidConfigurationThrows() {
        expectInvalidConfigurationsThrow(AgingBloomFilter.self, extra: [
            ("retention", .init(retention: .zero)),
            ("retention", .init(retention: .seconds(-1))),
            ("expectedRatePerSecond", .init(expectedRatePerSecond: 0)),
            ("expectedRatePerSecond", .init(expectedRatePerSecond: -5)),
            ("expectedRatePerSecond", .init(expectedRatePerSecond: .nan)),
            ("expectedRatePerSecond", .init(expectedRatePerSecond: .infinity)),
            ("expectedRatePerSecond", .init(retention: .seconds(1_000_000_000), expectedRatePerSecond: 1e9)),
        ])
    }
}
