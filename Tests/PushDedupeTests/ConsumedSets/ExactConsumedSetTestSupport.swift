@_spi(Bench) import PushDedupe

/// The `n`th test envelope id, with the fixed UUIDv4 version and variant bits real envelopes carry.
func testEnvelope(_ n: Int) -> EnvelopeID {
    EnvelopeID(high: 0x0000_0000_0000_4000, low: 0x8000_0000_0000_0000 | UInt64(n))
}

/// `milliseconds` after an origin one second in.
func testInstant(_ milliseconds: Int64) -> Timestamp {
    Timestamp(nanoseconds: 1_000_000_000 + milliseconds * 1_000_000)
}

/// A registered consumed set that never drops a wanted navigation and whose capacity means
/// something (a bound, or a reservation), as a `Sendable` test argument. `allCases` reads
/// `StrategyRegistry`, so a new set runs in every suite over all of them without an edit here;
/// the named ones are for edge cases that hold only for some.
struct ExactConsumedSetKind: Sendable, Equatable, CustomStringConvertible {
    let type: any ConsumedSet.Type
    /// Whether `capacity` bounds what the set retains (rather than only reserving room): the
    /// set's registration says it reads `capacity`.
    let isCapacityBounded: Bool

    static var allCases: [ExactConsumedSetKind] {
        struct Collect: ConsumedSetRegistryVisitor {
            var kinds: [ExactConsumedSetKind] = []
            mutating func visit<C: ConsumedSet>(
                _ type: C.Type, id: String?, reads: [ConfigurationParameter], summary: String, pinned: ConsumedSetConfiguration?
            ) {
                guard !(type is any ProbabilisticConsumedSet.Type), !kinds.contains(where: { $0.type == type }),
                      reads.contains(.capacity) || reads.contains(.reservation) else { return }
                kinds.append(ExactConsumedSetKind(type: type, isCapacityBounded: reads.contains(.capacity)))
            }
        }
        var collect = Collect()
        StrategyRegistry.visitConsumedSets(&collect)
        return collect.kinds
    }

    static var unbounded: Self { named(UnboundedSet.self) }
    static var leastRecentlyUsed: Self { named(BoundedLRU.self) }
    static var firstInFirstOut: Self { named(FIFOSet.self) }
    static var rotating: Self { named(RotatingSets.self) }
    static var directMapped: Self { named(DirectMappedSet.self) }

    private static func named(_ type: any ConsumedSet.Type) -> Self {
        allCases.first { $0.type == type } ?? Self(type: type, isCapacityBounded: false)
    }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.type == rhs.type }

    var description: String { type.strategyID }

    func make(_ configuration: ConsumedSetConfiguration) throws -> any ConsumedSet {
        try type.init(configuration: configuration)
    }
}

/// The plain model a set that never drops a wanted navigation is checked against, declared
/// beside its own conformance test (`extension MySet: ModelledConsumedSet`), never in a shared
/// list. The conformance suites check every registered set that declares one, and
/// `StrategyRegistryTests` fails naming each non-probabilistic set that declares none.
protocol ModelledConsumedSet: ConsumedSet {
    /// The configurations the set is checked at.
    static var conformanceConfigurations: [ConsumedSetConfiguration] { get }
    /// Seeded random sequences per configuration, after the exhaustive pass.
    static var conformanceRandomSequences: Int { get }
    static func contract(_ configuration: ConsumedSetConfiguration) -> ConsumedSetContract
}

extension ModelledConsumedSet {
    static var conformanceRandomSequences: Int { 2_000 }
}

extension ConsumedSet {
    /// Consumes `testEnvelope(n)` for each `n` in turn at `milliseconds`, and returns the answers, so
    /// that a test expects a whole sequence at once (`#expect` cannot wrap a mutating call).
    mutating func consume(_ ids: [Int], at milliseconds: Int64) -> [Bool] {
        ids.map { consume(testEnvelope($0), at: testInstant(milliseconds)) }
    }

    /// Consumes `testEnvelope(n)` for each `n` in `ids` at `milliseconds`; returns how many were accepted.
    mutating func acceptedCount(_ ids: Range<Int>, at milliseconds: Int64) -> Int {
        ids.reduce(0) { $0 + (consume(testEnvelope($1), at: testInstant(milliseconds)) ? 1 : 0) }
    }
}
