import Foundation

/// An append-only journal of fixed-size, checksummed records: one `write(2)` per consume.
///
/// ```swift
/// let store = DedupeStore.journal(support.appendingPathComponent("consumed-routes.pdcs"))
/// ```
///
/// - **A consume** takes the file's lock (`flock`, exclusive), appends its 24-byte record with
///   one `write(2)` on an `O_APPEND` descriptor, and releases the lock: the record is in the
///   kernel when the call returns, which a kill of the process cannot undo. With
///   ``StoreDurability/powerLoss`` it is also flushed (`fdatasync`; `F_FULLFSYNC` on Apple
///   platforms) before the lock is released.
/// - **Compaction**: once the file holds `compactionFactor` × `retained` records, the newest
///   `retained` distinct ids are written to a new file that is renamed over the journal, under
///   the same lock. Bytes written per consume stay near `compactionFactor / (compactionFactor −
///   1)` records, and the folder stays small.
/// - **Two processes** (the app and its Notification Service Extension in one App Group) append
///   to one file: the lock makes each append and each compaction whole, and an appender whose
///   file was renamed over (it has no link left) reopens the new one before writing. The lock is
///   held for one system call, never while the app can be suspended.
/// - **Recovery** replays every whole record whose checksum holds, in order. A torn tail (a write
///   a kill interrupted, never acknowledged) is cut off; damaged records in the middle are
///   skipped after the file is copied aside; a header it cannot read is moved aside and the
///   valid records are salvaged into a new journal; a newer version's file is left untouched.
///
/// - Complexity: O(1) system calls per consume (lock, `fstat`, `write`, unlock), amortized O(1)
///   bytes of compaction per consume; O(file) to restore.
public final class JournalStore: ConsumedStore, @unchecked Sendable {
    public static let designID = "journal"
    /// The journal's path.
    public let path: String
    public let durability: StoreDurability
    /// Ids a compaction keeps: the consumed set's capacity.
    public let retained: Int
    /// Records the file may hold, as a multiple of `retained`, before it is compacted.
    public let compactionFactor: Int
    public var writesWholeState: Bool { false }
    public private(set) var bytesWritten = 0
    public private(set) var compactions = 0

    let fileSystem: _StoreFileSystem
    /// The open descriptor for appends, or -1.
    private var descriptor: Int32 = -1
    /// Records in the file as of the last append (other processes' included).
    private var recordsInFile = 0
    /// Set when the file turned out to be a newer version: nothing is written to it.
    private var newerVersion: (found: Int, supported: Int)?
    /// The encoded records of one append, reused.
    private var buffer: [UInt8] = []

