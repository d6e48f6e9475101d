import DedupeHarness
import Foundation
import PushDedupe
import Testing

/// The save-cost measurement saves through the real store: the file it leaves restores to the
/// set it filled. Its timing is a benchmark figure, not checked here.
@Suite struct SaveCostTests {
    @Test func everySaveIsTimedAndTheFileRestoresTheFilledSet() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("save-cost-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = ConsumedSetConfiguration(capacity: 448)
        let result = try SaveCost.measure(FIFOSet.self, configuration: configuration, filledTo: 500, saves: 5, directory: directory)
        #expect(result.strategy == "fifo-set" && result.ids == 448)
        #expect(result.microseconds.count == 5 && result.microseconds.allSatisfy { $0 > 0 })
        #expect(result.median >= result.microseconds.min()! && result.p99 <= result.microseconds.max()!)
        let url = directory.appendingPathComponent("save-cost-fifo-set.pdcs")
        let saved = try [UInt8](Data(contentsOf: url))
        #expect(saved.count == result.snapshotBytes)
        let restored = try FIFOSet(snapshot: saved, configuration: configuration)
        #expect(restored.count == 448 && restored.contains(EnvelopeID(token: "save-cost-499")) && !restored.contains(EnvelopeID(token: "save-cost-0")))
    }

    @Test func aMissingDirectoryIsAnErrorNotACost() {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("save-cost-missing-\(UUID().uuidString)")
        #expect(throws: DedupeStore.SaveError.self) {
            _ = try SaveCost.measure(FIFOSet.self, configuration: .init(capacity: 8), filledTo: 8, saves: 1, directory: missing)
        }
    }
}
