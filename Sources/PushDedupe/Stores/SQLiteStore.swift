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
///   statement; a busy database is waited for up to a second. A store whose database another
///   store moved aside reopens the one at the path before it writes.
/// - **Verified before written.** Every connection checks, before anything writes, the version
///   (in the header's `user_version` and in the checksummed `meta` table, which must agree), the
///   tables' columns and `PRAGMA quick_check`; only then does it set WAL mode, create, migrate
///   a version 1 database or insert. Each row carries a checksum of its id, so a flipped bit
///   never reads as an id.
/// - **Compaction.** At every `retained`-th row the table has ever held (its row ids are shared by
///   every process and launch), all but the newest rows are deleted, keeping the largest
///   `retained` of the stores sharing the file (`meta`). A checkpoint every 128 pages and
///   `journal_size_limit` keep the log short.
/// - **Order.** `INSERT OR REPLACE`, not `OR IGNORE`: an id the set forgot and consumed again
///   moves to the newest row, so a restore rebuilds the set in the order it consumed, and
///   compaction keeps what the set keeps.
/// - **Recovery.** A database that fails verification, or that SQLite calls corrupt or not a
///   database (at a load or at an insert), is moved aside with its `-wal` and `-shm` files, and
///   the rows whose checksums hold are salvaged into a new one. Rows that fail theirs are skipped
///   after the database is copied aside once. A newer version's database, and anything but a
///   regular file at the path, are left untouched; a failure to read now is transient. A
///   snapshot file at the path (an earlier version's store) is handed back for migration.
///
/// The database is the system library: `libsqlite3` on Linux, the SDK's `SQLite3` on Apple
/// platforms.
public final class SQLiteStore: ConsumedStore, @unchecked Sendable {
    public static let designID = "sqlite"
    /// The schema version, in `PRAGMA user_version` and in the `meta` table's `version` row.
    static let schemaVersion = 2
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
    public var bytesWritten: Int { closedConnectionBytes + (connection.map { Self.writtenBytes($0.database, pageSize: pageSize) } ?? 0) }

    let fileSystem: _StoreFileSystem
    /// The verified database, open; `nil` until one is.
    private var connection: Connection?
    private var pageSize = 4096
    private var closedConnectionBytes = 0
    private var newerVersion: Int?
    /// The largest `retained` of the stores sharing the database, as its `meta` table records it.
    private var sharedRetained: Int
    /// What the last ``load()`` read: what ``replace(with:snapshot:)`` and ``moveAside(reason:)``
    /// may replace.
    private var read: _StoreRead = .unread
    /// The rows the last load read from a database (none for no file), or `nil` when it read
    /// anything else: what a replace of the rows expects to find.
    private var loadedRows: [EnvelopeID]?
    /// Whether the last load failed (an I/O error, a lock, Data Protection, a repair that could
    /// not write): appends wait for the next load that reads the database.
    private var lastLoadFailed = false

    /// A database that passed verification.
    private struct Connection {
        let database: OpaquePointer
        let insert: OpaquePointer
        /// The file SQLite opened: before each write the path must still name it.
        let file: FileIdentity
    }

    private struct FileIdentity: Equatable {
        let device: UInt64
        let inode: UInt64
    }

    /// What verification found.
    private enum Verification {
        case verified(Connection)
        /// The file itself is bad: it is moved aside.
        case damaged(reason: String)
    }

    private enum Layout {
        /// No tables yet: a new database.
        case empty
        /// Version 1: rows without checksums, no `meta` table.
        case firstVersion
        case current
    }

    public init(
        url: URL, retained: Int, durability: StoreDurability = .processKill,
        protection: StoreFileProtection = .completeUntilFirstUserAuthentication, faults: StoreFaults? = nil
    ) {
        path = url.path
        self.retained = max(1, retained)
        sharedRetained = self.retained
        self.durability = durability
        fileSystem = _StoreFileSystem(faults: faults, protection: protection)
    }

    deinit { closeConnection() }

    // MARK: - The protocol

    public func load() throws(StoreError) -> StoreLoad {
        do throws(StoreError) {
            let load = try loadVerifying()
            lastLoadFailed = false
            return load
        } catch {
            // (A newer version's file, or no regular file, refuses every write on its own.)
            lastLoadFailed = error.kind != .notARegularFile
            throw error
        }
    }

