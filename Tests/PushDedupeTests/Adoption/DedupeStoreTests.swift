import Foundation
@testable import PushDedupe
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file store: restore after save, every file it must not trust, saving policies, and
/// failures injected into the save's steps.
@Suite struct DedupeStoreTests {
    static func ids(_ range: Range<Int>) -> [String] { range.map { "msg-\($0)" } }

    /// A v1 deduplicator on `store` that consumes `pushIDs` (one route each, so the window never
    /// drops them).
    @MainActor
    static func consuming(_ pushIDs: [String], store: DedupeStore) -> RecommendedPreset.V1MainActor {
        let clock = ManualClock()
        let dedupe = MainActorDeduplicator.recommended(store: store, clock: .manual(clock))
        for (index, pushID) in pushIDs.enumerated() {
            #expect(dedupe.receivePayload(route: "item:\(index)", pushID: pushID) == .navigated)
            clock.advance(by: .seconds(1))
        }
        return dedupe
    }

    @MainActor @Test func aRelaunchRestoresWhatWasSaved() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = DedupeStore.file(directory.file("consumed.pdcs"))
        let first = Self.consuming(Self.ids(0..<30), store: store)
        #expect(first.restoreOutcome == .noSnapshot)
        #expect(first.counters.saves == 30 && first.counters.failedSaves == 0 && !first.hasUnsavedChanges)
        let relaunched = MainActorDeduplicator.recommended(store: store, clock: .manual(ManualClock()))
        #expect(relaunched.restoreOutcome == .restored(ids: 30))
        for pushID in Self.ids(0..<30) { #expect(relaunched.receiveEmit(pushID: pushID) == .suppressedByConsumedSet) }
        #expect(relaunched.receiveEmit(pushID: "msg-30") == .navigated)
        #expect(relaunched.counters.saves == 1, "a suppressed event changes nothing, so saves nothing")
    }

