import Foundation
@testable import PushDedupe
import Testing

#if canImport(SQLite3)
import SQLite3
#else
import CSQLite
#endif

/// The SQLite design against the store contract where a database can fail it: a file that does
/// not read cleanly, a flipped bit in a row or in the version, a newer version's file, damage an
/// insert finds, two launches migrating one snapshot, something other than a file at the path,
/// and two processes with different capacities.
@MainActor @Suite struct SQLiteContractTests {
    static let subject = StoreSubject(design: .sqlite, durability: .processKill)

    static func pushIDs(_ range: Range<Int>) -> [String] { range.map { "msg-\($0)" } }

    static func launch(_ url: URL, faults: StoreFaults? = nil) -> RecommendedPreset.V2MainActor {
        MainActorDeduplicator(preset: RecommendedPreset.v2, store: .sqlite(url, faults: faults), clock: .manual(ManualClock()))
    }

    static func consume(_ pushIDs: [String], _ dedupe: RecommendedPreset.V2MainActor) {
        for pushID in pushIDs { #expect(dedupe.receiveEmit(pushID: pushID) == .navigated, "\(pushID)") }
    }

    static func unknown(_ pushIDs: [String], _ dedupe: RecommendedPreset.V2MainActor) -> [String] {
        pushIDs.filter { !dedupe.pipeline.consumed.contains(EnvelopeID(token: $0)) }
    }

    /// A read that keeps failing: the restore waits, and no consume writes the database it could
    /// not read; the file is byte for byte as it was and no log appears.
    @Test func aDatabaseThatCannotBeReadIsNeverWritten() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.sqlite")
        Self.consume(Self.pushIDs(0..<5), Self.launch(url))
        let before = try #require(fileBytes(url.path))
        let listing = try folderListing(directory.url).map(\.name)
        do {
            let dedupe = Self.launch(url, faults: .failing(.read, errno: EIO))
            guard case .pending = dedupe.restoreOutcome else {
                Issue.record("\(dedupe.restoreOutcome)")
                return
            }
            Self.consume(Self.pushIDs(5..<8), dedupe)
            #expect(dedupe.counters.saves == 0 && dedupe.counters.failedSaves == 3, "\(dedupe.counters)")
            #expect(fileBytes(url.path) == before)
            #expect(try folderListing(directory.url).map(\.name) == listing, "a log appeared")
        }
        #expect(fileBytes(url.path) == before, "the unread database was written")
        #expect(Self.launch(url).restoreOutcome == .restored(ids: 5))
    }

