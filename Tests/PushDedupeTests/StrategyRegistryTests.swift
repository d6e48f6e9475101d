@_spi(Bench) import PushDedupe
import Testing

/// `StrategyRegistry` is the one registration of a strategy. Every suite that runs over all types
/// reads it (`WindowKind`, `ExactConsumedSetKind`, `SnapshotKind`, `GuaranteeConformanceTests`);
/// a per-type fact the registry cannot carry (the plain model a type is checked against) is a
/// conformance the type's own tests declare, and a registered type that declares none fails
/// here, named. `Sendable` is the strategy protocols' own requirement, so the compiler checks it.
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

    @Test func everyWindowDeclaresItsContract() {
        let missing = Self.windowTypes.filter { !($0 is any ModelledWindow.Type) }.map { "\($0)" }
        #expect(missing == [], "declare `extension <Window>: ModelledWindow` beside its tests (Windows/WindowKind.swift)")
    }

    /// Every set that never drops a wanted navigation declares the plain model it is checked
    /// against.
    @Test func everyNonProbabilisticSetDeclaresItsModel() {
        let missing = Self.consumedSetTypes.filter { !($0 is any ProbabilisticConsumedSet.Type) && !($0 is any ModelledConsumedSet.Type) }
        #expect(missing.map { "\($0)" } == [], "declare `extension <Set>: ModelledConsumedSet` beside its tests (ExactConsumedSetTestSupport.swift)")
    }

    @Test func everyConsumedSetHasItsSnapshotChecked() {
        let missing = Self.consumedSetTypes.filter { !($0 is any SnapshottableConsumedSet.Type) }.map { "\($0)" }
        #expect(missing == [], "conform to SnapshottableConsumedSet (SnapshotTests.swift checks every one that does)")
        #expect(SnapshotKind.allCases.count == Self.consumedSetTypes.count)
    }
}