    private func loadVerifying() throws(StoreError) -> StoreLoad {
        fileSystem.removeStaleTemporaries(of: path)
        for _ in 0..<_StoreRead.attempts {
            // The connection is closed before the file is read: closing any descriptor of the
            // database drops the process's POSIX locks on it, SQLite's included.
            closeConnection()
            loadedRows = nil
            guard let (bytes, version) = try fileSystem.contents(of: path, locked: true) else {
                read = .absent
                loadedRows = []
                return StoreLoad(.nothing)
            }
            read = .present(version)
            if bytes.starts(with: _SnapshotFormat.magic) { return StoreLoad(.snapshot(bytes)) }
            do throws(StoreError) {
                if !bytes.isEmpty && !bytes.starts(with: Self.databaseMagic) {
                    return StoreLoad(.nothing, repairs: [try moveAsideWithLog(expecting: version, reason: "not a SQLite database")])
                }
                switch try openVerified(reading: true, read: bytes) {
                case .damaged(let reason):
                    return try quarantine(expecting: version, reason: reason, reading: true)
                case .verified(let opened):
                    connection = opened
                    do throws(StoreError) {
                        return try readRows(opened, read: bytes)
                    } catch where Self.isDamage(error) {
                        return try quarantine(expecting: version, reason: error.reason, reading: true)
                    }
                }
            } catch where error.kind == .changedSinceRead {
                continue
            }
        }
        throw _StoreRead.keptChanging(path)
    }

    public func append(_ ids: [EnvelopeID], snapshot: () -> [UInt8]) throws(StoreError) {
        guard !ids.isEmpty else { return }
        // An insert may rewrite a page of rows the load could not check: nothing is written to
        // a database until a load reads it (the deduplicator keeps the ids and writes them then).
        if lastLoadFailed {
            throw StoreError(
                path: path, kind: .unreadable(errno: EAGAIN),
                reason: "the database could not be read at the last load; nothing is written to it until a load reads it")
        }
        var connection = try writableConnection()
        do throws(StoreError) {
            try insert(ids, connection, checkingEach: true)
        } catch where Self.isDamage(error) {
            // The database went bad after it verified: it is moved aside and the ids go to a new
            // one with what it salvaged, so this save and every later one work.
            closeConnection()
            if Self.identity(path) == connection.file, let current = try fileSystem.contents(of: path, locked: true) {
                do throws(StoreError) {
                    _ = try quarantine(expecting: current.version, reason: error.reason, reading: false)
                } catch where error.kind == .changedSinceRead {}
            }
            connection = try writableConnection()
            try insert(ids, connection, checkingEach: true)
        }
        let lastRow = Int(sqlite3_last_insert_rowid(connection.database))
        if lastRow / sharedRetained != (lastRow - ids.count) / sharedRetained {
            // The ids are committed; a compaction that fails is made up at the next one. One
            // statement reads the shared capacity and deletes, so a larger one recorded by
            // another store meanwhile is kept.
            let kept = "SELECT seq FROM consumed ORDER BY seq DESC LIMIT max(\(sharedRetained), ifnull((SELECT value FROM meta WHERE key = 'retained'), 0))"
            if (try? execute(connection.database, "DELETE FROM consumed WHERE seq NOT IN (\(kept))", reading: false)) != nil { compactions += 1 }
        }
    }

    /// Replaces what the last ``load()`` read: an earlier version's snapshot is migrated into a
    /// database renamed over it; a database's rows are replaced in one transaction. Either only
    /// if no other store changed them since the load (for the rows: compared inside the
    /// transaction, under SQLite's write lock), else `.changedSinceRead`.
    public func replace(with ids: [EnvelopeID], snapshot: () -> [UInt8]) throws(StoreError) {
        if let newerVersion { throw newerVersionError(newerVersion) }
        _ = try read.expected(path)
        guard let expectedRows = loadedRows else {
            try migrate(ids)
            return
        }
        let connection = try writableConnection()
        try transaction(connection.database, reading: false) { () throws(StoreError) in
            var rows: [EnvelopeID] = []
            try query(connection.database, "SELECT high, low FROM consumed ORDER BY seq", reading: false) { rows.append(Self.id($0, high: 0)) }
            guard rows == expectedRows else { throw _StoreFileSystem.changedSinceRead(path) }
            try execute(connection.database, "DELETE FROM consumed", reading: false)
            try insertRows(ids, connection.database, connection.insert)
        }
        read = .unread
        loadedRows = nil
    }

