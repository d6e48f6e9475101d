import Foundation

#if canImport(SQLite3)
import SQLite3
#else
import CSQLite
#endif

/// A WAL-mode SQLite database, the real-database peer of the journals: one insert keyed by the
/// id per consume.
///
/// ```swift
/// let store = DedupeStore.sqlite(support.appendingPathComponent("consumed-routes.sqlite"))
/// ```
///
/// - **Durability.** `journal_mode=WAL` with `synchronous=NORMAL`: a committed insert is in the
///   write-ahead log (in the kernel) when the call returns, which survives a kill of the process;
///   ``StoreDurability/powerLoss`` sets `synchronous=FULL`, which flushes the log at every commit
///   (SQLite's *Write-Ahead Logging* and `PRAGMA synchronous` documentation).
/// - **Two processes** share the database through SQLite's own locks, held only for one
///   statement; a busy database is waited for up to a second.
/// - **Compaction.** At every `retained`-th row the table has ever held (its row ids are shared by
///   every process and launch), all but the newest `retained` rows are deleted. A checkpoint
///   every 128 pages and `journal_size_limit` keep the log short.
/// - **Order.** `INSERT OR REPLACE`, not `OR IGNORE`: an id the set forgot and consumed again
///   moves to the newest row, so a restore rebuilds the set in the order it consumed, and
///   compaction keeps what the set keeps.
/// - **Recovery.** A database SQLite calls corrupt or not a database is moved aside (with its
///   `-wal` and `-shm` files); a `user_version` above this library's is left untouched; a
///   snapshot file at the path (an earlier version's store) is handed back for migration.
///
/// The database is the system library: `libsqlite3` on Linux, the SDK's `SQLite3` on Apple
/// platforms.
public final class SQLiteStore: ConsumedStore, @unchecked Sendable {
    public static let designID = "sqlite"
    /// The schema version in `PRAGMA user_version`.
    static let schemaVersion: Int32 = 1
    /// The first 16 bytes of every SQLite database file.
    static let databaseMagic = Array("SQLite format 3\0".utf8)
    public let path: String
    public let durability: StoreDurability
    public let retained: Int
    public var writesWholeState: Bool { false }
    public private(set) var compactions = 0

    /// Bytes written to the log: pages this store's connections wrote
    /// (`SQLITE_DBSTATUS_CACHE_WRITE`), each with its 24-byte frame header. Checkpoints copy the
    /// pages once more into the database file; that copy is not counted.
    public var bytesWritten: Int { closedConnectionBytes + connectionBytes() }

    let fileSystem: _StoreFileSystem
    private var database: OpaquePointer?
    private var insert: OpaquePointer?
    private var pageSize = 4096
    private var closedConnectionBytes = 0
    private var newerVersion: Int?
    /// What the last ``load()`` read: what ``moveAside(reason:)`` may move.
    private var read: _StoreRead = .unread

    public init(
        url: URL, retained: Int, durability: StoreDurability = .processKill,
        protection: StoreFileProtection = .completeUntilFirstUserAuthentication, faults: StoreFaults? = nil
    ) {
        path = url.path
        self.retained = max(1, retained)
        self.durability = durability
        fileSystem = _StoreFileSystem(faults: faults, protection: protection)
    }

    deinit { closeDatabase() }

    public func load() throws(StoreError) -> StoreLoad {
        guard let fd = try fileSystem.open(path, flags: O_RDONLY, reading: true, missingIsNil: true) else {
            return StoreLoad(.nothing)
        }
        // The first bytes tell a database from an earlier version's snapshot. The whole file is
        // read, so that a later move aside can check it is still the file that was read.
        var bytes: [UInt8]
        do throws(StoreError) {
            bytes = try fileSystem.readAll(fd, path)
            read = .present(try fileSystem.version(fd, path, bytes: bytes, reading: true))
        } catch {
            close(fd)
            throw error
        }
        close(fd)
        if bytes.starts(with: _SnapshotFormat.magic) { return StoreLoad(.snapshot(bytes)) }
        if !bytes.isEmpty && !bytes.starts(with: Self.databaseMagic) {
            return StoreLoad(.nothing, repairs: [try moveAside(reason: "not a SQLite database")])
        }
        do throws(StoreError) {
            let database = try openDatabase(reading: true)
            let version = try integer(database, "PRAGMA user_version", reading: true)
            if version > Int(Self.schemaVersion) {
                newerVersion = version
                closeDatabase()
                throw newerVersionError(version)
            }
            try fileSystem.check(.read, path, reading: true)
            var ids: [EnvelopeID] = []
            try query(database, "SELECT high, low FROM consumed ORDER BY seq", reading: true) { statement in
                ids.append(EnvelopeID(
                    high: UInt64(bitPattern: sqlite3_column_int64(statement, 0)),
                    low: UInt64(bitPattern: sqlite3_column_int64(statement, 1))))
            }
            return StoreLoad(.ids(ids))
        } catch let error where error.kind == .database(code: SQLITE_CORRUPT) || error.kind == .database(code: SQLITE_NOTADB) {
            closeDatabase()
            return StoreLoad(.nothing, repairs: [try moveAside(reason: error.reason)])
        }
    }