    /// A database without its table is damaged, not unreadable for now: it is moved aside, and
    /// the store works again instead of waiting for good.
    @Test func aDatabaseWithoutItsTableIsMovedAside() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.sqlite")
        Self.consume(Self.pushIDs(0..<5), Self.launch(url))
        try executeSQL(url.path, "DROP TABLE consumed")
        let damaged = try #require(fileBytes(url.path))
        let dedupe = Self.launch(url)
        guard case .movedAside(.movedAside(let movedTo, _)) = dedupe.restoreOutcome else {
            Issue.record("\(dedupe.restoreOutcome)")
            return
        }
        #expect(movedTo == url.path + ".corrupt-1" && fileBytes(movedTo) == damaged)
        Self.consume(Self.pushIDs(5..<7), dedupe)
        #expect(dedupe.counters.saves == 2 && dedupe.counters.failedSaves == 0)
        #expect(Self.launch(url).restoreOutcome == .restored(ids: 2))
    }

    /// A bit flipped in a row's id (which `quick_check` cannot see) never restores as an id: the
    /// row fails its checksum, the database is copied aside once, and the row is deleted.
    @Test func aFlippedBitInARowNeverInventsAnID() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.sqlite")
        Self.consume(Self.pushIDs(0..<10), Self.launch(url))
        let flipped = EnvelopeID(token: "msg-3")
        let invented = EnvelopeID(high: flipped.high, low: flipped.low ^ 1)
        var bytes = try #require(fileBytes(url.path))
        let offset = try #require(tableLeafOffset(of: Int64(bitPattern: flipped.low), in: bytes), "the row is in the database file")
        bytes[offset + 7] ^= 1
        try writeFile(bytes, to: url)

        let dedupe = Self.launch(url)
        #expect(!dedupe.pipeline.consumed.contains(invented), "a flipped bit restored as an id")
        #expect(Self.unknown(Self.pushIDs(0..<10), dedupe) == ["msg-3"])
        #expect(dedupe.storeRepairs == [.skippedDamagedRecords(count: 1, copy: url.path + ".corrupt-1")], "\(dedupe.storeRepairs)")
        #expect(fileBytes(url.path + ".corrupt-1") == bytes)
        let next = Self.launch(url)
        #expect(next.restoreOutcome == .restored(ids: 9) && next.storeRepairs.isEmpty, "\(next.storeRepairs)")
        #expect(try corruptCopies(in: directory.url) == ["consumed.sqlite.corrupt-1"])
    }

    /// A version 1 database (no checksums) is read, and migrated once: every row gets its
    /// checksum, and the version is 2 in the header and in the meta table.
    @Test func aVersionOneDatabaseIsMigratedOnce() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.sqlite")
        let ids = Self.pushIDs(0..<6).map { EnvelopeID(token: $0) }
        try executeSQL(url.path, """
            PRAGMA journal_mode=WAL; CREATE TABLE consumed(seq INTEGER PRIMARY KEY AUTOINCREMENT, high INTEGER NOT NULL, \
            low INTEGER NOT NULL, UNIQUE(high, low)); PRAGMA user_version=1;
            """ + ids.map { "INSERT INTO consumed(high, low) VALUES(\(Int64(bitPattern: $0.high)), \(Int64(bitPattern: $0.low)));" }.joined())
        let dedupe = Self.launch(url)
        #expect(dedupe.restoreOutcome == .restored(ids: 6) && dedupe.storeRepairs.isEmpty, "\(dedupe.restoreOutcome)")
        Self.consume(Self.pushIDs(6..<7), dedupe)
        let rows = try queryIntegers(url.path, "SELECT high, low, checksum FROM consumed ORDER BY seq")
        #expect(rows.count == 7 && rows.allSatisfy { $0[2] == SQLiteStore.checksum(EnvelopeID(high: UInt64(bitPattern: $0[0]), low: UInt64(bitPattern: $0[1]))) })
        #expect(try queryIntegers(url.path, "PRAGMA user_version") == [[2]])
        #expect(try queryIntegers(url.path, "SELECT value FROM meta WHERE key = 'version'") == [[2]])
        let next = Self.launch(url)
        #expect(next.restoreOutcome == .restored(ids: 7) && next.storeRepairs.isEmpty)
        #expect(Self.unknown(Self.pushIDs(0..<7), next).isEmpty)
    }

    /// A newer version's database in rollback-journal mode stays byte for byte as it was through
    /// a load, a consume and a relaunch: no pragma writes it before its version is read.
    @Test func aNewerVersionsRollbackJournalDatabaseIsUntouched() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.sqlite")
        try executeSQL(url.path, """
            CREATE TABLE consumed(seq INTEGER PRIMARY KEY AUTOINCREMENT, high INTEGER NOT NULL, low INTEGER NOT NULL, \
            checksum INTEGER NOT NULL, UNIQUE(high, low)); \
            CREATE TABLE meta(key TEXT PRIMARY KEY, value INTEGER NOT NULL, checksum INTEGER NOT NULL); \
            INSERT INTO meta VALUES('version', 99, \(SQLiteStore.checksum(key: "version", value: 99))); PRAGMA user_version=99
            """)
        let bytes = try #require(fileBytes(url.path))
        #expect(bytes[18] == 1 && bytes[19] == 1, "rollback-journal mode")
        let listing = try folderListing(directory.url).map(\.name)
        do {
            let dedupe = Self.launch(url)
            let leftUntouched = if case .leftUntouched(let error) = dedupe.restoreOutcome, case .newerVersion(found: 99, _) = error.kind { true } else { false }
            #expect(leftUntouched, "\(dedupe.restoreOutcome)")
            Self.consume(Self.pushIDs(0..<1), dedupe)
        }
        #expect(Self.launch(url).counters.filesLeftUntouched == 1)
        #expect(fileBytes(url.path) == bytes, "the newer database changed")
        #expect(try folderListing(directory.url).map(\.name) == listing)
    }

    /// A flipped bit in the header's version field does not read as a newer version (the meta
    /// table disagrees): the database is moved aside, every row salvaged, and saves work.
    @Test func aFlippedBitInTheVersionFieldIsNotANewerVersion() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.sqlite")
        Self.consume(Self.pushIDs(0..<10), Self.launch(url))
        var bytes = try #require(fileBytes(url.path))
        bytes[63] ^= 0x40
        try writeFile(bytes, to: url)
        let dedupe = Self.launch(url)
        #expect(dedupe.restoreOutcome == .restored(ids: 10), "\(dedupe.restoreOutcome)")
        #expect(dedupe.counters.filesLeftUntouched == 0 && dedupe.counters.filesMovedAside == 1)
        #expect(fileBytes(url.path + ".corrupt-1") == bytes)
        Self.consume(Self.pushIDs(10..<11), dedupe)
        #expect(dedupe.counters.saves == 1 && dedupe.counters.failedSaves == 0)
        let next = Self.launch(url)
        #expect(next.restoreOutcome == .restored(ids: 11) && Self.unknown(Self.pushIDs(0..<11), next).isEmpty)
    }

    /// Damage an insert meets after the load verified the database (an index page overwritten
    /// under the open connection): the database is moved aside, its rows salvaged, and this
    /// save and the later ones land in a new one.
    @Test func damageAnInsertMeetsMovesTheDatabaseAside() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.sqlite")
        let dedupe = Self.launch(url)
        Self.consume(Self.pushIDs(0..<5), dedupe)
        let indexPage = try #require(try queryIntegers(url.path, "SELECT rootpage FROM sqlite_master WHERE type = 'index' AND tbl_name = 'consumed'").first?.first)
        // Checkpointed and the log restarted by another connection, so the store's connection
        // drops its cached pages and reads the damaged one from the file.
        try executeSQL(url.path, "PRAGMA wal_checkpoint(TRUNCATE)")
        let pageSize = try #require(try queryIntegers(url.path, "PRAGMA page_size").first?.first)
        let fd = open(url.path, O_WRONLY)
        #expect(fd >= 0)
        let garbage = [UInt8](repeating: 0xff, count: Int(pageSize))
        #expect(pwrite(fd, garbage, garbage.count, off_t((indexPage - 1) * pageSize)) == garbage.count)
        close(fd)

        Self.consume(Self.pushIDs(5..<7), dedupe)
        #expect(dedupe.counters.failedSaves == 0 && dedupe.counters.saves == 7, "\(dedupe.counters) \(String(describing: dedupe.lastStoreError))")
        #expect(try corruptCopies(in: directory.url).contains("consumed.sqlite.corrupt-1"))
        let next = Self.launch(url)
        #expect(next.restoreOutcome == .restored(ids: 7), "\(next.restoreOutcome)")
        #expect(Self.unknown(Self.pushIDs(0..<7), next).isEmpty)
    }

    /// A symbolic link, a fifo or a directory at the path is never opened by SQLite, followed,
    /// waited on or written: the load and the append refuse it as not a regular file.
    @Test func whatIsNotARegularFileIsNeverOpened() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let target = directory.file("target.sqlite")
        Self.consume(Self.pushIDs(0..<3), Self.launch(target))
        let targetBytes = try #require(fileBytes(target.path))
        let link = directory.file("link.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: target.path)
        let fifo = directory.file("fifo.sqlite")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let folder = directory.file("folder.sqlite")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        for url in [link, fifo, folder] {
            let store = try Self.subject.open(url, retained: 100)
            let finished = DispatchSemaphore(value: 0)
            let results = Failures()
            let shared = Shared([store])
            Thread.detachNewThread {
                for operation in ["load", "append"] {
                    do throws(StoreError) {
                        if operation == "load" { _ = try shared.value[0].load() } else { try shared.value[0].append([storeID(1)], snapshot: { [] }) }
                        results.add("\(operation) succeeded")
                    } catch {
                        if error.kind != .notARegularFile { results.add("\(operation): \(error)") }
                    }
                }
                finished.signal()
            }
            if finished.wait(timeout: .now() + 10) == .timedOut {
                Issue.record("\(url.lastPathComponent): the store waited on it")
                // Lets the waiting reader go.
                let writer = open(fifo.path, O_WRONLY | O_NONBLOCK)
                _ = write(writer, [UInt8](repeating: 0, count: 4096), 4096)
                close(writer)
                continue
            }
            #expect(results.all.isEmpty, "\(url.lastPathComponent): \(results.all)")
        }
        #expect(fileBytes(target.path) == targetBytes, "the link's target was written")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) == target.path)
        #expect(try folderListing(directory.url).map(\.name) == ["fifo.sqlite", "folder.sqlite", "link.sqlite", "target.sqlite"])
    }

    /// The extension's store, with a smaller set, shares the database with the app's: its
    /// compactions keep the app's capacity, which the database records, whoever created it.
    @Test func theSmallerSetsCompactionsKeepTheLargerSetsIDs() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("shared.sqlite")
        var model = StoreModel(retained: 100)
        var next = 0
        func append(_ store: any ConsumedStore, _ count: Int) throws {
            for _ in 0..<count {
                next += 1
                try store.append([storeID(next)], snapshot: { [] })
                model.append([storeID(next)])
            }
        }
        let fromExtension = try Self.subject.open(url, retained: 10)
        _ = try fromExtension.load()
        try append(fromExtension, 5)
        let app = try Self.subject.open(url, retained: 100)
        _ = try app.load()
        try append(app, 100)
        try append(fromExtension, 30)
        #expect(fromExtension.compactions > 0)
        let loaded = try loadedIDs(try Self.subject.open(url, retained: 100))
        #expect(StoreModel.newestDistinct(loaded, keep: 100) == model.kept, "held \(loaded.count): \(loaded.map(\.low))")
    }
}

