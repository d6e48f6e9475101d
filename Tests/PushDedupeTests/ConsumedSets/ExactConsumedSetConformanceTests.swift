import PushDedupe
import Testing

/// Every exact consumed set through the shared conformance checker: all 4⁷ sequences at
/// capacities 0–3, then seeded random sequences with time steps that go backwards and stand
/// still.
@Suite struct ExactConsumedSetConformanceTests {
    static let capacities = [0, 1, 2, 3, 5, 16, 64]

    static func configurations(retention: Duration = .seconds(30)) -> [ConsumedSetConfiguration] {
        capacities.map { ConsumedSetConfiguration(capacity: $0, retention: retention) }
    }

    @Test func unboundedSetMatchesTheUnboundedModel() {
        checkConsumedSetConformance(
            UnboundedSet.self, contract: { _ in .exact(.unbounded) }, configurations: Self.configurations())
    }

    @Test func boundedLRUMatchesTheLeastRecentlyUsedModel() {
        checkConsumedSetConformance(
            BoundedLRU.self, contract: { .exact(.leastRecentlyUsed(capacity: $0.capacity)) },
            configurations: Self.configurations())
    }

    @Test func fifoSetMatchesTheFirstInFirstOutModel() {
        checkConsumedSetConformance(
            FIFOSet.self, contract: { .exact(.firstInFirstOut(capacity: $0.capacity)) },
            configurations: Self.configurations())
    }

    /// Retentions from below one time step (nearly every consume rotates) to a few steps,
    /// including exactly one step (the boundary: a repeat one step later must still be caught).
    /// Capacity is only a reservation here, so the exhaustive pass runs from an empty one (every
    /// table grows) and the random pass adds a larger one.
    @Test(arguments: [Duration.nanoseconds(1), .milliseconds(10), .milliseconds(25)])
    func rotatingSetsNeverMissARepeatWithinTheRetention(retention: Duration) {
        let retentionNanoseconds = retention.wholeNanoseconds
        checkConsumedSetConformance(
            RotatingSets.self,
            contract: { _ in
                ConsumedSetContract(exact: nil, neverFalseDrop: true) { age, _ in age > retentionNanoseconds }
            },
            configurations: [0, 16].map { ConsumedSetConfiguration(capacity: $0, retention: retention) },
            randomSequences: 1_000)
    }

    @Test func directMappedSetMissesOnlyAfterAnEviction() {
        checkConsumedSetConformance(
            DirectMappedSet.self,
            contract: { _ in ConsumedSetContract(exact: nil, neverFalseDrop: true, ignoresTime: true) { _, evicted in evicted } },
            configurations: Self.configurations())
    }
}
