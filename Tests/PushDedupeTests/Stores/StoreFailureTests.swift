import Foundation
@testable import PushDedupe
import Testing

/// What a deduplicator does with each design when the file cannot be read, is a newer
/// version's, cannot be used, or cannot be written: it never overwrites what it could not read,
/// never deletes a file, and counts each case.
@MainActor @Suite struct StoreFailureTests {
    static func pushIDs(_ range: Range<Int>) -> [String] { range.map { "msg-\($0)" } }

    static func launch(
        _ subject: StoreSubject, _ url: URL, faults: StoreFaults? = nil, clock: ManualClock = ManualClock()
    ) -> RecommendedPreset.V2MainActor {
        MainActorDeduplicator(preset: RecommendedPreset.v2, store: subject.dedupeStore(url, faults: faults), clock: .manual(clock))
    }

    static func consume(_ pushIDs: [String], _ dedupe: RecommendedPreset.V2MainActor) {
        for pushID in pushIDs { #expect(dedupe.receiveEmit(pushID: pushID) == .navigated, "\(pushID)") }
    }

    /// The ids of `pushIDs` the deduplicator's set does not hold.
    static func unknown(_ pushIDs: [String], _ dedupe: RecommendedPreset.V2MainActor) -> [String] {
        pushIDs.filter { !dedupe.pipeline.consumed.contains(EnvelopeID(token: $0)) }
    }

    /// A launch that meets EMFILE or EACCES on its read, then consumes, then retries after the
    /// back-off: every id is known, from before and after, then and at the next launch. The
    /// snapshot design and SQLite do not write their unread file; the journals keep appending to
    /// it (an append rewrites nothing).
    @Test(arguments: StoreSubject.every, [EMFILE, EACCES])
    func aTransientReadFailureAtLaunchLosesNoID(_ subject: StoreSubject, errno code: Int32) throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.store")
        Self.consume(Self.pushIDs(0..<20), Self.launch(subject, url))
        let before = try #require(fileBytes(url.path))
        let clock = ManualClock()
        let second = Self.launch(subject, url, faults: .failing(.read, errno: code, times: 1), clock: clock)
        guard case .pending(let error) = second.restoreOutcome else {
            Issue.record("\(subject): \(second.restoreOutcome)")
            return
        }
        #expect(error.kind == .unreadable(errno: code) && error.isTransient && second.lastStoreError == error)
        #expect(second.counters.restoreAttempts == 1 && second.counters.failedRestores == 1)
        Self.consume(Self.pushIDs(20..<25), second)
        #expect(second.counters.restoreAttempts == 1, "no retry before the back-off")
        if subject.design == .snapshot {
            #expect(fileBytes(url.path) == before, "the unread snapshot is not written")
            #expect(second.counters.deferredWrites == 5 && second.counters.saves == 0)
        } else if subject.design == .sqlite {
            // An insert may rewrite a page of rows the load could not check: nothing is written.
            #expect(fileBytes(url.path) == before, "the unread database is not written")
            #expect(second.counters.failedSaves == 5 && second.counters.saves == 0)
        } else {
            #expect(second.counters.saves == 5 && second.counters.deferredWrites == 0)
        }
        clock.advance(by: .seconds(1))
        Self.consume(Self.pushIDs(25..<26), second)
        #expect(second.restoreOutcome.isRestored, "\(subject): \(second.restoreOutcome)")
        #expect(second.counters.restoreAttempts == 2 && second.counters.failedRestores == 1)
        #expect(Self.unknown(Self.pushIDs(0..<26), second).isEmpty)
        #expect((fileBytes(url.path)?.count ?? 0) >= before.count, "\(subject): the file shrank")
        let third = Self.launch(subject, url)
        #expect(third.restoreOutcome == .restored(ids: 26), "\(subject): \(third.restoreOutcome)")
        #expect(Self.unknown(Self.pushIDs(0..<26), third).isEmpty, "\(subject)")
    }

