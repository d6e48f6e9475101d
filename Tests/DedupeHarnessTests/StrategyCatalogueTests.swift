import PushDedupe
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

    @Test func filtersAreRecognized() {
        for entry in StrategyCatalogue.standard.consumedSets {
            #expect(entry.isProbabilistic == ["bloom", "aging-bloom", "cuckoo", "stable-bloom"].contains(entry.id), "\(entry.id)")
        }
        #expect(StrategyCatalogue.toys.consumedSet("toy-filter")?.isProbabilistic == true)
        #expect(StrategyCatalogue.toys.consumedSet("set")?.isProbabilistic == false)
    }
}

extension StrategyCatalogueTests {
    @Test func standardRegistersTheLibraryWithTheReferencesFirst() {
        #expect(StrategyCatalogue.standard.windows.map(\.id) == [
            "seed-literal", "array-scan", "ring-buffer", "hash-deque", "epoch-sets", "direct-mapped-window",
        ])
        #expect(StrategyCatalogue.standard.consumedSets.map(\.id) == [
            "set", "bounded-lru", "bloom", "fifo-set", "rotating-sets", "aging-bloom", "cuckoo", "stable-bloom", "direct-mapped",
            "last-id", "recent-ids-10", "recent-ids-100", "id-time-map",
        ])
        #expect(StrategyCatalogue.standard.windows.first?.id == StrategyCatalogue.referenceWindowID)
        #expect(StrategyCatalogue.standard.consumedSets.first?.id == StrategyCatalogue.referenceConsumedSetID)
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
        #expect(sets.filter { !$0.isSwept }.map(\.id) == ["last-id", "recent-ids-10", "recent-ids-100", "id-time-map"])
        #expect(sets.allSatisfy { $0.isSnapshottable })
        #expect(StrategyCatalogue.toys.consumedSets.allSatisfy { !$0.isSnapshottable })
    }
}