    public func moveAside(reason: String) throws(StoreError) -> StoreRepair {
        closeConnection()
        let repair = try moveAsideWithLog(expecting: try read.existing(path), reason: reason)
        read = .unread
        return repair
    }

    // MARK: - Verification

    /// Opens the database at the path (creating an empty one when there is none) and verifies
    /// it before anything writes: then sets WAL mode, creates or migrates the schema, records
    /// this store's capacity and prepares the insert.
    ///
    /// - Throws: transient errors as unreadable (`reading`) or unwritable; `.newerVersion` for a
    ///   newer version's database, left untouched; `.notARegularFile`.
    private func openVerified(reading: Bool, read original: [UInt8]? = nil) throws(StoreError) -> Verification {
        // Our own open refuses a symbolic link, a fifo or a directory before SQLite sees the
        // path, without waiting on a fifo; it also creates the file with the protection class.
        guard let descriptor = try fileSystem.open(path, flags: O_RDWR | O_CREAT, reading: reading) else {
            throw _StoreFileSystem.changedSinceRead(path)
        }
        var info = stat()
        let created = fstat(descriptor, &info) == 0 && info.st_size == 0
        close(descriptor)
        if created { try fileSystem.applyProtection(path) }
        let opened = try openHandle(path, reading: reading)
        do throws(StoreError) {
            guard let identity = Self.identity(path), identity == FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)) else {
                throw _StoreFileSystem.changedSinceRead(path)
            }
            try execute(opened, Self.connectionSettings(durability), reading: reading)
            try fileSystem.check(.read, path, reading: true)
            let layout: Layout
            switch try verify(opened, reading: reading) {
            case .success(let found): layout = found
            case .failure(let damage):
                sqlite3_close(opened)
                return .damaged(reason: damage.reason)
            }
            // A load keeps the file as it read it aside before this connection writes anything
            // (WAL mode, a checkpoint at close) when a row fails its checksum: the evidence,
            // once, whatever happens to the repair after.
            if let original, case .current = layout, try hasDamagedRows(opened, reading: reading) {
                _ = try fileSystem.copyAside(path, bytes: original)
            }
            try execute(opened, "PRAGMA journal_mode=WAL", reading: reading)
            switch layout {
            case .empty: try create(opened, reading: reading)
            case .firstVersion: try migrateFirstVersion(opened, reading: reading)
            case .current: break
            }
            try recordRetained(opened, reading: reading)
            pageSize = max(512, try integer(opened, "PRAGMA page_size", reading: reading))
            let insert = try prepareInsert(opened, reading: reading)
            return .verified(Connection(database: opened, insert: insert, file: identity))
        } catch where Self.isDamage(error) {
            closedConnectionBytes += Self.writtenBytes(opened, pageSize: pageSize)
            sqlite3_close(opened)
            return .damaged(reason: error.reason)
        } catch {
            closedConnectionBytes += Self.writtenBytes(opened, pageSize: pageSize)
            sqlite3_close(opened)
            throw error
        }
    }

    /// Whether a row of the `consumed` table fails its checksum. Reads only.
    private func hasDamagedRows(_ database: OpaquePointer, reading: Bool) throws(StoreError) -> Bool {
        var damaged = false
        try query(database, "SELECT high, low, checksum FROM consumed", reading: reading) { row in
            if sqlite3_column_int64(row, 2) != Self.checksum(Self.id(row, high: 0)) { damaged = true }
        }
        return damaged
    }

    private struct Damage: Error {
        var reason: String
    }

    /// The layout of a database that reads cleanly, or why it is damaged. Reads only.
    private func verify(_ database: OpaquePointer, reading: Bool) throws(StoreError) -> Result<Layout, Damage> {
        let headerVersion = try integer(database, "PRAGMA user_version", reading: reading)
        let tables = Set(try strings(database, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'", reading: reading))
        if headerVersion == 0 && tables.isEmpty { return .success(.empty) }
        var metaVersion: Int?
        if tables.contains("meta") {
            guard try columns(database, "meta", reading: reading) == ["key", "value", "checksum"] else {
                return .failure(Damage(reason: "the meta table is not this version's"))
            }
            var failed = false
            try query(database, "SELECT key, value, checksum FROM meta", reading: reading) { row in
                let key = sqlite3_column_text(row, 0).map { String(cString: $0) } ?? ""
                let value = sqlite3_column_int64(row, 1)
                guard sqlite3_column_int64(row, 2) == Self.checksum(key: key, value: value) else {
                    failed = true
                    return
                }
                if key == "version" { metaVersion = Int(value) }
            }
            if failed { return .failure(Damage(reason: "a meta row fails its checksum")) }
        }
        // A newer version only when the header and the checksummed row agree: a flipped bit in
        // the header alone is damage, not a reason to leave the store unwritten for good.
        if headerVersion > Self.schemaVersion, metaVersion == headerVersion {
            newerVersion = headerVersion
            throw newerVersionError(headerVersion)
        }
        let layout: Layout
        let expectedColumns: [String]
        // Version 1 wrote its table and its `user_version` in two transactions: 0 is version 1.
        if headerVersion <= 1 && metaVersion == nil && tables == ["consumed"] {
            (layout, expectedColumns) = (.firstVersion, ["seq", "high", "low"])
        } else if headerVersion == Self.schemaVersion && metaVersion == Self.schemaVersion && tables == ["consumed", "meta"] {
            (layout, expectedColumns) = (.current, ["seq", "high", "low", "checksum"])
        } else {
            let recorded = metaVersion.map(String.init) ?? "none"
            return .failure(Damage(reason: "version \(headerVersion) in the header and \(recorded) in the meta table, tables \(tables.sorted()): not a database this version reads"))
        }
        guard try columns(database, "consumed", reading: reading) == expectedColumns else {
            return .failure(Damage(reason: "the consumed table's columns are not version \(headerVersion)'s"))
        }
        let check = try strings(database, "PRAGMA quick_check", reading: reading)
        guard check == ["ok"] else { return .failure(Damage(reason: "quick_check: \(check.first ?? "no result")")) }
        return .success(layout)
    }

    /// The tables and the version of a new database, in one transaction (another store may be
    /// creating them too).
    private func create(_ database: OpaquePointer, reading: Bool) throws(StoreError) {
        try transaction(database, reading: reading) { () throws(StoreError) in
            try execute(database, """
                CREATE TABLE IF NOT EXISTS consumed(seq INTEGER PRIMARY KEY AUTOINCREMENT, high INTEGER NOT NULL, \
                low INTEGER NOT NULL, checksum INTEGER NOT NULL DEFAULT 0, UNIQUE(high, low)); \
                CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value INTEGER NOT NULL, checksum INTEGER NOT NULL); \
                INSERT OR IGNORE INTO meta VALUES('version', \(Self.schemaVersion), \(Self.checksum(key: "version", value: Int64(Self.schemaVersion)))); \
                PRAGMA user_version=\(Self.schemaVersion)
                """, reading: reading)
        }
    }

    /// Adds a checksum to every row of a version 1 database (which passed `quick_check`) and
    /// its `meta` table, in one transaction; nothing when another store migrated it first.
    private func migrateFirstVersion(_ database: OpaquePointer, reading: Bool) throws(StoreError) {
        try transaction(database, reading: reading) { () throws(StoreError) in
            guard try integer(database, "PRAGMA user_version", reading: reading) <= 1 else { return }
            try execute(database, "ALTER TABLE consumed ADD COLUMN checksum INTEGER NOT NULL DEFAULT 0", reading: reading)
            var rows: [(seq: Int64, checksum: Int64)] = []
            try query(database, "SELECT seq, high, low FROM consumed", reading: reading) { row in
                rows.append((sqlite3_column_int64(row, 0), Self.checksum(Self.id(row, high: 1))))
            }
            var update: OpaquePointer?
            let prepared = sqlite3_prepare_v2(database, "UPDATE consumed SET checksum = ? WHERE seq = ?", -1, &update, nil)
            defer { sqlite3_finalize(update) }
            guard prepared == SQLITE_OK else { throw failure(prepared, database, "prepare the migration", reading: reading) }
            for row in rows {
                sqlite3_reset(update)
                sqlite3_bind_int64(update, 1, row.checksum)
                sqlite3_bind_int64(update, 2, row.seq)
                let result = sqlite3_step(update)
                guard result == SQLITE_DONE else { throw failure(result, database, "migrate a row", reading: reading) }
            }
            try execute(database, """
                CREATE TABLE meta(key TEXT PRIMARY KEY, value INTEGER NOT NULL, checksum INTEGER NOT NULL); \
                INSERT INTO meta VALUES('version', \(Self.schemaVersion), \(Self.checksum(key: "version", value: Int64(Self.schemaVersion)))); \
                PRAGMA user_version=\(Self.schemaVersion)
                """, reading: reading)
        }
    }

    /// Raises the capacity the database records to this store's, so that a store with a
    /// smaller set (the extension) never compacts away the larger one's older ids.
    private func recordRetained(_ database: OpaquePointer, reading: Bool) throws(StoreError) {
        if let recorded = try recordedRetained(database, reading: reading), recorded >= retained {
            sharedRetained = max(retained, recorded)
            return
        }
        try transaction(database, reading: reading) { () throws(StoreError) in
            let recorded = try recordedRetained(database, reading: reading) ?? 0
            sharedRetained = max(retained, recorded)
            guard recorded < retained else { return }
            try execute(database, """
                INSERT OR REPLACE INTO meta VALUES('retained', \(retained), \(Self.checksum(key: "retained", value: Int64(retained))))
                """, reading: reading)
        }
    }

    private func recordedRetained(_ database: OpaquePointer, reading: Bool) throws(StoreError) -> Int? {
        var recorded: Int?
        try query(database, "SELECT value, checksum FROM meta WHERE key = 'retained'", reading: reading) { row in
            let value = sqlite3_column_int64(row, 0)
            if sqlite3_column_int64(row, 1) == Self.checksum(key: "retained", value: value) { recorded = Int(value) }
        }
        return recorded
    }

    // MARK: - Reading and repairing

    /// The rows whose checksums hold, oldest first. Rows that fail theirs are never returned:
    /// the database is copied aside once, then they are deleted.
    private func readRows(_ opened: Connection, read original: [UInt8]) throws(StoreError) -> StoreLoad {
        var ids: [EnvelopeID] = []
        var damaged: [Int64] = []
        try query(opened.database, "SELECT seq, high, low, checksum FROM consumed ORDER BY seq", reading: true) { row in
            let id = Self.id(row, high: 1)
            if sqlite3_column_int64(row, 3) == Self.checksum(id) { ids.append(id) } else { damaged.append(sqlite3_column_int64(row, 0)) }
        }
        guard !damaged.isEmpty else {
            loadedRows = ids
            return StoreLoad(.ids(ids))
        }
        // The file as the load read it was copied aside before the connection wrote anything
        // (`openVerified`); closed first, so the copy's descriptor cannot drop SQLite's locks.
        closeConnection()
        let copy = try fileSystem.copyAside(path, bytes: original)
        let connection = try writableConnection()
        // The index still holds the ids as they were written: rebuilt from the rows first, or
        // SQLite finds the deletes' index entries missing.
        try transaction(connection.database, reading: true) { () throws(StoreError) in
            try execute(connection.database, "REINDEX consumed; DELETE FROM consumed WHERE seq IN (\(damaged.map(String.init).joined(separator: ",")))", reading: true)
        }
        loadedRows = ids
        return StoreLoad(.ids(ids), repairs: [.skippedDamagedRecords(count: damaged.count, copy: copy)])
    }

    /// Moves the damaged database the store read (`expected`) aside with its log, and writes
    /// the rows whose checksums hold (all of a version 1 table's) into a new database at the path.
    private func quarantine(expecting expected: _FileVersion, reason: String, reading: Bool) throws(StoreError) -> StoreLoad {
        closeConnection()
        let salvaged = salvage()
        let repair = try moveAsideWithLog(expecting: expected, reason: "\(reason); \(salvaged.count) row(s) salvaged")
        read = .unread
        guard case .verified(let fresh) = try openVerified(reading: reading) else {
            throw StoreError(path: path, kind: .corrupt, reason: "the database that replaced a damaged one did not verify")
        }
        connection = fresh
        try insert(salvaged, fresh, checkingEach: false)
        return StoreLoad(salvaged.isEmpty ? .nothing : .ids(salvaged), repairs: [repair])
    }

    /// What can still be read from a damaged database: its rows, oldest first, up to the first
    /// error, without those whose checksums fail. Nothing is written.
    private func salvage() -> [EnvelopeID] {
        guard let database = try? openHandle(path, reading: true) else { return [] }
        defer { sqlite3_close(database) }
        let checked = (try? columns(database, "consumed", reading: true))?.contains("checksum") ?? false
        var ids: [EnvelopeID] = []
        _ = try? query(database, "SELECT high, low\(checked ? ", checksum" : "") FROM consumed ORDER BY seq", reading: true) { row in
            let id = Self.id(row, high: 0)
            if !checked || sqlite3_column_int64(row, 2) == Self.checksum(id) { ids.append(id) }
        }
        return ids
    }

    /// Moves the file the store read aside (a compare-and-swap), then its `-wal` and `-shm` by
    /// name beside the copy.
    private func moveAsideWithLog(expecting expected: _FileVersion, reason: String) throws(StoreError) -> StoreRepair {
        let movedTo = try fileSystem.moveAside(path, expecting: expected)
        for suffix in ["-wal", "-shm"] where access(path + suffix, F_OK) == 0 {
            try fileSystem.rename(path + suffix, movedTo + suffix)
        }
        return .movedAside(movedTo: movedTo, reason: reason)
    }

    // MARK: - Writing

    /// The verified connection writes go through, reopened when another store moved the
    /// database aside; a damaged database found here is moved aside with its rows salvaged.
    /// A file at the path that is not a database is never written.
    private func writableConnection() throws(StoreError) -> Connection {
        if let newerVersion { throw newerVersionError(newerVersion) }
        for _ in 0..<_StoreRead.attempts {
            if let connection {
                if Self.identity(path) == connection.file { return connection }
                closeConnection()
            }
            let current = try fileSystem.contents(of: path, locked: true)
            if let bytes = current?.bytes, !bytes.isEmpty, !bytes.starts(with: Self.databaseMagic) {
                throw StoreError(path: path, kind: .corrupt, reason: "not a SQLite database; it is not written until it is read")
            }
            switch try openVerified(reading: false) {
            case .verified(let opened):
                connection = opened
            case .damaged(let reason):
                guard let current else { throw StoreError(path: path, kind: .corrupt, reason: reason) }
                do throws(StoreError) {
                    _ = try quarantine(expecting: current.version, reason: reason, reading: false)
                } catch where error.kind == .changedSinceRead {}
            }
        }
        throw _StoreRead.keptChanging(path)
    }

    /// Inserts `ids` in order, in one transaction when there are several; with `checkingEach`,
    /// each insert is a numbered write step.
    private func insert(_ ids: [EnvelopeID], _ connection: Connection, checkingEach: Bool) throws(StoreError) {
        guard !ids.isEmpty else { return }
        let database = connection.database
        if ids.count > 1 { try execute(database, "BEGIN IMMEDIATE", reading: false) }
        do throws(StoreError) {
            if checkingEach {
                for id in ids {
                    try fileSystem.check(.write, path)
                    try insertRow(id, database, connection.insert)
                }
            } else {
                try insertRows(ids, database, connection.insert)
            }
            if ids.count > 1 { try execute(database, "COMMIT", reading: false) }
        } catch {
            if ids.count > 1 { sqlite3_exec(database, "ROLLBACK", nil, nil, nil) }
            throw error
        }
    }

    private func insertRows(_ ids: [EnvelopeID], _ database: OpaquePointer, _ statement: OpaquePointer) throws(StoreError) {
        for id in ids { try insertRow(id, database, statement) }
    }

    private func insertRow(_ id: EnvelopeID, _ database: OpaquePointer, _ statement: OpaquePointer) throws(StoreError) {
        sqlite3_reset(statement)
        sqlite3_bind_int64(statement, 1, Int64(bitPattern: id.high))
        sqlite3_bind_int64(statement, 2, Int64(bitPattern: id.low))
        sqlite3_bind_int64(statement, 3, Self.checksum(id))
        let result = sqlite3_step(statement)
        guard result == SQLITE_DONE else { throw failure(result, database, "insert", reading: false) }
    }

    private func prepareInsert(_ database: OpaquePointer, reading: Bool) throws(StoreError) -> OpaquePointer {
        var statement: OpaquePointer?
        let prepared = sqlite3_prepare_v2(database, "INSERT OR REPLACE INTO consumed(high, low, checksum) VALUES(?, ?, ?)", -1, &statement, nil)
        guard prepared == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw failure(prepared, database, "prepare the insert", reading: reading)
        }
        return statement
    }

    /// Replaces the snapshot the last load read with a database of `ids`, built whole at a
    /// temporary of its own and renamed over the path only if the path still holds that
    /// snapshot; otherwise `.changedSinceRead`, and the deduplicator reads again.
    private func migrate(_ ids: [EnvelopeID]) throws(StoreError) {
        let expected = try read.existing(path)
        closeConnection()
        let temporary = try fileSystem.writeTemporary(beside: path, "migrating", [], durability: durability)
        defer { unlink(temporary) }
        try build(temporary, ids)
        try fileSystem.withBinding(path, expecting: expected) { _, _ throws(StoreError) in
            try fileSystem.publish(temporary, over: path, durability: durability)
        }
        read = .unread
    }

    /// Writes a whole database of `ids` into the empty file `temporary`, with no journal (the
    /// file is nobody's until it is renamed), so that closing it leaves no `-wal` or `-shm`
    /// behind; its first open at the path sets WAL mode.
    private func build(_ temporary: String, _ ids: [EnvelopeID]) throws(StoreError) {
        let database = try openHandle(temporary, reading: false)
        defer {
            closedConnectionBytes += Self.writtenBytes(database, pageSize: pageSize)
            sqlite3_close(database)
        }
        try execute(database, "PRAGMA journal_mode=OFF", reading: false)
        try create(database, reading: false)
        try recordRetained(database, reading: false)
        let insert = try prepareInsert(database, reading: false)
        defer { sqlite3_finalize(insert) }
        try transaction(database, reading: false) { () throws(StoreError) in try insertRows(ids, database, insert) }
        if durability == .powerLoss {
            guard let fd = try fileSystem.open(temporary, flags: O_RDONLY, reading: false) else { return }
            defer { close(fd) }
            try fileSystem.sync(fd, temporary)
        }
    }

    // MARK: - SQLite

    /// Opens `file` read-write without following a symbolic link or creating it.
    private func openHandle(_ file: String, reading: Bool) throws(StoreError) -> OpaquePointer {
        try fileSystem.check(.open, file, reading: reading)
        var handle: OpaquePointer?
        var flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_NOMUTEX
        #if canImport(Darwin)
        switch fileSystem.protection {
        case .completeUntilFirstUserAuthentication: flags |= SQLITE_OPEN_FILEPROTECTION_COMPLETEUNTILFIRSTUSERAUTHENTICATION
        case .complete: flags |= SQLITE_OPEN_FILEPROTECTION_COMPLETE
        case .completeUnlessOpen: flags |= SQLITE_OPEN_FILEPROTECTION_COMPLETEUNLESSOPEN
        case .none: flags |= SQLITE_OPEN_FILEPROTECTION_NONE
        }
        #endif
        let result = sqlite3_open_v2(file, &handle, flags, nil)
        guard result == SQLITE_OK, let handle else {
            let error = failure(result, handle, "open", reading: reading)
            sqlite3_close(handle)
            throw error
        }
        sqlite3_busy_timeout(handle, 1000)
        return handle
    }

    /// Settings of the connection alone: none writes the file.
    private static func connectionSettings(_ durability: StoreDurability) -> String {
        "PRAGMA synchronous=\(durability == .powerLoss ? "FULL" : "NORMAL"); PRAGMA wal_autocheckpoint=128; PRAGMA journal_size_limit=524288"
    }

    private func transaction(_ database: OpaquePointer, reading: Bool, _ body: () throws(StoreError) -> Void) throws(StoreError) {
        try execute(database, "BEGIN IMMEDIATE", reading: reading)
        do throws(StoreError) {
            try body()
            try execute(database, "COMMIT", reading: reading)
        } catch {
            sqlite3_exec(database, "ROLLBACK", nil, nil, nil)
            throw error
        }
    }

    private func closeConnection() {
        guard let connection else { return }
        closedConnectionBytes += Self.writtenBytes(connection.database, pageSize: pageSize)
        sqlite3_finalize(connection.insert)
        sqlite3_close(connection.database)
        self.connection = nil
    }

    /// Log bytes a connection wrote.
    private static func writtenBytes(_ database: OpaquePointer, pageSize: Int) -> Int {
        var pages: Int32 = 0
        var highwater: Int32 = 0
        sqlite3_db_status(database, SQLITE_DBSTATUS_CACHE_WRITE, &pages, &highwater, 0)
        return Int(pages) * (pageSize + 24)
    }

    /// The device and inode the path names, not following a link; `nil` when nothing is there.
    private static func identity(_ path: String) -> FileIdentity? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    private func execute(_ database: OpaquePointer, _ sql: String, reading: Bool) throws(StoreError) {
        let result = sqlite3_exec(database, sql, nil, nil, nil)
        guard result == SQLITE_OK else { throw failure(result, database, sql, reading: reading) }
    }

    private func integer(_ database: OpaquePointer, _ sql: String, reading: Bool) throws(StoreError) -> Int {
        var value = 0
        try query(database, sql, reading: reading) { value = Int(sqlite3_column_int64($0, 0)) }
        return value
    }

    private func strings(_ database: OpaquePointer, _ sql: String, reading: Bool) throws(StoreError) -> [String] {
        var values: [String] = []
        try query(database, sql, reading: reading) { row in values.append(sqlite3_column_text(row, 0).map { String(cString: $0) } ?? "") }
        return values
    }

    /// The table's column names in order; empty when there is no such table.
    private func columns(_ database: OpaquePointer, _ table: String, reading: Bool) throws(StoreError) -> [String] {
        var names: [String] = []
        try query(database, "PRAGMA table_info(\(table))", reading: reading) { row in
            names.append(sqlite3_column_text(row, 1).map { String(cString: $0) } ?? "")
        }
        return names
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

    /// A SQLite result as a store error: corruption as `.database`, which moves the file aside;
    /// the rest (busy, locked, cannot open, I/O, out of memory) as unreadable (while reading:
    /// transient) or unwritable, which changes nothing.
    private func failure(_ code: Int32, _ database: OpaquePointer?, _ operation: String, reading: Bool) -> StoreError {
        let message = database.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
        let primary = code & 0xff
        let kind: StoreError.Kind = primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB
            ? .database(code: primary)
            : reading ? .unreadable(errno: EIO) : .unwritable(errno: EIO)
        return StoreError(path: path, kind: kind, reason: "\(operation.prefix(40)) failed: \(message) (SQLite \(code))")
    }

    private static func isDamage(_ error: StoreError) -> Bool {
        if case .database = error.kind { return true }
        return false
    }

    private func newerVersionError(_ version: Int) -> StoreError {
        StoreError(
            path: path, kind: .newerVersion(found: version, supported: Self.schemaVersion),
            reason: "schema version \(version) is newer than \(Self.schemaVersion); the database is left untouched")
    }

    // MARK: - Checksums

    /// The id in the row's columns `high` and `high + 1`.
    private static func id(_ row: OpaquePointer, high: Int32) -> EnvelopeID {
        EnvelopeID(high: UInt64(bitPattern: sqlite3_column_int64(row, high)), low: UInt64(bitPattern: sqlite3_column_int64(row, high + 1)))
    }

    /// A row's checksum: FNV-1a 64 (deterministic across processes and launches, unlike
    /// `Hasher`) over the id's 16 bytes, little-endian.
    static func checksum(_ id: EnvelopeID) -> Int64 {
        var hash = DeterministicHashing.fnvOffsetBasis
        for word in [id.high, id.low] {
            for shift in stride(from: 0, to: 64, by: 8) { hash = (hash ^ ((word >> UInt64(shift)) & 0xff)) &* DeterministicHashing.fnvPrime }
        }
        return Int64(bitPattern: DeterministicHashing.mix64(hash))
    }

    /// Marks the database at `url` as written by schema `version`, as a later library would
    /// (the header's `user_version` and the checksummed `meta` row agree): for the bench's damage
    /// matrix, which checks that such a file is left untouched.
    @_spi(StoreLab)
    public static func markSchemaVersion(_ version: Int, ofDatabaseAt url: URL) throws(StoreError) {
        var handle: OpaquePointer?
        defer { sqlite3_close(handle) }
        let sql = "UPDATE meta SET value = \(version), checksum = \(checksum(key: "version", value: Int64(version))) WHERE key = 'version'; "
            + "PRAGMA user_version = \(version)"
        guard sqlite3_open_v2(url.path, &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK,
              sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK, sqlite3_changes(handle) == 1
        else {
            throw StoreError(path: url.path, kind: .unwritable(errno: EIO), reason: "cannot mark schema version \(version)")
        }
    }

    /// A `meta` row's checksum: FNV-1a 64 over the key's UTF-8 and the value's 8 bytes.
    static func checksum(key: String, value: Int64) -> Int64 {
        let bytes = Array(key.utf8) + withUnsafeBytes(of: value.littleEndian) { Array($0) }
        return Int64(bitPattern: DeterministicHashing.fnv1a64(bytes, seed: 0x6d65_7461))
    }
}
