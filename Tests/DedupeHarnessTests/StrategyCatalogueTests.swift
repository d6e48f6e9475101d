import PushDedupe
import Testing
@testable import DedupeHarness

@Suite struct StrategyCatalogueTests {
    @Test func standardIDsAreUniqueAndKebabCase() {
        let ids = StrategyCatalogue.standard.windows.map(\.id) + StrategyCatalogue.standard.consumedSets.map(\.id)
        #expect(Set(StrategyCatalogue.standard.windows.map(\.id)).count == StrategyCatalogue.standard.windows.count)
        #expect(Set(StrategyCatalogue.standard.consumedSets.map(\.id)).count == StrategyCatalogue.standard.consumedSets.count)
        for id in ids {
            #expect(id.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" }, "\(id)")
        }
    }

    @Test func standardPipelinesAreAllPreSpecialized() {
        let setIDs = Set(StrategyCatalogue.standard.consumedSets.map(\.id))
        for window in StrategyCatalogue.standard.windows {
            #expect(Set(window._specializedPairs.keys) == setIDs, "\(window.id)")
        }
    }

    @Test func filtersAreRecognized() {
        for entry in StrategyCatalogue.standard.consumedSets {
            #expect(entry.isProbabilistic == ["bloom", "aging-bloom", "cuckoo", "stable-bloom"].contains(entry.id), "\(entry.id)")
        }
        #expect(StrategyCatalogue.toys.consumedSet("toy-filter")?.isProbabilistic == true)
        #expect(StrategyCatalogue.toys.consumedSet("set")?.isProbabilistic == false)
    }
}
