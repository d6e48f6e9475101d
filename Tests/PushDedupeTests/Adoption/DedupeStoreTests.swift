import Foundation
@testable import PushDedupe
import Testing

/// The snapshot store through a deduplicator: restore after save, every file it must not trust,
/// saving policies, and failures injected into the save's steps (`StoreFaults`). The other
/// designs run the same checks in `Stores/`.
@Suite struct DedupeStoreTests {
    static func ids(_ range: Range<Int>) -> [String] { range.map { "msg-\($0)" } }

    /// A v1 deduplicator on `store`, pinned to v1 (`recommended()` follows the latest version).
    @MainActor
    static func v1(_ store: DedupeStore, clock: ManualClock = ManualClock()) -> RecommendedPreset.V1MainActor {
        MainActorDeduplicator(preset: RecommendedPreset.v1, store: store, clock: .manual(clock))
    }

    /// A v1 deduplicator on `store` that consumes `pushIDs` (one route each, so the window never
    /// drops them).
    @MainActor
    static func consuming(_ pushIDs: [String], store: DedupeStore) -> RecommendedPreset.V1MainActor {
        let clock = ManualClock()
        let dedupe = v1(store, clock: clock)
        for (index, pushID) in pushIDs.enumerated() {
            #expect(dedupe.receivePayload(route: "item:\(index)", pushID: pushID) == .navigated)
            clock.advance(by: .seconds(1))
        }
        return dedupe
    }

    @MainActor @Test func aRelaunchRestoresWhatWasSaved() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let store = DedupeStore.snapshot(directory.file("consumed.pdcs"))
        let first = Self.consuming(Self.ids(0..<30), store: store)
        #expect(first.restoreOutcome == .nothingStored)
        #expect(first.counters.saves == 30 && first.counters.failedSaves == 0 && !first.hasUnsavedChanges)
        #expect(first.counters.restoreAttempts == 1 && first.counters.storeBytesWritten > 0)
        let relaunched = Self.v1(store)
        #expect(relaunched.restoreOutcome == .restored(ids: 30))
        for pushID in Self.ids(0..<30) { #expect(relaunched.receiveEmit(pushID: pushID) == .suppressedByConsumedSet) }
        #expect(relaunched.receiveEmit(pushID: "msg-30") == .navigated)
        #expect(relaunched.counters.saves == 1, "a suppressed event changes nothing, so saves nothing")
    }

