import PushDedupe
import Testing

/// The three sets push SDKs ship, with the models `ExactConsumedSetConformanceTests` checks
/// them against: `last-id` and `recent-ids` the first-in-first-out model (of capacity 1 and
/// `capacity`), `id-time-map` a repeat within T never missed; below, `id-time-map` against its
/// own plain map as well.
extension LastIDSet: ModelledConsumedSet {
    static var conformanceConfigurations: [ConsumedSetConfiguration] { ExactConsumedSetConformanceTests.configurations() }
    static func contract(_ configuration: ConsumedSetConfiguration) -> ConsumedSetContract { .exact(.firstInFirstOut(capacity: 1)) }
}

extension RecentIDs: ModelledConsumedSet {
    static var conformanceConfigurations: [ConsumedSetConfiguration] {
        ExactConsumedSetConformanceTests.configurations() + [.init(capacity: 10), .init(capacity: 100)]
    }
    static func contract(_ configuration: ConsumedSetConfiguration) -> ConsumedSetContract {
        .exact(.firstInFirstOut(capacity: configuration.capacity))
    }
}

/// Retentions from below one time step to a few steps, including exactly one step: a repeat one
/// step after its last sighting must still be refused.
extension IDTimeMap: ModelledConsumedSet {
    static var conformanceConfigurations: [ConsumedSetConfiguration] { ExactConsumedSetConformanceTests.retentionConfigurations }
    static var conformanceRandomSequences: Int { 1_000 }
    static func contract(_ configuration: ConsumedSetConfiguration) -> ConsumedSetContract { .catchesRepeatsWithinRetention(configuration) }
}

@Suite struct SDKConsumedSetConformanceTests {
    /// Every answer equals a plain map's: an id is refused exactly when its last sighting (any
    /// consume, accepted or not) is at most T before the clamped time.
    @Test(arguments: [Duration.nanoseconds(1), .milliseconds(10), .milliseconds(25)])
    func idTimeMapMatchesThePlainMap(retention: Duration) throws {
        var random = SplitMix64(seed: 0x1d71_3e)
        for sequence in 0..<400 {
            var map = try IDTimeMap(configuration: .init(capacity: sequence % 3 == 0 ? 0 : 16, retention: retention))
            // Membership only, never iterated.
            var model: [EnvelopeID: Int64] = [:]
            var latest = Int64.min
            let operations = randomConsumeOperations(
                count: Int.random(in: 1...300, using: &random), universe: Int.random(in: 1...40, using: &random),
                meanStepNanoseconds: 10_000_000, using: &random)
            for (step, operation) in operations.enumerated() {
                latest = max(latest, operation.time.nanoseconds)
                let expected = model[operation.id].map { latest - $0 > retention.wholeNanoseconds } ?? true
                model[operation.id] = latest
                let accepted = map.consume(operation.id, at: operation.time)
                #expect(accepted == expected, "sequence \(sequence) step \(step) \(operation)")
                #expect(map.count == model.count)
                if accepted != expected { return }
            }
            #expect(map.evictions == 0)
        }
    }

    @Test func idTimeMapGrowsPastItsReservationAndForgetsNothing() throws {
        var map = try IDTimeMap(configuration: .init(capacity: 0, retention: .seconds(5)))
        let first = map.acceptedCount(0..<10_000, at: 0)
        let refreshed = map.acceptedCount(0..<10_000, at: 4_000)
        // 5 s after the refresh at 4 s is still within T; just past it, an id reads as new.
        let atT = map.acceptedCount(0..<10_000, at: 9_000)
        let pastT = map.consume(testEnvelope(1), at: testInstant(14_001))
        #expect(first == 10_000 && refreshed == 0 && atT == 0 && pastT)
        #expect(map.count == 10_000)
        #expect(map.footprint >= 10_000 * 24)
    }

    @Test func theSDKSetsRejectWhatTheyCannotHonour() {
        #expect(throws: ConfigurationError.self) { try RecentIDs(configuration: .init(capacity: -1)) }
        #expect(throws: ConfigurationError.self) { try RecentIDs(configuration: .init(capacity: RecentIDs.maximumCapacity + 1)) }
        #expect(throws: ConfigurationError.self) { try IDTimeMap(configuration: .init(retention: .zero)) }
        #expect(throws: ConfigurationError.self) { try IDTimeMap(configuration: .init(capacity: -1)) }
    }

    @Test func lastIDForgetsAsSoonAsAnotherIDArrives() throws {
        var slot = try LastIDSet(configuration: .init(capacity: 65_536))
        let answers = slot.consume([1, 1, 2, 1, 1], at: 0)
        #expect(answers == [true, false, true, true, false])
        #expect(slot.evictions == 2)
        #expect(slot.count == 1)
    }
}