    /// The snapshot a v1 deduplicator writes is the v1 set's own, which v1 restores as it is.
    @MainActor @Test func v1RestoresASnapshotWrittenByV1() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.pdcs")
        let first = Self.consuming(Self.ids(0..<500), store: .file(url))
        #expect(try [UInt8](Data(contentsOf: url)) == first.pipeline.consumed.snapshot())
        let restored = try FIFOSet(snapshot: [UInt8](Data(contentsOf: url)), configuration: RecommendedPreset.v1.consumedSet.configuration)
        #expect(restored.count == 448 && restored.evictions == 52)
        let relaunched = MainActorDeduplicator(preset: RecommendedPreset.v1, store: .file(url), clock: .manual(ManualClock()))
        #expect(relaunched.restoreOutcome == .restored(ids: 448))
        #expect(relaunched.pipeline.consumed.snapshot() == first.pipeline.consumed.snapshot())
    }

    /// Every file the store must not trust starts an empty set and says why; the next consume
    /// replaces it with a good snapshot.
    @MainActor @Test(arguments: DamagedFile.allCases)
    func aDamagedFileStartsEmptyAndSaysWhy(_ damage: DamagedFile) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.pdcs")
        let good = Self.consuming(Self.ids(0..<5), store: .file(url)).pipeline.consumed.snapshot()
        try damage.write(good, to: url)
        let dedupe = MainActorDeduplicator.recommended(store: .file(url), clock: .manual(ManualClock()))
        #expect(damage.matches(dedupe.restoreOutcome), "\(damage): \(dedupe.restoreOutcome)")
        #expect(!dedupe.restoreOutcome.isRestored && dedupe.pipeline.consumed.count == 0)
        #expect(dedupe.receiveEmit(pushID: "msg-0") == .navigated, "nothing of the damaged file is used")
        if damage != .directory {
            let next = MainActorDeduplicator.recommended(store: .file(url), clock: .manual(ManualClock()))
            #expect(next.restoreOutcome == .restored(ids: 1))
        }
    }

    enum DamagedFile: String, CaseIterable, CustomStringConvertible {
        case empty, truncated, flippedByte, notASnapshot, otherStrategy, newerVersion, olderVersion, directory

        var description: String { rawValue }

        func write(_ good: [UInt8], to url: URL) throws {
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
                bytes.replaceSubrange((bytes.count - 8)..., with: littleEndian(_SnapshotFormat.checksum(bytes.dropLast(8))))
            case .directory:
                try FileManager.default.removeItem(at: url)
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
                return
            }
            try Data(bytes).write(to: url)
        }

        func matches(_ outcome: RestoreOutcome) -> Bool {
            guard case .discarded(let reason) = outcome else { return false }
            switch (self, reason) {
            case (.empty, .emptyFile), (.directory, .unreadable): return true
            case (_, .invalidSnapshot(let error)):
                switch self {
                case .truncated: return error.kind == .truncated
                case .flippedByte: return error.kind == .checksumMismatch
                case .notASnapshot: return error.kind == .notASnapshot
                case .otherStrategy:
                    return error.kind == .incompatibleStrategy && error.storedStrategy == "bloom" && error.requestedStrategy == "fifo-set"
                case .newerVersion: return error.kind == .unsupportedVersion && error.reason.contains("newer")
                case .olderVersion: return error.kind == .unsupportedVersion && error.reason.contains("older")
                case .empty, .directory: return false
                }
            default: return false
            }
        }
    }

    /// A set saved by another exact pair (here an earlier app version on `bounded-lru`) comes
    /// back into v1, and the outcome says it migrated.
    @MainActor @Test func anExactSetMigratesIntoV1() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = DedupeStore.file(directory.file("consumed.pdcs"))
        let earlier = try MainActorDeduplicator<HashDequeWindow, BoundedLRU>(
            window: HashDequeWindow(preset: .compact), consumed: .init(capacity: 100), store: store, clock: .manual(ManualClock()))
        for pushID in Self.ids(0..<40) { _ = earlier.receiveEmit(pushID: pushID) }
        let v1 = MainActorDeduplicator.recommended(store: store, clock: .manual(ManualClock()))
        #expect(v1.restoreOutcome == .migrated(from: "bounded-lru", ids: 40))
        #expect(Self.ids(0..<40).allSatisfy { v1.receiveEmit(pushID: $0) == .suppressedByConsumedSet })
    }

    @MainActor @Test func onBackgroundSavesOnlyAtTheBackgroundAndOnlyChanges() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.pdcs")
        let dedupe = Self.consuming(Self.ids(0..<3), store: .file(url, saving: .onBackground))
        #expect(dedupe.counters.saves == 0 && dedupe.hasUnsavedChanges)
        #expect(!FileManager.default.fileExists(atPath: url.path))
        dedupe.didEnterBackground()
        dedupe.didEnterBackground()
        #expect(dedupe.counters.saves == 1 && !dedupe.hasUnsavedChanges)
        // A consume after the last background is lost at a kill: the relaunch does not know it.
        _ = dedupe.receiveEmit(pushID: "msg-3")
        let relaunched = MainActorDeduplicator.recommended(store: .file(url), clock: .manual(ManualClock()))
        #expect(relaunched.restoreOutcome == .restored(ids: 3))
        #expect(relaunched.receiveEmit(pushID: "msg-3") == .navigated)
    }

    @MainActor @Test func manualSavesOnlyWhenAsked() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.pdcs")
        let dedupe = Self.consuming(Self.ids(0..<3), store: .file(url, saving: .manual))
        dedupe.didEnterBackground()
        #expect(dedupe.counters.saves == 0 && dedupe.hasUnsavedChanges)
        try dedupe.save()
        #expect(dedupe.counters.saves == 1 && !dedupe.hasUnsavedChanges)
        #expect(MainActorDeduplicator.recommended(store: .file(url)).restoreOutcome == .restored(ids: 3))
    }

    @MainActor @Test func theNoneStoreKeepsNothing() throws {
        let dedupe = Self.consuming(Self.ids(0..<3), store: .none)
        try dedupe.save()
        dedupe.didEnterBackground()
        #expect(dedupe.restoreOutcome == .notPersisted && dedupe.counters.saves == 0 && !dedupe.hasUnsavedChanges)
        #expect(DedupeStore.none.url == nil)
    }

    /// A save into a directory that does not exist fails without a trap: the set in memory keeps
    /// the event, the error is readable and counted, and a later save succeeds.
    @MainActor @Test func aFailedSaveKeepsTheSetAndReportsTheError() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let missing = directory.file("not-yet")
        let url = missing.appendingPathComponent("consumed.pdcs")
        let dedupe = Self.consuming(Self.ids(0..<2), store: .file(url))
        #expect(dedupe.counters.failedSaves == 2 && dedupe.counters.saves == 0)
        #expect(dedupe.lastSaveError?.url == url && dedupe.hasUnsavedChanges)
        #expect(dedupe.receiveEmit(pushID: "msg-0") == .suppressedByConsumedSet)
        #expect(throws: DedupeStore.SaveError.self) { try dedupe.save() }
        try FileManager.default.createDirectory(at: missing, withIntermediateDirectories: false)
        dedupe.didEnterBackground()
        #expect(dedupe.counters.saves == 1 && dedupe.counters.failedSaves == 3 && !dedupe.hasUnsavedChanges)
        #expect(dedupe.lastSaveError != nil, "the last failure stays readable")
        #expect(MainActorDeduplicator.recommended(store: .file(url)).restoreOutcome == .restored(ids: 2))
    }

    @Test func theSharedDeduplicatorPersistsTheSameWay() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = DedupeStore.file(directory.file("consumed.pdcs"))
        let first = SharedDeduplicator.recommended(store: store, clock: .manual(ManualClock()))
        for pushID in Self.ids(0..<10) { _ = first.receiveEmit(pushID: pushID) }
        #expect(first.counters.saves == 10)
        let second = SharedDeduplicator.recommended(store: store, clock: .manual(ManualClock()))
        #expect(second.restoreOutcome == .restored(ids: 10))
        #expect(Self.ids(0..<10).allSatisfy { second.receiveEmit(pushID: $0) == .suppressedByConsumedSet })
    }
}

