@testable import DedupeStoreLab
import Foundation
import PushDedupe
import Testing

/// The damage matrix on the designs whose files are small: what each trial counts, and that the
/// damaged files it builds are what they claim to be.
@Suite struct StoreDamageMatrixTests {
    static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-damage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test(arguments: [DedupeStore.Design.journal, .mappedJournal])
    func journalsKeepEveryFileAndLoseOnlyDamagedRecords(_ design: DedupeStore.Design) throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let results = try StoreDamageMatrix.run(design, directory: directory, bitFlipStride: 13)
        #expect(results.map(\.kind) == StoreDamageResult.Kind.allCases)
        for result in results {
            #expect(result.destroyed == 0, "\(result.kind)")
            #expect(result.trials > 0 && result.notApplicable == nil, "\(result.kind)")
        }
        let torn = try #require(results.first { $0.kind == .tornTail })
        #expect(torn.trials == 24 && torn.lostTotal == 0)
        // A flipped bit costs at most the one record it lands in.
        #expect(try #require(results.first { $0.kind == .bitFlip }).lostMax <= 1)
    }

    /// A newer version's journal header is one the library reads as such: the checksum the
    /// matrix writes is the format's.
    @Test(arguments: [DedupeStore.Design.journal, .mappedJournal, .snapshot, .sqlite])
    func theNewerVersionFileIsReadAsNewer(_ design: DedupeStore.Design) throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pristine = try StoreDamageMatrix.pristineFile(design, directory: directory)
        guard case .success(let variants) = try StoreDamageMatrix.variants(
            .newerVersion, design: design, pristine: pristine, previous: pristine, bitFlipStride: 1)
        else {
            Issue.record("newer-version applies to every design")
            return
        }
        let url = directory.appendingPathComponent("newer.store")
        try Data(variants[0].bytes).write(to: url)
        let store = try #require(StoreDesigns.store(design, at: url, durability: .processKill).open(retaining: 32))
        #expect {
            _ = try store.load()
        } throws: { error in
            guard let error = error as? StoreError, case .newerVersion = error.kind else { return false }
            return true
        }
    }

    /// An undamaged file loses nothing; a "newer version" file the trial then writes to counts
    /// as destroyed, though a file is still there.
    @Test func aTrialCountsWhatItFinds() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pristine = try StoreDamageMatrix.pristineFile(.journal, directory: try StoreDesigns.makeDirectory(directory, "p"))
        let trial = try StoreDesigns.makeDirectory(directory, "t")
        let kept = try StoreDamageMatrix.trial(
            StoreDamageMatrix.Variant(bytes: pristine, expected: 0..<16), kind: .bitFlip, design: .journal, in: trial)
        #expect(kept.lost == 0 && !kept.destroyed)
        let changed = try StoreDamageMatrix.trial(
            StoreDamageMatrix.Variant(bytes: pristine, expected: 0..<0), kind: .newerVersion, design: .journal, in: trial)
        #expect(changed.destroyed)
    }
}