    public func append(_ ids: [EnvelopeID], snapshot: () -> [UInt8]) throws(StoreError) {
        guard !ids.isEmpty else { return }
        if let newerVersion { throw newerVersionError(newerVersion) }
        let database = try openDatabase(reading: false)
        if ids.count > 1 { try execute(database, "BEGIN IMMEDIATE") }
        do throws(StoreError) {
            for id in ids {
                try fileSystem.check(.write, path)
                try insert(id, database)
            }
            if ids.count > 1 { try execute(database, "COMMIT") }
        } catch {
            if ids.count > 1 { sqlite3_exec(database, "ROLLBACK", nil, nil, nil) }
            throw error
        }
        let lastRow = Int(sqlite3_last_insert_rowid(database))
        if lastRow / retained != (lastRow - ids.count) / retained {
            // The ids are committed; a compaction that fails is made up at the next one.
            let keep = "SELECT seq FROM consumed ORDER BY seq DESC LIMIT \(retained)"
            if (try? execute(database, "DELETE FROM consumed WHERE seq NOT IN (\(keep))")) != nil { compactions += 1 }
        }
    }

    public func replace(with ids: [EnvelopeID], snapshot: () -> [UInt8]) throws(StoreError) {
        if let newerVersion { throw newerVersionError(newerVersion) }
        // A file that is not a database (an earlier version's snapshot) is replaced by a new
        // database built beside it and renamed over it, so a kill leaves one or the other.
        let isDatabase = ((try? fileSystem.open(path, flags: O_RDONLY, reading: true, missingIsNil: true)) ?? nil).map { fd in
            defer { close(fd) }
            return (try? fileSystem.readPrefix(fd, count: Self.databaseMagic.count, path)) == Self.databaseMagic
        } ?? true
        if isDatabase {
            let database = try openDatabase(reading: false)
            try execute(database, "BEGIN IMMEDIATE")
            do throws(StoreError) {
                try execute(database, "DELETE FROM consumed")
                for id in ids { try insert(id, database) }
                try execute(database, "COMMIT")
            } catch {
                sqlite3_exec(database, "ROLLBACK", nil, nil, nil)
                throw error
            }
        } else {
            let temporary = path + ".migrating"
            for suffix in ["", "-wal", "-shm"] { unlink(temporary + suffix) }
            let built = SQLiteStore(url: URL(fileURLWithPath: temporary), retained: retained, durability: durability, faults: fileSystem.faults)
            try built.replace(with: ids, snapshot: snapshot)
            built.closeDatabase()
            try fileSystem.rename(temporary, path)
        }
    }

    private func insert(_ id: EnvelopeID, _ database: OpaquePointer) throws(StoreError) {
        sqlite3_reset(insert)
        sqlite3_bind_int64(insert, 1, Int64(bitPattern: id.high))
        sqlite3_bind_int64(insert, 2, Int64(bitPattern: id.low))
        let result = sqlite3_step(insert)
        guard result == SQLITE_DONE else { throw failure(result, database, "insert", reading: false) }
    }

