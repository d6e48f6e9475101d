@testable import DedupeStoreLab
import Foundation
import PushDedupe
import Testing

/// The cost loop in-process, on tiny sizes: what it counts, not how fast (no timed assertions).
@Suite struct StoreCostMeasurementTests {
    static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-cost-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static let budget = StoreCostMeasurement.Budget(consumes: 300, minimumConsumes: 20, seconds: 600, bytesWritten: .max, restores: 2)

    /// A journal prefilled to 64 ids compacts at 128 records: 300 timed consumes run through
    /// compactions, and every byte is counted.
    @Test func aJournalCompactsInSteadyState() throws {
        let parent = try Self.directory()
        defer { try? FileManager.default.removeItem(at: parent) }
        let cost = try StoreCostMeasurement.measure(.journal, durability: .processKill, retained: 64, budget: Self.budget, parent: parent)
        #expect(cost.design == "journal" && cost.durability == "kill" && cost.retained == 64)
        #expect(cost.consumes == 300)
        #expect(cost.compactions >= 3)
        // A record per consume, plus the compactions' rewrites.
        #expect(cost.bytesPerConsume > 24)
        #expect(cost.folderBytes > 24 && cost.folderBytes < 24 + 2 * 64 * 24 + 1)
        #expect(cost.restoreMicroseconds != nil)
        #expect(cost.medianNanoseconds <= cost.p99Nanoseconds && cost.p99Nanoseconds <= cost.maxNanoseconds)
        #expect(cost.medianNanoseconds > 0 && cost.meanNanoseconds > 0)
        // The directory is removed afterwards.
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path).isEmpty)
    }

    @Test func theStructureAloneWritesNothing() throws {
        let parent = try Self.directory()
        defer { try? FileManager.default.removeItem(at: parent) }
        let cost = try StoreCostMeasurement.measure(nil, durability: .processKill, retained: 64, budget: Self.budget, parent: parent)
        #expect(cost.design == StoreCost.structureDesign)
        #expect(cost.consumes == 300 && cost.bytesPerConsume == 0 && cost.compactions == 0 && cost.folderBytes == 0)
        #expect(cost.restoreMicroseconds == nil)
    }

    /// The snapshot design rewrites the whole set per consume; the bytes budget stops it.
    @Test func theSnapshotDesignIsBoundedByBytesWritten() throws {
        let parent = try Self.directory()
        defer { try? FileManager.default.removeItem(at: parent) }
        var budget = Self.budget
        budget.bytesWritten = 200_000
        budget.restores = 1
        let cost = try StoreCostMeasurement.measure(.snapshot, durability: .processKill, retained: 500, budget: budget, parent: parent)
        // Each snapshot of 500 ids is about 8 KB: the loop stops at the first check past 200 KB.
        #expect(cost.consumes >= 20 && cost.consumes < 300)
        #expect(cost.bytesPerConsume > 16 * 500)
        #expect(cost.restoreMicroseconds != nil)
    }

    @Test func everyDesignRestoresItsFilledStore() throws {
        let parent = try Self.directory()
        defer { try? FileManager.default.removeItem(at: parent) }
        let budget = StoreCostMeasurement.Budget(consumes: 40, minimumConsumes: 20, seconds: 600, bytesWritten: .max, restores: 1)
        for design in DedupeStore.Design.allCases {
            let cost = try StoreCostMeasurement.measure(design, durability: .processKill, retained: 32, budget: budget, parent: parent)
            #expect(cost.design == design.rawValue && cost.consumes == 40 && cost.bytesPerConsume > 0, "\(design)")
        }
    }

    @Test func statisticsOfKnownSamples() {
        let statistics = StoreCostMeasurement.statistics((1...100).map { UInt64($0) })
        #expect(statistics.max == 100 && statistics.mean == 50.5)
        #expect(statistics.median >= 50 && statistics.median <= 51)
        #expect(statistics.p99 >= 99 && statistics.p99 <= 100)
    }
}
