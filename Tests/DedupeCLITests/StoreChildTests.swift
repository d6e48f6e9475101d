@testable import DedupeStoreLab
import Foundation
import PushDedupe
import Testing
@testable import DedupeHarness

/// The store-writer child through the built binary: acknowledgements stream as consumes return,
/// a few real SIGKILL points lose nothing, and two writers run at once.
@Suite struct StoreChildTests {
    /// The built `dedupe-bench` in the store-writer role.
    static let writer = StoreWriterCommand(
        executable: BinaryRunner.executable.path, arguments: [HarnessChild.verb, HarnessChild.Role.storeWriter.rawValue])

    static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func aChildAcknowledgesEveryConsumeAndTheStoreKeepsThem() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = StoreDesigns.file(in: directory)
        let request = StoreWriterRequest(
            design: "journal", durability: "kill", path: url.path, retained: 64, prefix: "k-", start: 5, count: 40)
        let child = try StoreWriterProcess(
            writer: Self.writer, request: request, errorFile: directory.appendingPathComponent("err").path)
        child.drain()
        #expect(child.wait() == 0, "\(child.errorLine)")
        #expect(child.acknowledged == Array(5..<45))
        let dedupe = try StoreDesigns.deduplicator(retained: 64, store: .journal(url))
        #expect(dedupe.restoreOutcome == .restored(ids: 40))
    }

    @Test func aBadRequestIsRefusedWithExitTwo() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let request = StoreWriterRequest(
            design: "tape", durability: "kill", path: directory.appendingPathComponent("x").path, retained: 8, prefix: "k-", start: 0, count: 1)
        let child = try StoreWriterProcess(
            writer: Self.writer, request: request, errorFile: directory.appendingPathComponent("err").path)
        child.drain()
        #expect(child.wait() == 2)
        #expect(child.errorLine.contains("store-writer"))
        #expect(child.acknowledged.isEmpty)
    }

    @Test(arguments: DedupeStore.Design.allCases)
    func realKillPointsLoseNothing(_ design: DedupeStore.Design) throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let settings = StoreKillSweep.Settings(points: 6, retained: 16, seed: 3, maximumAcknowledged: 32, maximumDelayMicroseconds: 50)
        let result = try StoreKillSweep.run(design, writer: Self.writer, settings: settings, directory: directory)
        #expect(result.killPoints == 6)
        #expect(result.acknowledged > 0)
        #expect(result.lost == 0, "\(result)")
    }

    @Test(arguments: [DedupeStore.Design.journal, .sqlite])
    func twoWritersLoseNothingOnALockingDesign(_ design: DedupeStore.Design) throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try StoreTwoWriters.run(design, writer: Self.writer, consumesPerWriter: 200, directory: directory)
        #expect(result.acknowledged == 400)
        #expect(result.lost == 0)
    }
}
