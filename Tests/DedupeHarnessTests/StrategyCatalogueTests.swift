import DedupeWorkloads
@_spi(Bench) import PushDedupe
import Testing
@testable import DedupeHarness

@Suite struct StrategyCatalogueTests {
    @Test func standardIDsAreUniqueAndKebabCase() {
        let ids = StrategyCatalogue.standard.windows.map(\.id) + StrategyCatalogue.standard.consumedSets.map(\.id)
        #expect(Set(StrategyCatalogue.standard.windows.map(\.id)).count == StrategyCatalogue.standard.windows.count)
        // A type registered twice (`recent-ids` at the two constants SDKs ship) differs in configuration.
        let sets = StrategyCatalogue.standard.consumedSets.map { "\($0.id) \($0.defaultConfiguration.map { "\($0)" } ?? "sized from the profile")" }
        #expect(Set(sets).count == sets.count)
        for id in ids {
            #expect(id.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" }, "\(id)")
        }
    }

    @Test func standardPipelinesAreAllPreSpecialized() {
        let setIDs = Set(StrategyCatalogue.standard.consumedSets.map(\.strategyID))
        for window in StrategyCatalogue.standard.windows {
            #expect(Set(window._specializedPairs.keys) == setIDs, "\(window.id)")
        }
    }

    /// A mode that does not use a layer runs the no-op stand-in there even when the caller names a
    /// strategy for it (pairs are built with the two-layer loops only), and decides exactly as the
    /// case built without it.
    @Test(arguments: CaseMode.allCases.filter { !$0.usesWindow || !$0.usesConsumedSet })
    func aLayerTheModeDoesNotUseIsTheNoOpWhateverIsPassed(_ mode: CaseMode) throws {
        let catalogue = StrategyCatalogue.standard
        let window = try #require(catalogue.window(HashDequeWindow.strategyID))
        let consumed = try #require(catalogue.consumedSet(FIFOSet.strategyID))
        let parameters = CaseParameters(
            windowMilliseconds: 500, windowCapacity: 64, consumedCapacity: 256, falsePositiveRate: 0.01,
            retentionMilliseconds: 60_000)
        let named = catalogue.makeCase(window: window, consumed: consumed, mode: mode, parameters: parameters)
        let alone = catalogue.makeCase(
            window: mode.usesWindow ? window : nil, consumed: mode.usesConsumedSet ? consumed : nil, mode: mode,
            parameters: parameters)
        #expect(named.windowID == (mode.usesWindow ? window.id : nil))
        #expect(named.consumedID == (mode.usesConsumedSet ? consumed.id : nil))
        let columns = EventColumns(try PinnedDigestTests.workload("marketing-burst", scale: 0.1).events)
        let bound = _RelaunchState.defaultSavedBytesBound
        let decisions = try named._correctness(columns, 0, 42, bound).decisions
        #expect(decisions.contains(CaseDecision.navigated.rawValue))
        #expect(decisions == (try alone._correctness(columns, 0, 42, bound).decisions))
    }

    @Test func filtersAreRecognized() {
        // A set is probabilistic exactly when its guarantee allows a false drop.
        for entry in StrategyCatalogue.standard.consumedSets {
            #expect(entry.isProbabilistic == entry.guarantee.guaranteeClass.canDropWanted, "\(entry.id)")
        }
        #expect(["bloom", "aging-bloom", "cuckoo", "stable-bloom"].allSatisfy { StrategyCatalogue.standard.consumedSet($0)?.isProbabilistic == true })
        #expect(StrategyCatalogue.toys.consumedSet("toy-filter")?.isProbabilistic == true)
        #expect(StrategyCatalogue.toys.consumedSet("set")?.isProbabilistic == false)
    }
}

extension StrategyCatalogueTests {
    /// The catalogue lists the registry's entries in its order (a pinned set under its own id),
    /// each once, with the published pair first; the registry alone decides the report order.
    @Test func standardRegistersTheLibraryWithTheReferencesFirst() {
        #expect(StrategyCatalogue.standard.windows.map(\.id) == RegistryEntries().windows)
        #expect(StrategyCatalogue.standard.consumedSets.map(\.id) == RegistryEntries().consumedSets.map(\.id))
        #expect(Set(StrategyCatalogue.standard.consumedSets.map(\.id)).count == StrategyCatalogue.standard.consumedSets.count)
        #expect(StrategyCatalogue.standard.windows.first?.id == StrategyCatalogue.referenceWindowID)
        #expect(StrategyCatalogue.standard.consumedSets.first?.id == StrategyCatalogue.referenceConsumedSetID)
        #expect(StrategyCatalogue.referenceWindowID == PublishedLiteralWindow.strategyID)
        #expect(StrategyCatalogue.referenceConsumedSetID == UnboundedSet.strategyID)
    }
}

/// The registry's entries in visit order, read straight from `StrategyRegistry`.
struct RegistryEntries: WindowRegistryVisitor, ConsumedSetRegistryVisitor {
    var windows: [String] = []
    var consumedSets: [(id: String, pinned: Bool)] = []

    init() {
        StrategyRegistry.visitWindows(&self)
        StrategyRegistry.visitConsumedSets(&self)
    }

    mutating func visit<W: FingerprintWindow>(_ type: W.Type, reads: [ConfigurationParameter], summary: String) {
        windows.append(W.strategyID)
    }

    mutating func visit<C: ConsumedSet>(
        _ type: C.Type, id: String?, reads: [ConfigurationParameter], summary: String, pinned: ConsumedSetConfiguration?
    ) {
        consumedSets.append((id ?? C.strategyID, pinned != nil))
    }
}

extension StrategyCatalogueTests {
    /// The SDK sets run at the constants the SDKs ship, are left out of the sweeps, and every
    /// library set can snapshot.
    @Test func sdkSetsRunAtTheirShippedConstants() throws {
        let sets = StrategyCatalogue.standard.consumedSets
        #expect(sets.filter { $0.strategyID == "recent-ids" }.map(\.defaultConfiguration?.capacity) == [10, 100])
        #expect(sets.filter { $0.strategyID == "recent-ids" }.map(\.id) == ["recent-ids-10", "recent-ids-100"])
        let map = try #require(sets.first { $0.id == "id-time-map" })
        #expect(map.defaultConfiguration?.retention == .seconds(5))
        #expect(sets.filter { !$0.isSwept }.map(\.id) == RegistryEntries().consumedSets.filter(\.pinned).map(\.id))
        #expect(["last-id", "recent-ids-10", "recent-ids-100", "id-time-map"].allSatisfy(sets.filter { !$0.isSwept }.map(\.id).contains))
        #expect(sets.allSatisfy { $0.isSnapshottable })
        #expect(StrategyCatalogue.toys.consumedSets.allSatisfy { !$0.isSnapshottable })
    }
}
