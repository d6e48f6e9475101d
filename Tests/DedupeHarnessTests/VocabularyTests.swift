import PushDedupe
import Testing
@testable import DedupeHarness

/// Strategy ids, the reference pair, the companion window, mode names and sweep dimensions are
/// each defined once; these check that the one definition resolves where it is used.
@Suite struct VocabularyTests {
    @Test func theReferencePairAndTheCompanionResolveInTheStandardCatalogue() throws {
        let catalogue = StrategyCatalogue.standard
        let window = try #require(catalogue.window(StrategyCatalogue.referenceWindowID))
        let consumed = try #require(catalogue.consumedSet(StrategyCatalogue.referenceConsumedSetID))
        let companion = try #require(catalogue.window(StrategyCatalogue.companionWindowID))
        #expect(ObjectIdentifier(window.type) == ObjectIdentifier(PublishedLiteralWindow.self))
        #expect(ObjectIdentifier(consumed.type) == ObjectIdentifier(UnboundedSet.self))
        #expect(ObjectIdentifier(companion.type) == ObjectIdentifier(HashDequeWindow.self))
        #expect(companion.id != window.id)
    }

    @Test func aSelectionPairsWithTheCompanionAndTheReferenceSet() throws {
        let catalogue = StrategyCatalogue.standard
        let selection = RunSelection(
            windows: catalogue.windows, consumedSets: catalogue.consumedSets, modes: CaseMode.allCases, scenarios: [])
        #expect(selection.companionWindow?.id == StrategyCatalogue.companionWindowID)
        #expect(selection.referenceConsumedSet?.id == StrategyCatalogue.referenceConsumedSetID)
        // Without the companion, the first window that is not the reference stands in.
        let withoutCompanion = RunSelection(
            windows: catalogue.windows.filter { $0.id != StrategyCatalogue.companionWindowID },
            consumedSets: Array(catalogue.consumedSets.dropFirst()), modes: [.twoLayer], scenarios: [])
        #expect(withoutCompanion.companionWindow?.id == catalogue.windows[1].id)
        #expect(withoutCompanion.referenceConsumedSet?.id == catalogue.consumedSets[1].id)
        let onlyReference = RunSelection(
            windows: [try #require(catalogue.window(StrategyCatalogue.referenceWindowID))], consumedSets: [],
            modes: [.twoLayer], scenarios: [])
        #expect(onlyReference.companionWindow?.id == StrategyCatalogue.referenceWindowID)
        #expect(onlyReference.referenceConsumedSet == nil)
    }

    @Test func everyIDIsRegisteredOnce() {
        let windows = StrategyCatalogue.standard.windows.map(\.id)
        #expect(Set(windows).count == windows.count)
        // A consumed set registered twice is an SDK set at two constants; its labels read apart.
        let consumed = StrategyCatalogue.standard.consumedSets
        for id in Set(consumed.map(\.id)) where consumed.filter({ $0.id == id }).count > 1 {
            #expect(consumed.filter { $0.id == id }.allSatisfy { !$0.isSwept }, "\(id)")
        }
    }

    @Test func sweepDimensionsHaveUnits() {
        #expect(SweepDimension.allCases.allSatisfy { !$0.unit.isEmpty })
    }
}
