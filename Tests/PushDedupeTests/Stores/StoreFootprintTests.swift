import Foundation
@testable import PushDedupe
import Testing

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
