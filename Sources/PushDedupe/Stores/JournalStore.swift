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
///   1)` records, and the folder stays small. The header records the largest `retained` of any
///   store sharing the file, and every compaction keeps that many: an extension with a smaller
///   set never compacts away the app's older ids.
/// - **Two processes** (the app and its Notification Service Extension in one App Group) append
///   to one file: the lock makes each append and each compaction whole, and an appender whose
///   file was renamed over (it has no link left) reopens the new one before writing. The lock is
///   held for one system call, never while the app can be suspended.
/// - **Recovery** replays every whole record whose checksum holds, in order. A torn tail (a write
///   a kill interrupted, never acknowledged) is cut off; damaged records in the middle are
///   skipped after the file is copied aside (once per distinct damaged file); a header it
///   cannot read is copied aside and the valid records are salvaged into a new journal renamed
///   over it, if no other store changed it since the read; a newer version's file, and
///   anything but a regular file at the path, are left untouched.
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
    /// The largest `retained` of the stores sharing the file, as its header records it.
    private var sharedRetained: Int
    /// What the last ``load()`` read: what ``replace(with:snapshot:)`` and
    /// ``moveAside(reason:)`` may replace.
    private var read: _StoreRead = .unread
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
        sharedRetained = self.retained
        self.durability = durability
        self.compactionFactor = max(2, compactionFactor)
        fileSystem = _StoreFileSystem(faults: faults, protection: protection)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    public func load() throws(StoreError) -> StoreLoad {
        try fileSystem.load(path, locked: true) { contents throws(StoreError) in
            guard let (bytes, version) = contents else {
                read = .absent
                return StoreLoad(.nothing)
            }
            read = .present(version)
            switch bytes.withUnsafeBytes({ _JournalFormat.readHeader($0, magic: _JournalFormat.magic) }) {
            case .newer(let version):
                newerVersion = (version, Int(_JournalFormat.version))
                throw StoreError(
                    path: path, kind: .newerVersion(found: version, supported: Int(_JournalFormat.version)),
                    reason: "written by journal format version \(version); this library reads up to \(_JournalFormat.version), so the file is left untouched")
            case .invalid:
                if _SnapshotFormat.isFramed(bytes) { return StoreLoad(.snapshot(bytes)) }
                return try salvage(bytes, version)
            case .current(let recorded):
                sharedRetained = max(retained, recorded)
                return try recover(bytes)
            }
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
        // have been damaged after the fact): under the lock, the file is kept aside once, then
        // compacted, which keeps only whole valid records, so the next launch finds a clean
        // file. (Another store may have repaired it first: its copy is the one reported.)
        if damaged > 0 || tail >= _JournalFormat.recordSize {
            var copy = try compact(copyingDamageAside: true)
            if copy == nil { copy = try fileSystem.existingCopy(of: path, bytes: bytes) }
            guard let copy else { return StoreLoad(.ids(ids)) }
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
        if try fileSystem.isBound(fd, path), try fileSystem.status(fd, path).size == expectedSize {
            try fileSystem.truncate(fd, to: validEnd, path)
        }
    }

    /// A file whose header is unreadable: under its lock, if it is still the file that was
    /// read, copied aside, and the valid records it still holds written to a new journal renamed
    /// over it.
    private func salvage(_ bytes: [UInt8], _ version: _FileVersion) throws(StoreError) -> StoreLoad {
        let ids = bytes.count > _JournalFormat.headerSize
            ? bytes.withUnsafeBytes { _JournalFormat.records($0, from: _JournalFormat.headerSize, to: bytes.count).ids } : []
        closeDescriptor()
        let salvaged = journal(ids)
        let copy = try fileSystem.salvage(path, damaged: bytes, expecting: version, with: salvaged, durability: durability)
        bytesWritten += salvaged.count
        recordsInFile = ids.count
        read = .unread
        let reason = bytes.isEmpty ? "the file is empty" : "not a journal header; \(ids.count) valid record(s) salvaged"
        return StoreLoad(.ids(ids), repairs: [.movedAside(movedTo: copy, reason: reason)])
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
                    // Another store compacted or salvaged: a journal leaves the path only by
                    // being renamed over, so this descriptor's file is gone. Reopen.
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
        if recordsInFile >= compactionFactor * sharedRetained {
            // The ids are already recorded; a compaction that fails leaves the journal as it was
            // and is tried again at the next append.
            _ = try? compact(copyingDamageAside: false)
        }
    }

    /// Replaces the file the last ``load()`` read (an earlier version's snapshot) with a journal
    /// of `ids`, if no other store changed it since.
    public func replace(with ids: [EnvelopeID], snapshot: () -> [UInt8]) throws(StoreError) {
        try refuseNewerVersion()
        closeDescriptor()
        try fileSystem.replace(path, with: journal(ids), expecting: try read.expected(path), durability: durability)
        bytesWritten += _JournalFormat.headerSize + ids.count * _JournalFormat.recordSize
        recordsInFile = ids.count
        read = .unread
    }

    /// A whole journal of `ids`, its header recording the shared capacity.
    private func journal(_ ids: [EnvelopeID]) -> [UInt8] {
        var bytes = _JournalFormat.header(magic: _JournalFormat.magic, retained: sharedRetained)
        bytes += [UInt8](repeating: 0, count: ids.count * _JournalFormat.recordSize)
        bytes.withUnsafeMutableBytes { buffer in
            for (index, id) in ids.enumerated() {
                _JournalFormat.encode(id, into: buffer, at: _JournalFormat.headerSize + index * _JournalFormat.recordSize)
            }
        }
        return bytes
    }

    /// Keeps the newest distinct ids (as many as the largest set sharing the file retains), in a
    /// new file renamed over the journal under the lock, so no other store's append falls
    /// between the read and the rename. Damaged records are dropped, after the file is copied
    /// aside when `copyingDamageAside` (once per distinct damaged file: under the lock, a second
    /// store finds the first one's copy); returns the copy.
    @discardableResult
    func compact(copyingDamageAside: Bool) throws(StoreError) -> String? {
        let fd = try openForAppend()
        defer { closeDescriptor() }
        try fileSystem.lock(fd, LOCK_EX, path)
        guard try fileSystem.isBound(fd, path) else { return nil }
        let bytes = try fileSystem.readAll(fd, path)
        if case .current(let recorded) = bytes.withUnsafeBytes({ _JournalFormat.readHeader($0, magic: _JournalFormat.magic) }) {
            sharedRetained = max(sharedRetained, recorded)
        }
        let (ids, damaged, validEnd) = bytes.withUnsafeBytes { _JournalFormat.records($0, from: _JournalFormat.headerSize, to: bytes.count) }
        let hasDamage = damaged > 0 || bytes.count - validEnd >= _JournalFormat.recordSize
        let copy = copyingDamageAside && hasDamage ? try fileSystem.copyAside(path, bytes: bytes) : nil
        let kept = _JournalFormat.newestDistinct(ids, keep: sharedRetained)
        let compacted = journal(kept)
        let temporary = try fileSystem.writeTemporary(beside: path, "compacting", compacted, durability: durability)
        defer { unlink(temporary) }
        try fileSystem.publish(temporary, over: path, durability: durability)
        bytesWritten += compacted.count
        recordsInFile = kept.count
        compactions += 1
        return copy
    }

    public func moveAside(reason: String) throws(StoreError) -> StoreRepair {
        closeDescriptor()
        let movedTo = try fileSystem.moveAside(path, expecting: try read.existing(path))
        read = .unread
        return .movedAside(movedTo: movedTo, reason: reason)
    }

    private func refuseNewerVersion() throws(StoreError) {
        if let newerVersion {
            throw StoreError(
                path: path, kind: .newerVersion(found: newerVersion.found, supported: newerVersion.supported),
                reason: "written by journal format version \(newerVersion.found); left untouched")
        }
    }

    /// The descriptor appends go to, opening (and if need be creating) the journal. A file that
    /// is not a current journal is never appended to. A header that records a smaller capacity
    /// than this store's is raised to it, under the lock, before the first append.
    private func openForAppend() throws(StoreError) -> Int32 {
        if descriptor >= 0 { return descriptor }
        for _ in 0..<_StoreRead.attempts {
            guard let fd = try fileSystem.open(path, flags: O_RDWR | O_APPEND, reading: false, missingIsNil: true) else {
                try create()
                continue
            }
            do throws(StoreError) {
                let header = try fileSystem.readPrefix(fd, count: _JournalFormat.headerSize, path)
                guard case .current(let recorded) = header.withUnsafeBytes({ _JournalFormat.readHeader($0, magic: _JournalFormat.magic) }) else {
                    throw StoreError(path: path, kind: .corrupt, reason: "not a current journal; it is not appended to until it is read")
                }
                sharedRetained = max(sharedRetained, recorded)
                if recorded < retained { try recordRetained(fd) }
            } catch {
                close(fd)
                throw error
            }
            descriptor = fd
            return fd
        }
        throw _StoreRead.keptChanging(path)
    }

    /// Raises the capacity the header records to this store's, under the lock, with one
    /// `pwrite` of the header on a descriptor of its own (an `O_APPEND` one would append it).
    private func recordRetained(_ fd: Int32) throws(StoreError) {
        try fileSystem.lock(fd, LOCK_EX, path)
        defer { try? fileSystem.lock(fd, LOCK_UN, path) }
        guard try fileSystem.isBound(fd, path), let writer = try fileSystem.open(path, flags: O_RDWR, reading: false, missingIsNil: true) else { return }
        defer { close(writer) }
        let header = try fileSystem.readPrefix(writer, count: _JournalFormat.headerSize, path)
        guard case .current(let recorded) = header.withUnsafeBytes({ _JournalFormat.readHeader($0, magic: _JournalFormat.magic) }) else { return }
        sharedRetained = max(sharedRetained, recorded)
        guard recorded < sharedRetained else { return }
        try fileSystem.write(writer, _JournalFormat.header(magic: _JournalFormat.magic, retained: sharedRetained), at: 0, path)
        if durability == .powerLoss { try fileSystem.sync(writer, path) }
    }

    /// Creates the journal with its header, or finds another store created it first: the header
    /// goes to a temporary of its own, which `link(2)` names the journal only if no journal exists.
    private func create() throws(StoreError) {
        let header = _JournalFormat.header(magic: _JournalFormat.magic, retained: sharedRetained)
        let temporary = try fileSystem.writeTemporary(beside: path, "creating", header, durability: durability)
        defer { unlink(temporary) }
        if try fileSystem.link(temporary, path), durability == .powerLoss { try fileSystem.syncDirectory(of: path) }
    }

    private func closeDescriptor() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }
}