/// The SQLite design's launches on other threads, as the app's and its extension's processes.
@Suite struct SQLiteMigrationRaceTests {
    /// Two launches migrate one `v2` snapshot at once, many times: one renames its database
    /// over the snapshot, the other finds the path changed and reads the database; no id is lost.
    @Test func twoLaunchesMigratingOneSnapshotLoseNoID() throws {
        let pushIDs = (0..<30).map { "msg-\($0)" }
        for round in 0..<20 {
            let directory = try StoreDirectory()
            defer { directory.remove() }
            let url = directory.file("consumed-routes.pdcs")
            let v2 = SharedDeduplicator(preset: RecommendedPreset.v2, store: .snapshot(url))
            for pushID in pushIDs { _ = v2.receiveEmit(pushID: pushID) }
            let outcomes = Failures()
            DispatchQueue.concurrentPerform(iterations: 2) { _ in
                let launched = SharedDeduplicator(preset: RecommendedPreset.v2, store: .sqlite(url), clock: .manual(ManualClock()))
                if !launched.restoreOutcome.isRestored { outcomes.add("\(launched.restoreOutcome)") }
            }
            #expect(outcomes.all.isEmpty, "round \(round): \(outcomes.all)")
            let next = SharedDeduplicator(preset: RecommendedPreset.v2, store: .sqlite(url), clock: .manual(ManualClock()))
            #expect(next.restoreOutcome == .restored(ids: 30), "round \(round): \(next.restoreOutcome)")
            #expect(pushIDs.allSatisfy { next.pipeline.consumed.contains(EnvelopeID(token: $0)) }, "round \(round)")
        }
    }
}

