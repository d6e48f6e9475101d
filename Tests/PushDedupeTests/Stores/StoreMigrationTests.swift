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

/// What a store leaves on the disk: a folder that stays small however many consumes, and for
/// SQLite a database the `sqlite3` tool opens.
@Suite struct StoreFootprintTests {
    /// 20,000 consumes at v2's 1,750 ids: compaction keeps the folder (every file in it,
    /// SQLite's `-wal` and `-shm` included) within a bound that does not grow with the consumes.
    @MainActor @Test(arguments: StoreSubject.appending)
    func twentyThousandConsumesLeaveASmallFolder(_ subject: StoreSubject) throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.store")
        let retained = RecommendedPreset.v2.consumedSet.configuration.capacity
        let dedupe = MainActorDeduplicator(preset: RecommendedPreset.v2, store: subject.dedupeStore(url), clock: .manual(ManualClock()))
        for number in 0..<20_000 { _ = dedupe.receiveEmit(pushID: "msg-\(number)") }
        #expect(dedupe.counters.saves == 20_000 && dedupe.counters.failedSaves == 0)
        #expect(dedupe.counters.compactions > 0, "\(subject): no compaction")
        let listing = try folderListing(directory.url)
        // A journal holds at most twice `retained` records; SQLite's rows and index take a few
        // pages more, and its write-ahead log must stay short too.
        let bound = subject.design == .sqlite ? 1 << 20 : 4 * retained * _JournalFormat.recordSize + 4096
        #expect(listing.map(\.size).reduce(0, +) < bound, "\(subject): \(listing) holds more than \(bound) bytes")
        #expect(listing.allSatisfy { $0.name.hasPrefix("consumed.store") }, "\(listing)")
        let relaunched = MainActorDeduplicator(preset: RecommendedPreset.v2, store: subject.dedupeStore(url), clock: .manual(ManualClock()))
        #expect(relaunched.restoreOutcome == .restored(ids: retained), "\(subject): \(relaunched.restoreOutcome)")
        #expect((19_000..<20_000).allSatisfy { relaunched.pipeline.consumed.contains(EnvelopeID(token: "msg-\($0)")) })
    }

    /// An app relaunched often consumes far fewer than `retained` ids per process: compaction
    /// must still happen, counted over the file, not over one process's appends.
    @Test(arguments: StoreSubject.appending)
    func aFewConsumesPerLaunchStillCompact(_ subject: StoreSubject) throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.store")
        let retained = 10
        for launch in 0..<30 {
            let store = try subject.open(url, retained: retained)
            _ = try store.load()
            for index in 1...5 { try store.append([storeID(5 * launch + index)], snapshot: { [] }) }
        }
        let loaded = try loadedIDs(try subject.open(url, retained: retained))
        #expect(loaded.count < 2 * retained, "\(subject): \(loaded.count) ids held for \(retained) retained")
        #expect(Array(loaded.suffix(retained)) == (141...150).map(storeID))
    }

    static let sqlite3 = "/usr/bin/sqlite3"

    /// The SQLite design's file is a real database: SQLite's header, and the `sqlite3` tool
    /// reads its rows (that part skipped where the tool is not installed).
    @MainActor @Test func theSQLiteStoreIsARealDatabase() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.sqlite")
        do {
            let dedupe = MainActorDeduplicator(preset: RecommendedPreset.v2, store: .sqlite(url), clock: .manual(ManualClock()))
            for number in 0..<25 { _ = dedupe.receiveEmit(pushID: "msg-\(number)") }
        }
        #expect(fileBytes(url.path)?.prefix(16).elementsEqual("SQLite format 3\0".utf8) == true)
        guard FileManager.default.isExecutableFile(atPath: Self.sqlite3) else { return }
        #expect(try Self.query(url, "SELECT count(*) FROM consumed;") == "25")
        #expect(try Self.query(url, "PRAGMA journal_mode;") == "wal")
        #expect(try Self.query(url, "PRAGMA integrity_check;") == "ok")
        let first = EnvelopeID(token: "msg-0")
        #expect(try Self.query(url, "SELECT count(*) FROM consumed WHERE high = \(Int64(bitPattern: first.high)) AND low = \(Int64(bitPattern: first.low));") == "1")
    }

    static func query(_ url: URL, _ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: sqlite3)
        process.arguments = [url.path, sql]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
