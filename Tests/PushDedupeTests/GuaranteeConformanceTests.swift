@_spi(Bench) import PushDedupe
import Testing

/// Every strategy's declared ``Guarantee`` checked against its behaviour: the conformance
/// checkers run with the contract the *declaration* implies, not the one its doc comment states,
/// so a declaration stronger than the structure fails here. Shorter exhaustive sequences and
/// fewer random ones than the per-type suites, which check the full contracts at length.
@Suite struct GuaranteeConformanceTests {
    /// The contract a declared guarantee implies for a consumed set; `nil` for `may-drop`, which
    /// promises nothing to check beyond being a filter.
    static func contract(_ guarantee: Guarantee, _ configuration: ConsumedSetConfiguration) -> ConsumedSetContract? {
        switch guarantee.guaranteeClass {
        case .mayDrop:
            return nil
        case .exact:
            return ConsumedSetContract(exact: nil, neverFalseDrop: true) { _, _ in false }
        case .exactForgetsOldest:
            return ConsumedSetContract(exact: nil, neverFalseDrop: true) { _, evicted in evicted }
        case .exactForgetsAfterRetention:
            guard case let .afterTime(fraction) = guarantee.forgetting else { return nil }
            let horizon = Int64((Double(configuration.retention.wholeNanoseconds) * fraction).rounded(.down))
            return ConsumedSetContract(exact: nil, neverFalseDrop: true) { age, _ in age > horizon }
        case .missesOnly:
            return ConsumedSetContract(exact: nil, neverFalseDrop: true) { _, _ in true }
        }
    }

    /// The contract a declared guarantee implies for a window; `nil` for `may-drop`.
    static func contract(_ guarantee: Guarantee, _ configuration: WindowConfiguration) -> WindowContract? {
        let window = configuration.window.wholeNanoseconds
        switch guarantee.guaranteeClass {
        case .mayDrop: return nil
        case .exact: return .exact(capacity: nil)
        case .exactForgetsOldest: return .approximate(suppressionSlack: 0, admissionSlack: 0)
        case .exactForgetsAfterRetention:
            guard case let .afterTime(fraction) = guarantee.forgetting else { return nil }
            let exactFor = Int64((Double(window) * fraction).rounded(.up))
            return .approximate(suppressionSlack: 0, admissionSlack: window - exactFor)
        // Suppression still never reaches past the window; a repeat may be admitted at any age.
        case .missesOnly: return .approximate(suppressionSlack: 0, admissionSlack: window + 1)
        }
    }

    static func checkDeclared<S: ConsumedSet>(_ type: S.Type, retention: Duration = .milliseconds(25)) {
        let configurations = [1, 2, 16, 64].map { ConsumedSetConfiguration(capacity: $0, retention: retention) }
        #expect((type is any ProbabilisticConsumedSet.Type) == S.guarantee.guaranteeClass.canDropWanted,
                "\(S.strategyID): a filter must declare may-drop, and only a filter may")
        guard contract(S.guarantee, configurations[0]) != nil else { return }
        checkConsumedSetConformance(
            S.self, contract: { contract(S.guarantee, $0)! }, configurations: configurations, randomSequences: 300,
            exhaustiveLength: 5)
    }

    static func checkDeclared<W: FingerprintWindow>(_ type: W.Type) {
        guard contract(W.guarantee, WindowConfiguration()) != nil else { return }
        checkWindowConformance(W.self, contract: { contract(W.guarantee, $0)! }, randomSequences: 300, exhaustiveLength: 4)
    }

    /// Every consumed set `StrategyRegistry` registers, read from it: a new one is checked without an edit.
    @Test func everyConsumedSetKeepsItsDeclaredGuarantee() {
        for type in StrategyRegistryTests.consumedSetTypes {
            func open<S: ConsumedSet>(_ type: S.Type) { Self.checkDeclared(type) }
            open(type)
        }
    }

    @Test func everyWindowKeepsItsDeclaredGuarantee() {
        for type in StrategyRegistryTests.windowTypes {
            func open<W: FingerprintWindow>(_ type: W.Type) { Self.checkDeclared(type) }
            open(type)
        }
    }

    /// The declarations the reports and the recommendation rely on, pinned: a change of class is
    /// a change of what adopters are promised.
    @Test func declarationsArePinned() {
        #expect(UnboundedSet.guarantee == .exact)
        #expect(FIFOSet.guarantee == .exactForgetsOldest)
        #expect(BoundedLRU.guarantee == .exactForgetsOldest)
        #expect(RotatingSets.guarantee == .exactForgetsAfterRetention)
        #expect(DirectMappedSet.guarantee == .missesOnly)
        #expect(LastIDSet.guarantee == .missesOnly)
        #expect(RecentIDs.guarantee == .exactForgetsOldest)
        #expect(IDTimeMap.guarantee == .exactForgetsAfterRetention)
        #expect(EpochSetsWindow.guarantee == .exactForgetsAfterRetention(fraction: 0.5))
        #expect(RingBufferWindow.guarantee == .exactForgetsOldest)
        #expect(DirectMappedWindow.guarantee == .missesOnly)
        for filter in [BloomFilter.guarantee, AgingBloomFilter.guarantee, CuckooFilter.guarantee, StableBloomFilter.guarantee] {
            #expect(filter.guaranteeClass == .mayDrop)
        }
        #expect(Guarantee.Class.exact < .exactForgetsOldest && Guarantee.Class.missesOnly < .mayDrop)
    }
}
