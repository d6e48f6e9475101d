import Foundation
@testable import PushDedupe
import Testing

/// An app that shipped the snapshot design (`RecommendedPreset.v2` on `.snapshot`) updates to
/// another design on the same path: the first launch restores every id and turns the file into
/// the new design's, and later launches read that.
@Suite struct StoreMigrationTests {
    static let pushIDs = (0..<30).map { "msg-\($0)" }

    @MainActor @Test(arguments: StoreSubject.appending)
    func aV2SnapshotBecomesTheNewDesignWithEveryID(_ subject: StoreSubject) throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed-routes.pdcs")
        let v2 = SharedDeduplicator(preset: RecommendedPreset.v2, store: .snapshot(url))
        for pushID in Self.pushIDs { #expect(v2.receiveEmit(pushID: pushID) == .navigated) }
        let snapshot = try #require(fileBytes(url.path))
        #expect(snapshot.starts(with: _SnapshotFormat.magic))

        let updated = MainActorDeduplicator(preset: RecommendedPreset.v2, store: subject.dedupeStore(url), clock: .manual(ManualClock()))
        #expect(updated.restoreOutcome.isRestored, "\(subject): \(updated.restoreOutcome)")
        #expect(updated.restoreOutcome == .restored(ids: 30) || updated.restoreOutcome == .migrated(from: "fifo-set", ids: 30))
        let magic: [UInt8] = switch subject.design {
        case .journal: _JournalFormat.magic
        case .mappedJournal: _JournalFormat.mappedMagic
        case .sqlite: Array("SQLite format 3\0".utf8)
        case .snapshot: _SnapshotFormat.magic
        }
        #expect(fileBytes(url.path)?.starts(with: magic) == true, "\(subject): the file is not the new design's yet")
        #expect(Self.pushIDs.allSatisfy { updated.receiveEmit(pushID: $0) == .suppressedByConsumedSet })
        #expect(updated.receiveEmit(pushID: "msg-30") == .navigated)
        #expect(updated.counters.failedSaves == 0 && updated.lastStoreError == nil)

        let next = MainActorDeduplicator(preset: RecommendedPreset.v2, store: subject.dedupeStore(url), clock: .manual(ManualClock()))
        #expect(next.restoreOutcome == .restored(ids: 31), "\(subject): \(next.restoreOutcome)")
        #expect((Self.pushIDs + ["msg-30"]).allSatisfy { next.receiveEmit(pushID: $0) == .suppressedByConsumedSet })
    }

    /// The adoption the README gives: `v3` with its own store at the path where `v2` kept its
    /// snapshot. The first launch restores every id; the next reads the new file.
    @MainActor @Test func aV2SnapshotMigratesToV3AtItsPath() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed-routes.pdcs")
        let v2 = SharedDeduplicator(preset: RecommendedPreset.v2, store: .snapshot(url))
        for pushID in Self.pushIDs { _ = v2.receiveEmit(pushID: pushID) }
        let v3 = MainActorDeduplicator(preset: RecommendedPreset.v3, storeURL: url, clock: .manual(ManualClock()))
        #expect(v3.restoreOutcome.isRestored, "\(v3.restoreOutcome)")
        #expect(fileBytes(url.path)?.starts(with: _SnapshotFormat.magic) == false, "still a snapshot")
        #expect(Self.pushIDs.allSatisfy { v3.receiveEmit(pushID: $0) == .suppressedByConsumedSet })
        let next = MainActorDeduplicator(preset: RecommendedPreset.v3, storeURL: url, clock: .manual(ManualClock()))
        #expect(next.restoreOutcome == .restored(ids: 30), "\(next.restoreOutcome)")
        #expect(Self.pushIDs.allSatisfy { next.pipeline.consumed.contains(EnvelopeID(token: $0)) })
    }

    /// A snapshot of another exact set (an earlier app version on `bounded-lru`) migrates into
    /// a journal, and the outcome names where it came from.
    @MainActor @Test(arguments: StoreSubject.appending)
    func anotherExactSetsSnapshotMigrates(_ subject: StoreSubject) throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed-routes.pdcs")
        let earlier = try MainActorDeduplicator<HashDequeWindow, BoundedLRU>(
            window: HashDequeWindow(preset: .compact), consumed: .init(capacity: 100), store: .snapshot(url), clock: .manual(ManualClock()))
        for pushID in Self.pushIDs { _ = earlier.receiveEmit(pushID: pushID) }
        let updated = MainActorDeduplicator(preset: RecommendedPreset.v2, store: subject.dedupeStore(url), clock: .manual(ManualClock()))
        #expect(updated.restoreOutcome == .migrated(from: "bounded-lru", ids: 30), "\(subject): \(updated.restoreOutcome)")
        let next = MainActorDeduplicator(preset: RecommendedPreset.v2, store: subject.dedupeStore(url), clock: .manual(ManualClock()))
        #expect(next.restoreOutcome == .restored(ids: 30), "\(subject): \(next.restoreOutcome)")
    }
}