    /// The snapshot a v1 deduplicator writes is the v1 set's own, which v1 restores as it is.
    @MainActor @Test func v1RestoresASnapshotWrittenByV1() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.pdcs")
        let first = Self.consuming(Self.ids(0..<500), store: .snapshot(url))
        #expect(try [UInt8](Data(contentsOf: url)) == first.pipeline.consumed.snapshot())
        let restored = try FIFOSet(snapshot: [UInt8](Data(contentsOf: url)), configuration: RecommendedPreset.v1.consumedSet.configuration)
        #expect(restored.count == 448 && restored.evictions == 52)
        let relaunched = MainActorDeduplicator(preset: RecommendedPreset.v1, store: .snapshot(url), clock: .manual(ManualClock()))
        #expect(relaunched.restoreOutcome == .restored(ids: 448))
        #expect(relaunched.pipeline.consumed.snapshot() == first.pipeline.consumed.snapshot())
    }

    /// Every file the store must not trust starts an empty set and says why, and none is
    /// destroyed: an unusable file is moved aside byte for byte (the next consume starts a good
    /// snapshot), and a newer version's file, or a directory at the path, is left untouched and
    /// never written.
    @MainActor @Test(arguments: DamagedFile.allCases)
    func aDamagedFileStartsEmptyAndIsKept(_ damage: DamagedFile) throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.pdcs")
        let good = Self.consuming(Self.ids(0..<5), store: .snapshot(url)).pipeline.consumed.snapshot()
        let damaged = try damage.write(good, to: url)
        let dedupe = Self.v1(.snapshot(url))
        #expect(damage.matches(dedupe.restoreOutcome), "\(damage): \(dedupe.restoreOutcome)")
        #expect(!dedupe.restoreOutcome.isRestored && dedupe.pipeline.consumed.count == 0)
        #expect(dedupe.receiveEmit(pushID: "msg-0") == .navigated, "nothing of the damaged file is used")
        switch damage {
        case .newerVersion:
            #expect(fileBytes(url.path) == damaged && dedupe.counters.filesLeftUntouched == 1 && dedupe.counters.refusedWrites == 1)
        case .directory:
            #expect(dedupe.counters.filesLeftUntouched == 1 && dedupe.counters.refusedWrites == 1)
            var isDirectory: ObjCBool = false
            #expect(FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue)
        default:
            #expect(fileBytes(url.path + ".corrupt-1") == damaged && dedupe.counters.filesMovedAside == 1)
            let next = Self.v1(.snapshot(url))
            #expect(next.restoreOutcome == .restored(ids: 1))
        }
    }

    enum DamagedFile: String, CaseIterable, CustomStringConvertible {
        case empty, truncated, flippedByte, notASnapshot, otherStrategy, newerVersion, olderVersion, directory

        var description: String { rawValue }

        /// Writes the damaged file and returns its bytes (none for the directory).
        func write(_ good: [UInt8], to url: URL) throws -> [UInt8] {
            var bytes = good
            switch self {
            case .empty: bytes = []
            case .truncated: bytes = Array(good.dropLast(9))
            case .flippedByte: bytes[bytes.count / 2] ^= 0x10
            case .notASnapshot: bytes = Array("{\"consumed\": []}".utf8)
            case .otherStrategy:
                var bloom = try BloomFilter(configuration: .init(capacity: 448))
                _ = bloom.consume(EnvelopeID(token: "msg-0"), at: .zero)
                bytes = bloom.snapshot()
            case .newerVersion, .olderVersion:
                bytes[4] = self == .newerVersion ? _SnapshotFormat.version + 1 : _SnapshotFormat.version - 1
                bytes.replaceSubrange((bytes.count - 8)..., with: littleEndian(DeterministicHashing.fnv1a64(bytes.dropLast(8))))
            case .directory:
                try FileManager.default.removeItem(at: url)
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
                return []
            }
            try writeFile(bytes, to: url)
            return bytes
        }

        func matches(_ outcome: RestoreOutcome) -> Bool {
            switch (self, outcome) {
            case (.newerVersion, .leftUntouched(let error)):
                if case .newerVersion = error.kind { return true }
                return false
            case (.directory, .leftUntouched(let error)): return error.kind == .notARegularFile
            case (.newerVersion, _), (.directory, _): return false
            case (_, .movedAside(.movedAside(let path, _))): return path.hasSuffix(".corrupt-1")
            default: return false
            }
        }
    }

    /// A set saved by another exact pair (here an earlier app version on `bounded-lru`) comes
    /// back into v1, and the outcome says it migrated.
    @MainActor @Test func anExactSetMigratesIntoV1() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let store = DedupeStore.snapshot(directory.file("consumed.pdcs"))
        let earlier = try MainActorDeduplicator<HashDequeWindow, BoundedLRU>(
            window: HashDequeWindow(preset: .compact), consumed: .init(capacity: 100), store: store, clock: .manual(ManualClock()))
        for pushID in Self.ids(0..<40) { _ = earlier.receiveEmit(pushID: pushID) }
        let v1 = Self.v1(store)
        #expect(v1.restoreOutcome == .migrated(from: "bounded-lru", ids: 40))
        #expect(Self.ids(0..<40).allSatisfy { v1.receiveEmit(pushID: $0) == .suppressedByConsumedSet })
    }

    @MainActor @Test func onBackgroundSavesOnlyAtTheBackgroundAndOnlyChanges() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.pdcs")
        let dedupe = Self.consuming(Self.ids(0..<3), store: .snapshot(url, saving: .onBackground))
        #expect(dedupe.counters.saves == 0 && dedupe.hasUnsavedChanges)
        #expect(!FileManager.default.fileExists(atPath: url.path))
        dedupe.didEnterBackground()
        dedupe.didEnterBackground()
        #expect(dedupe.counters.saves == 1 && !dedupe.hasUnsavedChanges)
        // A consume after the last background is lost at a kill: the relaunch does not know it.
        _ = dedupe.receiveEmit(pushID: "msg-3")
        let relaunched = Self.v1(.snapshot(url))
        #expect(relaunched.restoreOutcome == .restored(ids: 3))
        #expect(relaunched.receiveEmit(pushID: "msg-3") == .navigated)
    }

    @MainActor @Test func manualSavesOnlyWhenAsked() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.pdcs")
        let dedupe = Self.consuming(Self.ids(0..<3), store: .snapshot(url, saving: .manual))
        dedupe.didEnterBackground()
        #expect(dedupe.counters.saves == 0 && dedupe.hasUnsavedChanges)
        try dedupe.save()
        #expect(dedupe.counters.saves == 1 && !dedupe.hasUnsavedChanges)
        #expect(Self.v1(.snapshot(url)).restoreOutcome == .restored(ids: 3))
    }

    @MainActor @Test func theNoneStoreKeepsNothing() throws {
        let dedupe = Self.consuming(Self.ids(0..<3), store: .none)
        try dedupe.save()
        dedupe.didEnterBackground()
        #expect(dedupe.restoreOutcome == .notPersisted && dedupe.counters.saves == 0 && !dedupe.hasUnsavedChanges)
        #expect(dedupe.retryRestore() == .notPersisted && dedupe.storeRepairs.isEmpty && dedupe.lastStoreError == nil)
        #expect(DedupeStore.none.url == nil)
        #expect(DedupeStore.none.open(retaining: 10) == nil)
    }

    /// A save into a directory that does not exist fails without a trap, for every design: the
    /// set in memory keeps the event, the error is readable and counted, and a later save
    /// succeeds.
    @MainActor @Test(arguments: StoreSubject.every)
    func aFailedSaveKeepsTheSetAndReportsTheError(_ subject: StoreSubject) throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let missing = directory.file("not-yet")
        let url = missing.appendingPathComponent("consumed.store")
        let dedupe = Self.consuming(Self.ids(0..<2), store: subject.dedupeStore(url))
        #expect(dedupe.restoreOutcome == .nothingStored)
        #expect(dedupe.counters.failedSaves == 2 && dedupe.counters.saves == 0, "\(subject): \(dedupe.counters)")
        #expect(dedupe.lastStoreError.map { $0.path.hasPrefix(missing.path) } == true && dedupe.hasUnsavedChanges)
        #expect(dedupe.receiveEmit(pushID: "msg-0") == .suppressedByConsumedSet)
        #expect(throws: StoreError.self) { try dedupe.save() }
        try FileManager.default.createDirectory(at: missing, withIntermediateDirectories: false)
        dedupe.didEnterBackground()
        #expect(dedupe.counters.saves == 1 && dedupe.counters.failedSaves == 3 && !dedupe.hasUnsavedChanges, "\(subject): \(dedupe.counters)")
        #expect(dedupe.lastStoreError != nil, "the last failure stays readable")
        #expect(Self.v1(subject.dedupeStore(url)).restoreOutcome == .restored(ids: 2))
    }

    @Test func theSharedDeduplicatorPersistsTheSameWay() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let store = DedupeStore.snapshot(directory.file("consumed.pdcs"))
        let first = SharedDeduplicator(preset: RecommendedPreset.v1, store: store, clock: .manual(ManualClock()))
        for pushID in Self.ids(0..<10) { _ = first.receiveEmit(pushID: pushID) }
        #expect(first.counters.saves == 10)
        let second = SharedDeduplicator(preset: RecommendedPreset.v1, store: store, clock: .manual(ManualClock()))
        #expect(second.restoreOutcome == .restored(ids: 10))
        #expect(Self.ids(0..<10).allSatisfy { second.receiveEmit(pushID: $0) == .suppressedByConsumedSet })
    }
}