    /// The open database, opening and (unless `reading`) creating it with its schema.
    private func openDatabase(reading: Bool) throws(StoreError) -> OpaquePointer {
        if let database { return database }
        try fileSystem.check(.open, path, reading: reading)
        let existed = access(path, F_OK) == 0
        var handle: OpaquePointer?
        var flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        #if canImport(Darwin)
        switch fileSystem.protection {
        case .completeUntilFirstUserAuthentication: flags |= SQLITE_OPEN_FILEPROTECTION_COMPLETEUNTILFIRSTUSERAUTHENTICATION
        case .complete: flags |= SQLITE_OPEN_FILEPROTECTION_COMPLETE
        case .completeUnlessOpen: flags |= SQLITE_OPEN_FILEPROTECTION_COMPLETEUNLESSOPEN
        case .none: flags |= SQLITE_OPEN_FILEPROTECTION_NONE
        }
        #endif
        let result = sqlite3_open_v2(path, &handle, flags, nil)
        guard result == SQLITE_OK, let handle else {
            let error = failure(result, handle, "open", reading: reading)
            sqlite3_close(handle)
            throw error
        }
        database = handle
        do throws(StoreError) {
            sqlite3_busy_timeout(handle, 1000)
            try execute(handle, "PRAGMA journal_mode=WAL", reading: reading)
            try execute(handle, durability == .powerLoss ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL", reading: reading)
            try execute(handle, "PRAGMA wal_autocheckpoint=128; PRAGMA journal_size_limit=524288", reading: reading)
            pageSize = max(512, try integer(handle, "PRAGMA page_size", reading: reading))
            let version = existed ? try integer(handle, "PRAGMA user_version", reading: reading) : 0
            if version == 0 {
                try execute(handle, """
                    CREATE TABLE IF NOT EXISTS consumed(seq INTEGER PRIMARY KEY AUTOINCREMENT, high INTEGER NOT NULL, \
                    low INTEGER NOT NULL, UNIQUE(high, low)); PRAGMA user_version=\(Self.schemaVersion)
                    """, reading: reading)
            }
            var statement: OpaquePointer?
            let prepared = sqlite3_prepare_v2(handle, "INSERT OR REPLACE INTO consumed(high, low) VALUES(?, ?)", -1, &statement, nil)
            guard prepared == SQLITE_OK else { throw failure(prepared, handle, "prepare", reading: reading) }
            insert = statement
        } catch {
            closeDatabase()
            throw error
        }
        return handle
    }

    /// Log bytes the open connection wrote.
    private func connectionBytes() -> Int {
        guard let database else { return 0 }
        var pages: Int32 = 0
        var highwater: Int32 = 0
        sqlite3_db_status(database, SQLITE_DBSTATUS_CACHE_WRITE, &pages, &highwater, 0)
        return Int(pages) * (pageSize + 24)
    }

    private func closeDatabase() {
        closedConnectionBytes += connectionBytes()
        sqlite3_finalize(insert)
        insert = nil
        sqlite3_close(database)
        database = nil
    }

    private func execute(_ database: OpaquePointer, _ sql: String, reading: Bool = false) throws(StoreError) {
        let result = sqlite3_exec(database, sql, nil, nil, nil)
        guard result == SQLITE_OK else { throw failure(result, database, sql, reading: reading) }
    }

    private func integer(_ database: OpaquePointer, _ sql: String, reading: Bool) throws(StoreError) -> Int {
        var value = 0
        try query(database, sql, reading: reading) { value = Int(sqlite3_column_int64($0, 0)) }
        return value
    }

    private func query(_ database: OpaquePointer, _ sql: String, reading: Bool, row: (OpaquePointer) -> Void) throws(StoreError) {
        var statement: OpaquePointer?
        let prepared = sqlite3_prepare_v2(database, sql, -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        guard prepared == SQLITE_OK, let statement else { throw failure(prepared, database, sql, reading: reading) }
        while true {
            let result = sqlite3_step(statement)
            if result == SQLITE_DONE { return }
            guard result == SQLITE_ROW else { throw failure(result, database, sql, reading: reading) }
            row(statement)
        }
    }

    /// A SQLite result as a store error: corruption as `.database`, the rest as unreadable
    /// (while reading: transient) or unwritable.
    private func failure(_ code: Int32, _ database: OpaquePointer?, _ operation: String, reading: Bool) -> StoreError {
        let message = database.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
        let primary = code & 0xff
        let kind: StoreError.Kind = primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB
            ? .database(code: primary)
            : reading ? .unreadable(errno: EIO) : .unwritable(errno: EIO)
        return StoreError(path: path, kind: kind, reason: "\(operation.prefix(40)) failed: \(message) (SQLite \(code))")
    }

    public func moveAside(reason: String) throws(StoreError) -> StoreRepair {
        closeDatabase()
        let movedTo = try fileSystem.moveAside(path, expecting: try read.existing(path))
        read = .unread
        for suffix in ["-wal", "-shm"] where access(path + suffix, F_OK) == 0 {
            try fileSystem.rename(path + suffix, movedTo + suffix)
        }
        return .movedAside(movedTo: movedTo, reason: reason)
    }

    private func newerVersionError(_ version: Int) -> StoreError {
        StoreError(
            path: path, kind: .newerVersion(found: version, supported: Int(Self.schemaVersion)),
            reason: "schema version \(version) is newer than \(Self.schemaVersion); the database is left untouched")
    }
}