/// The store's save with each step a test can make fail: write a temporary file beside the
/// target and fsync it, then rename it over the target. A failure leaves what a kill at that
/// point would leave: a partial or complete temporary file, and the target untouched.
final class StagedFileSystem: _StoreFileSystem, @unchecked Sendable {
    enum Failure { case none, midWrite, beforeRename }

    /// The failure the next save meets.
    var next: Failure = .none
    struct Injected: Error {}

    func contents(of url: URL) throws -> [UInt8]? {
        try _FoundationFileSystem().contents(of: url)
    }

    func replace(_ url: URL, with bytes: [UInt8]) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).saving")
        let written = next == .midWrite ? Array(bytes.prefix(bytes.count / 2)) : bytes
        try Data(written).write(to: temporary)
        let handle = try FileHandle(forUpdating: temporary)
        try handle.synchronize()
        try handle.close()
        guard next == .none else { throw Injected() }
        guard rename(temporary.path, url.path) == 0 else { throw Injected() }
    }
}

@Suite struct InjectedSaveFailureTests {
    /// Seeded saves, each meeting no failure, a failure mid-write, or one between the write and
    /// the rename: after every save the file holds exactly the last snapshot that saved, and a
    /// relaunch restores exactly that set, never a mix.
    @MainActor @Test(arguments: [1, 2, 3] as [UInt64])
    func theFileHoldsTheLastGoodSnapshotWhateverFails(seed: UInt64) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.pdcs")
        let fileSystem = StagedFileSystem()
        let store = DedupeStore._file(url, fileSystem: fileSystem)
        let dedupe = MainActorDeduplicator.recommended(store: store, clock: .manual(ManualClock()))
        var random = SplitMix64(seed: seed)
        var lastGood: [UInt8]?
        var failures = 0
        for step in 0..<60 {
            fileSystem.next = [.none, .midWrite, .beforeRename][Int.random(in: 0..<3, using: &random)]
            #expect(dedupe.receiveEmit(pushID: "msg-\(step)") == .navigated)
            if fileSystem.next == .none {
                lastGood = dedupe.pipeline.consumed.snapshot()
            } else {
                failures += 1
            }
            let onDisk = FileManager.default.fileExists(atPath: url.path) ? [UInt8](try Data(contentsOf: url)) : nil
            #expect(onDisk == lastGood, "step \(step)")
        }
        #expect(dedupe.counters.failedSaves == failures && dedupe.counters.saves == 60 - failures)
        #expect(dedupe.pipeline.consumed.count == 60, "no failure lost an event in memory")
        let relaunched = MainActorDeduplicator.recommended(store: .file(url), clock: .manual(ManualClock()))
        if let lastGood {
            let expected = try FIFOSet(snapshot: lastGood, configuration: RecommendedPreset.v1.consumedSet.configuration)
            #expect(relaunched.restoreOutcome == .restored(ids: expected.count))
            #expect(relaunched.pipeline.consumed.snapshot() == lastGood)
        } else {
            #expect(relaunched.restoreOutcome == .noSnapshot)
        }
    }

    /// A target written in place and cut short (what a non-atomic write leaves at a kill) is
    /// caught by the checksum and discarded whole.
    @MainActor @Test func aTornTargetIsDiscardedNotMixed() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.pdcs")
        let old = DedupeStoreTests.consuming(DedupeStoreTests.ids(0..<4), store: .file(url)).pipeline.consumed.snapshot()
        let new = DedupeStoreTests.consuming(DedupeStoreTests.ids(0..<9), store: .none).pipeline.consumed.snapshot()
        for cut in stride(from: 1, to: new.count, by: 7) {
            let torn = Array(new.prefix(cut)) + Array(old.dropFirst(cut))
            if torn == old || torn == new { continue }
            try Data(torn).write(to: url)
            let dedupe = MainActorDeduplicator.recommended(store: .file(url), clock: .manual(ManualClock()))
            if case .discarded = dedupe.restoreOutcome { continue }
            Issue.record("a torn file restored: \(dedupe.restoreOutcome) at cut \(cut)")
        }
    }
}