/// Which step the next snapshot save fails at, set by the test between consumes.
final class SavePlan: @unchecked Sendable {
    enum Failure: CaseIterable { case none, write, rename }

    private let lock = NSLock()
    private var failure = Failure.none

    var next: Failure {
        get { lock.withLock { failure } }
        set { lock.withLock { failure = newValue } }
    }

    /// Faults that fail the planned step with EIO.
    var faults: StoreFaults {
        StoreFaults { [self] step, _ in
            switch (next, step) {
            case (.write, .write), (.rename, .rename): .fail(errno: EIO)
            default: nil
            }
        }
    }
}

@Suite struct InjectedSaveFailureTests {
    /// Seeded saves, each meeting no failure, a failed write of the temporary file, or a failed
    /// rename over the target: after every save the file holds exactly the last snapshot that
    /// saved, and a relaunch restores exactly that set, never a mix.
    @MainActor @Test(arguments: [1, 2, 3] as [UInt64])
    func theFileHoldsTheLastGoodSnapshotWhateverFails(seed: UInt64) throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.pdcs")
        let plan = SavePlan()
        let dedupe = DedupeStoreTests.v1(.snapshot(url, faults: plan.faults))
        var random = SplitMix64(seed: seed)
        var lastGood: [UInt8]?
        var failures = 0
        for step in 0..<60 {
            plan.next = SavePlan.Failure.allCases[Int.random(in: 0..<3, using: &random)]
            #expect(dedupe.receiveEmit(pushID: "msg-\(step)") == .navigated)
            if plan.next == .none {
                lastGood = dedupe.pipeline.consumed.snapshot()
            } else {
                failures += 1
                #expect(dedupe.lastStoreError?.kind == .unwritable(errno: EIO))
            }
            #expect(fileBytes(url.path) == lastGood, "step \(step)")
        }
        #expect(dedupe.counters.failedSaves == failures && dedupe.counters.saves == 60 - failures)
        #expect(dedupe.pipeline.consumed.count == 60, "no failure lost an event in memory")
        let relaunched = DedupeStoreTests.v1(.snapshot(url))
        if let lastGood {
            let expected = try FIFOSet(snapshot: lastGood, configuration: RecommendedPreset.v1.consumedSet.configuration)
            #expect(relaunched.restoreOutcome == .restored(ids: expected.count))
            #expect(relaunched.pipeline.consumed.snapshot() == lastGood)
        } else {
            #expect(relaunched.restoreOutcome == .nothingStored)
        }
    }

    /// A target written in place and cut short (what a non-atomic write leaves at a kill) is
    /// caught by the checksum and moved aside whole, never restored as a mix.
    @MainActor @Test func aTornTargetIsMovedAsideNotMixed() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.pdcs")
        let old = DedupeStoreTests.consuming(DedupeStoreTests.ids(0..<4), store: .snapshot(url)).pipeline.consumed.snapshot()
        let new = DedupeStoreTests.consuming(DedupeStoreTests.ids(0..<9), store: .none).pipeline.consumed.snapshot()
        for cut in stride(from: 1, to: new.count, by: 7) {
            let torn = Array(new.prefix(cut)) + Array(old.dropFirst(cut))
            if torn == old || torn == new { continue }
            try? FileManager.default.removeItem(atPath: url.path + ".corrupt-1")
            try writeFile(torn, to: url)
            let dedupe = DedupeStoreTests.v1(.snapshot(url))
            guard case .movedAside = dedupe.restoreOutcome else {
                Issue.record("a torn file restored: \(dedupe.restoreOutcome) at cut \(cut)")
                continue
            }
            #expect(fileBytes(url.path + ".corrupt-1") == torn, "cut \(cut)")
        }
    }
}
