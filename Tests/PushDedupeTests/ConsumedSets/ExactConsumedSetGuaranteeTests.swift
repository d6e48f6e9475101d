import PushDedupe
import Testing

/// Each set's stated guarantee, on targeted sequences beyond what the shared checker asserts.
@Suite struct ExactConsumedSetGuaranteeTests {
    /// Random traffic with time jumps and backward steps: a repeat is always caught while at most
    /// `retention` old and always accepted once `2 × retention` old, the stated bounds. Ages are
    /// measured on the latest time given, as the contract says.
    @Test(arguments: [Duration.milliseconds(10), .milliseconds(35), .milliseconds(400)])
    func rotatingSetsRememberForTheRetentionAndForgetByTwiceIt(retention: Duration) throws {
        var random = SplitMix64(seed: 0x5eed_0006)
        for _ in 0..<200 {
            let violation = try firstRotatingSetsBoundViolation(retention: retention, using: &random)
            #expect(violation == nil)
            if violation != nil { return }
        }
    }

    private func firstRotatingSetsBoundViolation(
        retention: Duration, using random: inout SplitMix64
    ) throws -> String? {
        let retentionNanoseconds = retention.wholeNanoseconds
        let reservation = Int.random(in: 0...8, using: &random)
        var set = try RotatingSets(configuration: .init(capacity: reservation, retention: retention))
        var accepted: [EnvelopeID: Int64] = [:]
        var clock: Int64 = 0
        var latest = Int64.min
        for step in 0..<300 {
            clock += Int64.random(in: -2_000_000...6_000_000, using: &random)
            latest = max(latest, clock)
            let id = testEnvelope(Int.random(in: 0..<24, using: &random))
            let wasAccepted = set.consume(id, at: Timestamp(nanoseconds: clock))
            if let previous = accepted[id] {
                let age = latest - previous
                if age <= retentionNanoseconds && wasAccepted {
                    return "step \(step): missed a repeat \(age) ns old"
                }
                if age >= 2 * retentionNanoseconds && !wasAccepted {
                    return "step \(step): remembered an id \(age) ns old"
                }
            } else if !wasAccepted {
                return "step \(step): false drop"
            }
            if wasAccepted { accepted[id] = latest }
            if set.evictions != 0 { return "step \(step): counted an eviction" }
        }
        return nil
    }

    /// A long session compressed: 1,000 new ids per second, each replayed once 200 ms later, for
    /// 500 s under a 2 s retention (10⁶ consumes). No false drop, no missed replay; the footprint
    /// stops growing after the first epochs and the count stays within two epochs of traffic.
    @Test func rotatingSetsHoldMemoryFlatUnderASteadyRate() throws {
        var set = try RotatingSets(configuration: .init(capacity: 16, retention: .seconds(2)))
        var footprints: [Int] = []
        var wrongAnswers = 0
        var largestCount = 0
        for n in 0..<500_000 {
            let now = Timestamp(nanoseconds: Int64(n) * 1_000_000)
            if !set.consume(testEnvelope(n), at: now) { wrongAnswers += 1 }
            if n >= 200 && set.consume(testEnvelope(n - 200), at: now) { wrongAnswers += 1 }
            largestCount = max(largestCount, set.count)
            if n % 10_000 == 9_999 { footprints.append(set.footprint) }
        }
        #expect(wrongAnswers == 0)
        #expect(largestCount <= 4_000)
        #expect(footprints[3...].allSatisfy { $0 == footprints.last })
        #expect(footprints.last! <= 2 * 4_096 * 24)
    }

    /// Model: slot `hash64 & (slots - 1)` holds the last id stored there. The set must agree on
    /// every answer, `count` and `evictions`.
    @Test(arguments: [1, 2, 3, 8, 100])
    func directMappedSetMatchesItsSlotModel(capacity: Int) throws {
        var slots = 1
        while slots < capacity { slots <<= 1 }
        var random = SplitMix64(seed: UInt64(capacity))
        for _ in 0..<100 {
            var set = try DirectMappedSet(configuration: .init(capacity: capacity))
            var model: [Int: EnvelopeID] = [:]
            var evictions = 0
            for _ in 0..<200 {
                let id = testEnvelope(Int.random(in: 0..<(3 * slots), using: &random))
                let slot = Int(id.hash64 % UInt64(slots))
                let expected = model[slot] != id
                if expected && model[slot] != nil { evictions += 1 }
                model[slot] = id
                let answer = set.consume(id, at: testInstant(0))
                guard answer == expected, set.count == model.count, set.evictions == evictions else {
                    Issue.record("""
                        \(id.low): answered \(answer), count \(set.count), evictions \(set.evictions); \
                        model \(expected), \(model.count), \(evictions)
                        """)
                    return
                }
            }
        }
    }

    /// The structural sizes the issues set as targets, at 64K capacity.
    @Test func bytesPerEntryAtSixtyFourThousand() throws {
        let capacity = 65_536
        let fifo = try FIFOSet(configuration: .init(capacity: capacity))
        let lru = try BoundedLRU(configuration: .init(capacity: capacity))
        let direct = try DirectMappedSet(configuration: .init(capacity: capacity))
        #expect(fifo.footprint == 24 * capacity)
        #expect(lru.footprint == 32 * capacity)
        #expect(direct.footprint == 16 * capacity + capacity / 8)
    }
}