/// The offset of `value` as SQLite stores an 8-byte integer (big-endian) in a table's leaf page
/// (type 13) of the database `bytes`, not in an index's.
func tableLeafOffset(of value: Int64, in bytes: [UInt8]) -> Int? {
    let pattern = withUnsafeBytes(of: value.bigEndian) { Array($0) }
    let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
    for offset in 0...(bytes.count - pattern.count) where bytes[offset..<(offset + pattern.count)].elementsEqual(pattern) {
        let page = offset / pageSize * pageSize
        if bytes[page == 0 ? 100 : page] == 13 { return offset }
    }
    return nil
}

struct SQLFailure: Error, CustomStringConvertible {
    let description: String
}

/// Runs `sql` on the database at `path` with a connection of its own, closed on return.
func executeSQL(_ path: String, _ sql: String) throws {
    _ = try queryIntegers(path, sql)
}

/// The rows of `sql`'s last statement as integers, from a connection of its own.
func queryIntegers(_ path: String, _ sql: String) throws -> [[Int64]] {
    var database: OpaquePointer?
    guard sqlite3_open_v2(path, &database, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let database else {
        throw SQLFailure(description: "cannot open \(path)")
    }
    defer { sqlite3_close(database) }
    var rows: [[Int64]] = []
    var rest = sql
    while !rest.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
        var statement: OpaquePointer?
        var tail: UnsafePointer<CChar>?
        let remaining = rest.withCString { text -> String in
            guard sqlite3_prepare_v2(database, text, -1, &statement, &tail) == SQLITE_OK else { return "" }
            return tail.map { String(cString: $0) } ?? ""
        }
        guard let statement else {
            if remaining.isEmpty, sqlite3_errcode(database) != SQLITE_OK { throw SQLFailure(description: String(cString: sqlite3_errmsg(database))) }
            rest = remaining
            continue
        }
        defer { sqlite3_finalize(statement) }
        rows = []
        while true {
            let result = sqlite3_step(statement)
            if result == SQLITE_DONE { break }
            guard result == SQLITE_ROW else { throw SQLFailure(description: String(cString: sqlite3_errmsg(database))) }
            rows.append((0..<sqlite3_column_count(statement)).map { sqlite3_column_int64(statement, $0) })
        }
        rest = remaining
    }
    return rows
}
