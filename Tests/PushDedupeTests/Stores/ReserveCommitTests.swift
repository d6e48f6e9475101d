import Foundation
@testable import PushDedupe
import Testing

/// A router's reserve-then-commit through the deduplicator: a reserved envelope is consumed in
/// memory at once and written to the store only at its commit, so a kill before the commit (the
/// route's fetch still running) forgets it and the tap navigates again at the next launch, and a
/// kill after the commit (the screen shown) drops the replay.
@Suite struct ReserveCommitTests {
    static func launch(_ subject: StoreSubject, _ url: URL) -> SharedDeduplicator<HashDequeWindow, FIFOSet> {
        SharedDeduplicator(preset: RecommendedPreset.v3, store: subject.dedupeStore(url), clock: .manual(ManualClock()))
    }

    @Test(arguments: StoreSubject.every)
    func aKillBeforeTheCommitForgetsTheReservationAndOneAfterKeepsIt(_ subject: StoreSubject) throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.store")
        do {
            let dedupe = Self.launch(subject, url)
            #expect(dedupe.reservePayload(route: "item:1", pushID: "shown") == .navigated)
            #expect(dedupe.reserveEmit(pushID: "shown") == .suppressedByConsumedSet, "reserved means consumed in memory")
            dedupe.commit(EnvelopeID(token: "shown"))
            #expect(dedupe.reserveEmit(pushID: "fetching") == .navigated)
            #expect(dedupe.receiveEmit(pushID: "fetching") == .suppressedByConsumedSet)
            // Killed here: "fetching" was never committed.
        }
        let relaunched = Self.launch(subject, url)
        #expect(relaunched.receiveEmit(pushID: "shown") == .suppressedByConsumedSet, "\(subject): a committed consume survives")
        #expect(relaunched.receiveEmit(pushID: "fetching") == .navigated, "\(subject): an uncommitted tap is not lost")
    }

    /// The snapshot design writes whole state, which would make a reservation durable early: it
    /// writes the set without the reserved ids, and writes again at their commit.
    @Test func theSnapshotDesignSavesWithoutTheReservedIDs() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.pdcs")
        let dedupe = SharedDeduplicator(preset: RecommendedPreset.v3, store: .snapshot(url), clock: .manual(ManualClock()))
        _ = dedupe.reserveEmit(pushID: "a")
        _ = dedupe.receiveEmit(pushID: "b")
        #expect(dedupe.counters.saves == 1 && dedupe.counters.deferredWrites == 0 && dedupe.hasUnsavedChanges)
        let killed = Self.launch(StoreSubject(design: .snapshot, durability: .processKill), url)
        #expect(killed.restoreOutcome == .restored(ids: 1))
        #expect(killed.receiveEmit(pushID: "a") == .navigated, "an uncommitted reservation is not durable")
        dedupe.commit(EnvelopeID(token: "a"))
        #expect(dedupe.counters.saves == 2 && !dedupe.hasUnsavedChanges)
        let relaunched = Self.launch(StoreSubject(design: .snapshot, durability: .processKill), url)
        #expect(relaunched.restoreOutcome == .restored(ids: 2))
    }

    /// A reservation that is never committed (its task was cancelled) blocks no later save:
    /// after a kill, every push consumed since is known.
    @Test func aReservationNeverCommittedBlocksNoLaterSave() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.pdcs")
        let dedupe = SharedDeduplicator(preset: RecommendedPreset.v3, store: .snapshot(url), clock: .manual(ManualClock()))
        _ = dedupe.reserveEmit(pushID: "abandoned")
        for index in 0..<50 { #expect(dedupe.receiveEmit(pushID: "push-\(index)") == .navigated) }
        let relaunched = Self.launch(StoreSubject(design: .snapshot, durability: .processKill), url)
        let known = (0..<50).filter { relaunched.receiveEmit(pushID: "push-\($0)") == .suppressedByConsumedSet }.count
        #expect(known == 50, "\(known) of 50 pushes survived the kill")
        #expect(relaunched.receiveEmit(pushID: "abandoned") == .navigated)
    }

    /// A commit of an envelope that was never reserved (or twice) writes nothing more.
    @Test(arguments: StoreSubject.appending)
    func aCommitWithoutAReservationWritesNothing(_ subject: StoreSubject) throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let dedupe = Self.launch(subject, directory.file("consumed.store"))
        _ = dedupe.reserveEmit(pushID: "a")
        dedupe.commit(EnvelopeID(token: "a"))
        let saves = dedupe.counters.saves
        dedupe.commit(EnvelopeID(token: "a"))
        dedupe.commit(EnvelopeID(token: "never"))
        #expect(dedupe.counters.saves == saves && saves == 1, "\(subject): \(dedupe.counters)")
    }
}
