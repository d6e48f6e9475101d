@_spi(Bench) import PushDedupe
import Testing

/// Every registered set that never drops a wanted navigation through the shared conformance
/// checker, against the model it declares as its `ModelledConsumedSet` conformance (below for
/// the library's sets, in `SDKConsumedSetConformanceTests.swift` for the SDK patterns; a set
/// added later declares its own, in its own test file): all 4⁷ sequences at capacities 0–3, then
/// seeded random sequences with time steps that go backwards and stand still.
@Suite struct ExactConsumedSetConformanceTests {
    static let capacities = [0, 1, 2, 3, 5, 16, 64]

    static func configurations(retention: Duration = .seconds(30)) -> [ConsumedSetConfiguration] {
        capacities.map { ConsumedSetConfiguration(capacity: $0, retention: retention) }
    }

    /// Retentions from below one time step (nearly every consume expires) to a few steps,
    /// including exactly one step (the boundary: a repeat one step later must still be caught).
    /// Capacity is only a reservation for the sets that read these, so the exhaustive pass runs
    /// from an empty one (every table grows) and the random pass adds a larger one.
    static let retentionConfigurations = [Duration.nanoseconds(1), .milliseconds(10), .milliseconds(25)].flatMap { retention in
        [0, 16].map { ConsumedSetConfiguration(capacity: $0, retention: retention) }
    }

    /// The registered sets that can never drop a wanted navigation, by id.
    static var nonProbabilisticIDs: [String] {
        StrategyRegistryTests.consumedSetTypes.filter { !($0 is any ProbabilisticConsumedSet.Type) }.map { $0.strategyID }
    }

    @Test(arguments: nonProbabilisticIDs)
    func everySetMatchesTheModelItDeclares(_ id: String) throws {
        let type = try #require(StrategyRegistryTests.consumedSetTypes.first { $0.strategyID == id })
        guard let modelled = type as? any ModelledConsumedSet.Type else {
            Issue.record("\(id) declares no model: add `extension \(type): ModelledConsumedSet` beside its tests")
            return
        }
        check(modelled)
    }

    private func check<S: ModelledConsumedSet>(_ type: S.Type) {
        checkConsumedSetConformance(
            S.self, contract: S.contract, configurations: S.conformanceConfigurations,
            randomSequences: S.conformanceRandomSequences)
    }
}

extension UnboundedSet: ModelledConsumedSet {
    static var conformanceConfigurations: [ConsumedSetConfiguration] { ExactConsumedSetConformanceTests.configurations() }
    static func contract(_ configuration: ConsumedSetConfiguration) -> ConsumedSetContract { .exact(.unbounded) }
}

extension BoundedLRU: ModelledConsumedSet {
    static var conformanceConfigurations: [ConsumedSetConfiguration] { ExactConsumedSetConformanceTests.configurations() }
    static func contract(_ configuration: ConsumedSetConfiguration) -> ConsumedSetContract {
        .exact(.leastRecentlyUsed(capacity: configuration.capacity))
    }
}

extension FIFOSet: ModelledConsumedSet {
    static var conformanceConfigurations: [ConsumedSetConfiguration] { ExactConsumedSetConformanceTests.configurations() }
    static func contract(_ configuration: ConsumedSetConfiguration) -> ConsumedSetContract {
        .exact(.firstInFirstOut(capacity: configuration.capacity))
    }
}

/// Never misses a repeat within the retention.
extension RotatingSets: ModelledConsumedSet {
    static var conformanceConfigurations: [ConsumedSetConfiguration] { ExactConsumedSetConformanceTests.retentionConfigurations }
    static var conformanceRandomSequences: Int { 1_000 }
    static func contract(_ configuration: ConsumedSetConfiguration) -> ConsumedSetContract { .catchesRepeatsWithinRetention(configuration) }
}

/// Misses only after an eviction.
extension DirectMappedSet: ModelledConsumedSet {
    static var conformanceConfigurations: [ConsumedSetConfiguration] { ExactConsumedSetConformanceTests.configurations() }
    static func contract(_ configuration: ConsumedSetConfiguration) -> ConsumedSetContract {
        ConsumedSetContract(exact: nil, neverFalseDrop: true, ignoresTime: true) { _, evicted in evicted }
    }
}

/// One full-length sequence of the exhaustive pass, as the ids' numbers.
protocol ConsumedSetMutation {
    static var sequence: [UInt64] { get }
}

/// `set`, except that it answers wrongly on the last consume of one sequence.
struct MutantConsumedSet<Mutation: ConsumedSetMutation>: ConsumedSet {
    static var strategyID: String { "mutant" }
    static var guarantee: Guarantee { .exact }
    var base: UnboundedSet
    var consumed: [UInt64] = []

    init(configuration: ConsumedSetConfiguration) throws(ConfigurationError) {
        base = try UnboundedSet(configuration: configuration)
    }

    var count: Int { base.count }
    var footprint: Int { base.footprint }
    var evictions: Int { base.evictions }
    func contains(_ id: EnvelopeID) -> Bool { base.contains(id) }

    mutating func consume(_ id: EnvelopeID, at now: Timestamp) -> Bool {
        let answer = base.consume(id, at: now)
        consumed.append(id.low & 0xff)
        return consumed == Mutation.sequence ? !answer : answer
    }
}

enum FirstConsumeSequence: ConsumedSetMutation { static let sequence: [UInt64] = Array(repeating: 0, count: 7) }
enum MiddleConsumeSequence: ConsumedSetMutation { static let sequence: [UInt64] = [2, 0, 3, 3, 1, 0, 2] }
enum LastConsumeSequence: ConsumedSetMutation { static let sequence: [UInt64] = Array(repeating: 3, count: 7) }

/// The exhaustive pass shares prefixes between sequences; it must still reach every one. A set
/// wrong on a single sequence of 16,384, the first, one in the middle or the last (the one that
/// runs in place, with no copy), is caught, and the sequence is named.
@Suite struct ConsumedSetConformanceCheckerTests {
    static func violation<S: ConsumedSet>(_ type: S.Type) -> String? {
        firstExhaustiveConsumedSetViolation(
            S.self, configuration: .init(capacity: 3), contract: .exact(.unbounded), length: 7, universe: 4,
            stepNanoseconds: 10_000_000)
    }

    @Test func everySequenceIsReached() {
        let violations = [
            Self.violation(MutantConsumedSet<FirstConsumeSequence>.self),
            Self.violation(MutantConsumedSet<MiddleConsumeSequence>.self),
            Self.violation(MutantConsumedSet<LastConsumeSequence>.self),
        ]
        for violation in violations {
            #expect(violation?.contains("step 6") == true && violation?.contains("sequence: [") == true, "\(violation ?? "nil")")
        }
        #expect(Self.violation(UnboundedSet.self) == nil)
    }
}