    /// A journal at `url`, compacted to `retained` ids.
    ///
    /// - Parameters:
    ///   - compactionFactor: at least 2.
    ///   - faults: failure injection for tests; `nil` in an app.
    public init(
        url: URL, retained: Int, durability: StoreDurability = .processKill, compactionFactor: Int = 2,
        protection: StoreFileProtection = .completeUntilFirstUserAuthentication, faults: StoreFaults? = nil
    ) {
        path = url.path
        self.retained = max(1, retained)
        self.durability = durability
        self.compactionFactor = max(2, compactionFactor)
        fileSystem = _StoreFileSystem(faults: faults, protection: protection)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    public func load() throws(StoreError) -> StoreLoad {
        guard let bytes = try fileSystem.contents(of: path, locked: true) else { return StoreLoad(.nothing) }
        let header = bytes.withUnsafeBytes { _JournalFormat.readHeader($0, magic: _JournalFormat.magic) }
        switch header {
        case .newer(let version):
            newerVersion = (version, Int(_JournalFormat.version))
            throw StoreError(
                path: path, kind: .newerVersion(found: version, supported: Int(_JournalFormat.version)),
                reason: "written by journal format version \(version); this library reads up to \(_JournalFormat.version), so the file is left untouched")
        case .invalid:
            if bytes.starts(with: _SnapshotFormat.magic) { return StoreLoad(.snapshot(bytes)) }
            return try salvage(bytes)
        case .current:
            return try recover(bytes)
        }
    }

    /// A current journal's ids, after cutting a torn tail and copying damage aside.
    private func recover(_ bytes: [UInt8]) throws(StoreError) -> StoreLoad {
        let (ids, damaged, validEnd) = bytes.withUnsafeBytes {
            _JournalFormat.records($0, from: _JournalFormat.headerSize, to: bytes.count)
        }
        let tail = bytes.count - validEnd
        recordsInFile = ids.count
        // Damage in the middle, or a tail of a whole record or more (an acknowledged record may
        // have been damaged after the fact): the file is kept aside once, then compacted, which
        // keeps only whole valid records, so the next launch finds a clean file.
        if damaged > 0 || tail >= _JournalFormat.recordSize {
            let copy = try fileSystem.copyAside(path, bytes: bytes)
            try compact(copyingDamageAside: false)
            return StoreLoad(.ids(ids), repairs: [.skippedDamagedRecords(count: damaged + tail / _JournalFormat.recordSize, copy: copy)])
        }
        guard tail > 0 else { return StoreLoad(.ids(ids)) }
        try cutTail(expectedSize: bytes.count, to: validEnd)
        return StoreLoad(.ids(ids), repairs: [.truncatedTornTail(bytes: tail)])
    }

    /// Cuts the file back to `validEnd` under the lock, if it still has the size that was read
    /// (another process's append since then would have cut the tail already).
    private func cutTail(expectedSize: Int, to validEnd: Int) throws(StoreError) {
        guard let fd = try fileSystem.open(path, flags: O_RDWR, reading: false, missingIsNil: true) else { return }
        defer { close(fd) }
        try fileSystem.lock(fd, LOCK_EX, path)
        let status = try fileSystem.status(fd, path)
        if status.linked && status.size == expectedSize { try fileSystem.truncate(fd, to: validEnd, path) }
    }

    /// A file whose header is unreadable: moved aside, and the valid records it still holds
    /// written to a new journal.
    private func salvage(_ bytes: [UInt8]) throws(StoreError) -> StoreLoad {
        let ids = bytes.count > _JournalFormat.headerSize
            ? bytes.withUnsafeBytes { _JournalFormat.records($0, from: _JournalFormat.headerSize, to: bytes.count).ids } : []
        let movedTo = try fileSystem.moveAside(path)
        let reason = bytes.isEmpty ? "the file is empty" : "not a journal header; \(ids.count) valid record(s) salvaged"
        if !ids.isEmpty { try replace(with: ids, snapshot: { [] }) }
        return StoreLoad(.ids(ids), repairs: [.movedAside(movedTo: movedTo, reason: reason)])
    }

    public func append(_ ids: [EnvelopeID], snapshot: () -> [UInt8]) throws(StoreError) {
        guard !ids.isEmpty else { return }
        try refuseNewerVersion()
        let size = ids.count * _JournalFormat.recordSize
        if buffer.count != size { buffer = [UInt8](repeating: 0, count: size) }
        buffer.withUnsafeMutableBytes { bytes in
            for (index, id) in ids.enumerated() { _JournalFormat.encode(id, into: bytes, at: index * _JournalFormat.recordSize) }
        }
        var fileSize = 0
        while true {
            let fd = try openForAppend()
            do throws(StoreError) {
                try fileSystem.lock(fd, LOCK_EX, path)
                let status = try fileSystem.status(fd, path)
                guard status.linked else {
                    // Another process compacted: this descriptor's file is gone. Reopen.
                    closeDescriptor()
                    continue
                }
                // A partial record a killed or failed writer left would misalign every later one.
                let misaligned = (status.size - _JournalFormat.headerSize) % _JournalFormat.recordSize
                if misaligned != 0 { try fileSystem.truncate(fd, to: status.size - misaligned, path) }
                try fileSystem.write(fd, buffer, path)
                if durability == .powerLoss { try fileSystem.sync(fd, path) }
                try fileSystem.lock(fd, LOCK_UN, path)
                fileSize = status.size - misaligned + size
            } catch {
                // Closing releases the lock; the next append reopens.
                closeDescriptor()
                throw error
            }
            break
        }
        bytesWritten += size
        recordsInFile = (fileSize - _JournalFormat.headerSize) / _JournalFormat.recordSize
        if recordsInFile >= compactionFactor * retained {
            // The ids are already recorded; a compaction that fails leaves the journal as it was
            // and is tried again at the next append.
            try? compact(copyingDamageAside: true)
        }
    }

    public func replace(with ids: [EnvelopeID], snapshot: () -> [UInt8]) throws(StoreError) {
        try refuseNewerVersion()
        closeDescriptor()
        let lockFD = try fileSystem.open(path, flags: O_RDWR, reading: false, missingIsNil: true)
        defer { if let lockFD { close(lockFD) } }
        if let lockFD { try fileSystem.lock(lockFD, LOCK_EX, path) }
        try write(ids)
    }

    /// Writes a journal of `ids` over the file; the caller holds the lock, or there is no file.
    private func write(_ ids: [EnvelopeID]) throws(StoreError) {
        var bytes = _JournalFormat.header(magic: _JournalFormat.magic)
        bytes += [UInt8](repeating: 0, count: ids.count * _JournalFormat.recordSize)
        bytes.withUnsafeMutableBytes { buffer in
            for (index, id) in ids.enumerated() {
                _JournalFormat.encode(id, into: buffer, at: _JournalFormat.headerSize + index * _JournalFormat.recordSize)
            }
        }
        try fileSystem.replace(path, with: bytes, temporary: path + ".compacting", durability: durability)
        bytesWritten += bytes.count
        recordsInFile = ids.count
    }

    /// Keeps the newest `retained` distinct ids, in a new file renamed over the journal under the
    /// lock, so no other process's append falls between the read and the rename. Damaged records
    /// are dropped, after the file is copied aside when `copyingDamageAside`.
    func compact(copyingDamageAside: Bool) throws(StoreError) {
        let fd = try openForAppend()
        defer { closeDescriptor() }
        try fileSystem.lock(fd, LOCK_EX, path)
        guard try fileSystem.status(fd, path).linked else { return }
        let bytes = try fileSystem.readAll(fd, path)
        let (ids, damaged, _) = bytes.withUnsafeBytes {
            _JournalFormat.records($0, from: _JournalFormat.headerSize, to: bytes.count)
        }
        if damaged > 0 && copyingDamageAside { _ = try fileSystem.copyAside(path, bytes: bytes) }
        try write(_JournalFormat.newestDistinct(ids, keep: retained))
        compactions += 1
    }

    public func moveAside(reason: String) throws(StoreError) -> StoreRepair {
        closeDescriptor()
        return .movedAside(movedTo: try fileSystem.moveAside(path), reason: reason)
    }

    private func refuseNewerVersion() throws(StoreError) {
        if let newerVersion {
            throw StoreError(
                path: path, kind: .newerVersion(found: newerVersion.found, supported: newerVersion.supported),
                reason: "written by journal format version \(newerVersion.found); left untouched")
        }
    }

    /// The descriptor appends go to, opening (and if need be creating) the journal. A file that
    /// is not a current journal is never appended to.
    private func openForAppend() throws(StoreError) -> Int32 {
        if descriptor >= 0 { return descriptor }
        while true {
            if let fd = try fileSystem.open(path, flags: O_RDWR | O_APPEND, reading: false, missingIsNil: true) {
                let header: [UInt8]
                do throws(StoreError) {
                    header = try fileSystem.readPrefix(fd, count: _JournalFormat.headerSize, path)
                } catch {
                    close(fd)
                    throw error
                }
                guard header.withUnsafeBytes({ _JournalFormat.readHeader($0, magic: _JournalFormat.magic) }) == .current else {
                    close(fd)
                    throw StoreError(path: path, kind: .corrupt, reason: "not a current journal; it is not appended to until it is read")
                }
                descriptor = fd
                return fd
            }
            try create()
        }
    }

    /// Creates the journal with its header, or finds another process created it first: the
    /// header goes to a file of this process's own, which `link(2)` names the journal only if
    /// no journal exists.
    private func create() throws(StoreError) {
        let temporary = "\(path).creating-\(getpid())"
        try fileSystem.replace(temporary, with: _JournalFormat.header(magic: _JournalFormat.magic), temporary: temporary + ".tmp", durability: durability)
        defer { unlink(temporary) }
        if try fileSystem.link(temporary, path), durability == .powerLoss { try fileSystem.syncDirectory(of: path) }
    }

    private func closeDescriptor() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }
}
