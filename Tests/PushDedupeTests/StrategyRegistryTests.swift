import PushDedupe
import Testing

/// `StrategyRegistry` is the one registration of a strategy. Tests that run over every type read
/// it (`GuaranteeConformanceTests`); the lists that carry per-type facts (a model, the
/// configurations a snapshot is checked at, a compile-time `Sendable` check) are held against it
/// here, so a strategy registered and missing from one of them fails, naming the list.
@Suite struct StrategyRegistryTests {
    struct Windows: WindowRegistryVisitor {
        var types: [any FingerprintWindow.Type] = []
        mutating func visit<W: FingerprintWindow>(_ type: W.Type, reads: [ConfigurationParameter], summary: String) {
            types.append(type)
        }
    }

    /// Each type once (`recent-ids` is registered at two constants).
    struct ConsumedSets: ConsumedSetRegistryVisitor {
        var types: [any ConsumedSet.Type] = []
        mutating func visit<C: ConsumedSet>(
            _ type: C.Type, id: String?, reads: [ConfigurationParameter], summary: String, pinned: ConsumedSetConfiguration?
        ) {
            if !types.contains(where: { $0.strategyID == C.strategyID }) { types.append(type) }
        }
    }

    static var windowTypes: [any FingerprintWindow.Type] {
        var windows = Windows()
        StrategyRegistry.visitWindows(&windows)
        return windows.types
    }

    static var consumedSetTypes: [any ConsumedSet.Type] {
        var sets = ConsumedSets()
        StrategyRegistry.visitConsumedSets(&sets)
        return sets.types
    }

    @Test func everyWindowIsAWindowKind() {
        #expect(Set(WindowKind.allCases.map { $0.type.strategyID }) == Set(Self.windowTypes.map { $0.strategyID }),
                "WindowKind (Windows/WindowKind.swift)")
    }

    @Test func everyConsumedSetHasItsSnapshotChecked() {
        struct StrategyID: SnapshotKindVisitor {
            func visit<S: SnapshottableConsumedSet>(_ type: S.Type, _ configurations: [ConsumedSetConfiguration]) -> String {
                S.strategyID
            }
        }
        #expect(Set(SnapshotKind.allCases.map { $0.visit(StrategyID()) }) == Set(Self.consumedSetTypes.map { $0.strategyID }),
                "SnapshotKind (ConsumedSets/SnapshotTests.swift)")
    }

    /// Every set that never drops a wanted navigation is run against a plain model from one of
    /// the two lists.
    @Test func everyNonProbabilisticSetHasAModel() {
        let modelled = ExactConsumedSetKind.allCases.map { $0.type.strategyID } + SDKConsumedSetConformanceTests.types.map { $0.strategyID }
        let registered = Self.consumedSetTypes.filter { !($0 is any ProbabilisticConsumedSet.Type) }.map { $0.strategyID }
        #expect(Set(modelled) == Set(registered), "ExactConsumedSetKind or SDKConsumedSetConformanceTests.types")
    }

    @Test func everyStrategyIsCheckedSendable() {
        let names = Set(SendableConformanceTests.checkedNames)
        let strategies = Self.windowTypes.map { "\($0)" } + Self.consumedSetTypes.map { "\($0)" }
        #expect(!strategies.isEmpty)
        #expect(strategies.filter { !names.contains($0) } == [], "SendableConformanceTests.checkedNames")
    }
}