    /// The same launch killed before any retry: the journals kept every consume; the snapshot's
    /// file and the database are byte for byte what they were (neither is written unread), so
    /// the earlier ids survive.
    @Test(arguments: StoreSubject.every)
    func aLaunchKilledWhileItsReadWaitsLosesNoEarlierID(_ subject: StoreSubject) throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.store")
        Self.consume(Self.pushIDs(0..<20), Self.launch(subject, url))
        let before = try #require(fileBytes(url.path))
        let second = Self.launch(subject, url, faults: .failing(.read, errno: EIO, times: 1))
        Self.consume(Self.pushIDs(20..<25), second)
        let third = Self.launch(subject, url)
        if subject.design == .snapshot || subject.design == .sqlite {
            #expect(fileBytes(url.path) == before)
            #expect(third.restoreOutcome == .restored(ids: 20))
            #expect(Self.unknown(Self.pushIDs(0..<20), third).isEmpty)
        } else {
            #expect(third.restoreOutcome == .restored(ids: 25), "\(subject): \(third.restoreOutcome)")
            #expect(Self.unknown(Self.pushIDs(0..<25), third).isEmpty, "\(subject)")
        }
    }

    /// Retries wait 1 s, then twice as long each time, up to 64 s, on the deduplicator's clock.
    /// (The snapshot design, whose consumes read nothing while they wait: a journal's appends
    /// read its header, and would use up the injected failures.)
    @Test func retriesBackOffByDoublingUpTo64Seconds() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.pdcs")
        let subject = StoreSubject(design: .snapshot, durability: .processKill)
        Self.consume(Self.pushIDs(0..<3), Self.launch(subject, url))
        let clock = ManualClock()
        let dedupe = Self.launch(subject, url, faults: .failing(.read, errno: EACCES, times: 8), clock: clock)
        var next = 3
        var attempts = 1
        for due in [1, 3, 7, 15, 31, 63, 127, 191] as [Int64] {
            clock.set(to: Timestamp(nanoseconds: due * 1_000_000_000 - 1_000_000))
            Self.consume(Self.pushIDs(next..<(next + 1)), dedupe)
            next += 1
            #expect(dedupe.counters.restoreAttempts == attempts, "no retry 1 ms before \(due) s")
            clock.set(to: Timestamp(nanoseconds: due * 1_000_000_000))
            Self.consume(Self.pushIDs(next..<(next + 1)), dedupe)
            next += 1
            attempts += 1
            #expect(dedupe.counters.restoreAttempts == attempts, "a retry at \(due) s")
        }
        #expect(dedupe.counters.failedRestores == 8 && dedupe.restoreOutcome.isRestored, "\(dedupe.restoreOutcome)")
        #expect(Self.unknown(Self.pushIDs(0..<next), dedupe).isEmpty)
        #expect(Self.unknown(Self.pushIDs(0..<next), Self.launch(subject, url)).isEmpty)
    }

    enum Retry: String, CaseIterable, CustomStringConvertible {
        case retryRestore, didEnterBackground
        var description: String { rawValue }
    }

    /// `retryRestore()` (the protected-data callback) and the background callback retry at once,
    /// whatever the back-off, and write what the wait held back.
    @Test(arguments: Retry.allCases)
    func theAppsCallbacksRetryAtOnce(_ retry: Retry) throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.pdcs")
        let subject = StoreSubject(design: .snapshot, durability: .processKill)
        Self.consume(Self.pushIDs(0..<4), Self.launch(subject, url))
        let dedupe = Self.launch(subject, url, faults: .failing(.read, errno: EPERM, times: 1))
        Self.consume(Self.pushIDs(4..<6), dedupe)
        #expect(throws: StoreError.self, "a save would overwrite the unread file") { try dedupe.save() }
        switch retry {
        case .retryRestore: #expect(dedupe.retryRestore() == .restored(ids: 4))
        case .didEnterBackground: dedupe.didEnterBackground()
        }
        #expect(dedupe.restoreOutcome == .restored(ids: 4) && !dedupe.hasUnsavedChanges)
        let relaunched = Self.launch(subject, url)
        #expect(relaunched.restoreOutcome == .restored(ids: 6))
        #expect(Self.unknown(Self.pushIDs(0..<6), relaunched).isEmpty)
    }

    /// A file a newer version wrote is left byte for byte as it was, and never written: not at a
    /// consume, a save, a background or a retry; the counters count it.
    @Test(arguments: StoreSubject.every)
    func aNewerVersionsFileIsLeftUntouched(_ subject: StoreSubject) throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.store")
        Self.consume(Self.pushIDs(0..<5), Self.launch(subject, url))
        var bytes = try #require(fileBytes(url.path))
        switch subject.design {
        case .snapshot:
            bytes[4] = _SnapshotFormat.version + 1
            bytes.replaceSubrange((bytes.count - 8)..., with: littleEndian(DeterministicHashing.fnv1a64(bytes.dropLast(8))))
        case .journal:
            bytes.replaceSubrange(0..<24, with: _JournalFormat.header(magic: _JournalFormat.magic, version: 2, size: 24))
        case .mappedJournal:
            bytes.replaceSubrange(0..<24, with: _JournalFormat.header(magic: _JournalFormat.mappedMagic, version: 2, size: 24))
        case .sqlite:
            #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"), "the closed database was checkpointed")
            // A newer version is one the header and the checksummed meta row agree on; the
            // header alone is damage (SQLiteContractTests).
            let version = "UPDATE meta SET value = 3, checksum = \(SQLiteStore.checksum(key: "version", value: 3)) WHERE key = 'version'"
            try executeSQL(url.path, "\(version); PRAGMA user_version=3")
            bytes = try #require(fileBytes(url.path))
        }
        try writeFile(bytes, to: url)
        let listing = try folderListing(directory.url).map(\.name)
        do {
            let dedupe = Self.launch(subject, url)
            guard case .leftUntouched(let error) = dedupe.restoreOutcome, case .newerVersion = error.kind else {
                Issue.record("\(subject): \(dedupe.restoreOutcome)")
                return
            }
            #expect(dedupe.counters.filesLeftUntouched == 1)
            Self.consume(Self.pushIDs(5..<8), dedupe)
            #expect(dedupe.counters.refusedWrites == 3 && dedupe.counters.saves == 0 && dedupe.counters.failedSaves == 0)
            #expect(throws: StoreError.self) { try dedupe.save() }
            dedupe.didEnterBackground()
            _ = dedupe.retryRestore()
            #expect(fileBytes(url.path) == bytes, "\(subject): the newer file changed")
        }
        #expect(fileBytes(url.path) == bytes, "\(subject): the newer file changed")
        #expect(try folderListing(directory.url).map(\.name) == listing)
        let store = try subject.open(url, retained: 1750)
        #expect(throws: StoreError.self) { _ = try store.load() }
        #expect(throws: StoreError.self) { try store.append([storeID(1)], snapshot: { [0] }) }
        #expect(fileBytes(url.path) == bytes, "\(subject): the store wrote the newer file")
        #expect(Self.launch(subject, url).counters.filesLeftUntouched == 1)
    }

    /// A file that is no store of the design is moved aside under `.corrupt-N`, byte for byte,
    /// never deleted; a second, different one goes to `.corrupt-2`, and the first copy stays; the
    /// same damaged bytes again are kept once, in the copy that holds them.
    @Test(arguments: StoreSubject.every)
    func aCorruptFileIsMovedAsideNeverDeleted(_ subject: StoreSubject) throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.store")
        let garbage = (1...2).map { [UInt8](repeating: 0, count: 3) + Array(String(repeating: "not a store of consumed ids \($0)\n", count: 4).utf8) }
        for (number, bytes) in zip([1, 2, 1], garbage + [garbage[0]]) {
            try writeFile(bytes, to: url)
            let dedupe = Self.launch(subject, url)
            #expect(dedupe.counters.filesMovedAside == 1, "\(subject): \(dedupe.restoreOutcome)")
            #expect(dedupe.storeRepairs.contains { repair in
                if case .movedAside(let path, _) = repair { path == url.path + ".corrupt-\(number)" } else { false }
            }, "\(subject): \(dedupe.storeRepairs)")
            #expect(dedupe.pipeline.consumed.count == 0)
            Self.consume(Self.pushIDs(0..<2), dedupe)
            #expect(Self.launch(subject, url).restoreOutcome == .restored(ids: 2), "\(subject)")
        }
        for number in 1...2 { #expect(fileBytes(url.path + ".corrupt-\(number)") == garbage[number - 1], "\(subject): copy \(number)") }
        let copies = try corruptCopies(in: directory.url)
        #expect(copies.count == 2, "\(subject): \(copies)")
    }

    /// A full disk: the consumes fail to save and are counted, the set keeps them, and the next
    /// save that works writes them all, so a relaunch knows every one.
    @Test(arguments: StoreSubject.every)
    func aFullDiskLosesNoIDOnceItClears(_ subject: StoreSubject) throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.store")
        Self.consume(Self.pushIDs(0..<3), Self.launch(subject, url))
        let before = try #require(fileBytes(url.path))
        // The mapped journal writes through its mapping: its writes are the map steps.
        let step: StoreFaults.Step = subject.design == .mappedJournal ? .map : .write
        let dedupe = Self.launch(subject, url, faults: .failing(step, errno: ENOSPC, times: 4))
        #expect(dedupe.restoreOutcome == .restored(ids: 3))
        Self.consume(Self.pushIDs(3..<6), dedupe)
        #expect(dedupe.counters.failedSaves == 3 && dedupe.counters.saves == 0, "\(subject): \(dedupe.counters)")
        #expect(dedupe.lastStoreError?.kind == .unwritable(errno: ENOSPC) && dedupe.hasUnsavedChanges)
        #expect(throws: StoreError.self) { try dedupe.save() }
        if subject.design == .snapshot { #expect(fileBytes(url.path) == before) }
        #expect(Self.unknown(Self.pushIDs(0..<6), dedupe).isEmpty, "the set keeps what failed to save")
        Self.consume(Self.pushIDs(6..<7), dedupe)
        #expect(dedupe.counters.failedSaves == 4 && dedupe.counters.saves == 1 && !dedupe.hasUnsavedChanges, "\(subject): \(dedupe.counters)")
        let relaunched = Self.launch(subject, url)
        #expect(relaunched.restoreOutcome == .restored(ids: 7), "\(subject): \(relaunched.restoreOutcome)")
        #expect(Self.unknown(Self.pushIDs(0..<7), relaunched).isEmpty, "\(subject)")
    }

    /// A mapped file's pages fault while the phone is locked under `.complete`, so a mapped store
    /// takes a protection type without that class (the refusal is the compiler's); every other
    /// class is the same class by name, and the other designs take `complete` too.
    @Test func aMappedJournalTakesEveryClassButComplete() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.pdmj")
        #expect(MappedFileProtection.allCases.map(\.fileProtection) == StoreFileProtection.allCases.filter { $0 != .complete })
        for protection in MappedFileProtection.allCases {
            #expect(DedupeStore.mappedJournal(url, protection: protection).protection.rawValue == protection.rawValue)
            #expect(DedupeStore.mappedJournal(url, protection: protection).open(retaining: 10) is MappedJournalStore)
        }
        for store in [DedupeStore.snapshot(url, protection: .complete), .journal(url, protection: .complete), .sqlite(url, protection: .complete)] {
            #expect(store.protection == .complete && store.open(retaining: 10) != nil, "\(store.design) accepts complete")
        }
    }
}

/// `stepsSeen` bounds an adopter's kill sweep: a run with no fault numbers the same steps each
/// time, and `kill(atStep:)` can then aim at every one of them.
@Suite struct StoreStepCountTests {
    @Test(arguments: StoreSubject.every)
    func aFaultFreeRunNumbersTheSameStepsEveryTime(_ subject: StoreSubject) throws {
        func steps() throws -> Int {
            let directory = try StoreDirectory()
            defer { directory.remove() }
            let faults = StoreFaults { _, _ in nil }
            let dedupe = SharedDeduplicator(
                preset: RecommendedPreset.v3, store: subject.dedupeStore(directory.file("consumed.store"), faults: faults),
                clock: .manual(ManualClock()))
            for id in 0..<3 { _ = dedupe.receiveEmit(pushID: "step-\(id)") }
            return faults.stepsSeen
        }
        let first = try steps()
        #expect(first > 3, "\(subject): every consume takes steps")
        #expect(try steps() == first, "\(subject)")
    }
}
