import Foundation

/// A journal in a shared memory map (MMKV's design): a consume copies its record into the
/// mapping, with no `write(2)`.
///
/// ```swift
/// let store = DedupeStore.mappedJournal(support.appendingPathComponent("consumed-routes.pdmj"))
/// ```
///
/// - **A consume** takes the file's lock (`flock`, exclusive: the app and its extension may map
///   the same file), copies its 24-byte record into the next free slot, then stores the new
///   count in the header, and releases the lock. The mapping is `MAP_SHARED`: the page cache
///   holds the bytes the moment they are copied, so a kill of the process cannot lose them.
///   With ``StoreDurability/powerLoss`` the touched pages are flushed (`msync(MS_SYNC)`).
/// - **The count commits.** A kill between the copy and the count leaves a record no count
///   covers, from a consume that never returned; the next append overwrites it.
/// - **Growth** doubles the file (writing zeros, so every page has its disk blocks before it is
///   mapped) and remaps; a process that finds a larger slot count in the header remaps before
///   it writes.
/// - **Compaction** happens in place, under the lock: the newest `retained` distinct records
///   are copied forward to the front, in order, and then the count is lowered. Each kept record
///   moves to a slot no later than its own, so at every moment of a killed compaction each kept
///   id is still in some slot the old count covers: nothing acknowledged is lost.
/// - **Data Protection.** A mapped file must stay readable while the phone is locked, or its
///   pages fault and the process ends: ``StoreFileProtection/complete`` is refused.
///
/// - Complexity: per consume two system calls (lock, unlock) and a 24-byte copy; O(file) to
///   restore; amortized O(1) per consume for compaction.
public final class MappedJournalStore: ConsumedStore, @unchecked Sendable {
    public static let designID = "mapped-journal"
    public let path: String
    public let durability: StoreDurability
    public let retained: Int
    public let compactionFactor: Int
    public var writesWholeState: Bool { false }
    public private(set) var bytesWritten = 0
    public private(set) var compactions = 0

    /// Header bytes before the first record: the shared 24, slots, the count word, padding.
    static let headerSize = 64
    static let slotsOffset = 24
    /// The count word: the used count (u32) and its check (u32), stored as one aligned 8-byte
    /// word, so a kill cannot tear it and a flipped bit in it is seen, not trusted.
    static let countOffset = 32

    static func countWord(_ count: Int) -> UInt64 {
        UInt64(UInt32(truncatingIfNeeded: count)) | UInt64(countCheck(UInt32(truncatingIfNeeded: count))) << 32
    }

    /// The count a word holds, or `nil` when its check fails.
    static func count(in word: UInt64) -> Int? {
        let count = UInt32(truncatingIfNeeded: word)
        return UInt32(truncatingIfNeeded: word >> 32) == countCheck(count) ? Int(count) : nil
    }

    private static func countCheck(_ count: UInt32) -> UInt32 {
        UInt32(truncatingIfNeeded: DeterministicHashing.mix64(UInt64(count) ^ 0x5044_4d4a_434f_554e))
    }

    /// The slots and count of a header over `size` bytes of file, or `nil` when either is out of
    /// range or the count's check fails. Compared as `UInt64`, so a flipped high bit cannot
    /// overflow.
    static func slotsAndCount(_ buffer: UnsafeRawBufferPointer, fileSize size: Int) -> (slots: Int, used: Int)? {
        guard size >= headerSize, buffer.count >= headerSize else { return nil }
        let slots = _JournalFormat.load64(buffer, slotsOffset)
        guard slots <= UInt64((size - headerSize) / _JournalFormat.recordSize),
              let used = count(in: _JournalFormat.load64(buffer, countOffset)), UInt64(used) <= slots else { return nil }
        return (Int(slots), used)
    }

    let fileSystem: _StoreFileSystem
    private var descriptor: Int32 = -1
    private var mapping: UnsafeMutableRawBufferPointer?
    private var newerVersion: Int?
    /// The largest `retained` of the stores sharing the file, as its header records it.
    private var sharedRetained: Int
    /// What the last ``load()`` read: what ``replace(with:snapshot:)`` and
    /// ``moveAside(reason:)`` may replace.
    private var read: _StoreRead = .unread

    /// A mapped journal at `url`, compacted to `retained` ids. Its protection class cannot be
    /// `complete` (see ``MappedFileProtection``).
    public init(
        url: URL, retained: Int, durability: StoreDurability = .processKill, compactionFactor: Int = 2,
        protection: MappedFileProtection = .completeUntilFirstUserAuthentication, faults: StoreFaults? = nil
    ) {
        path = url.path
        self.retained = max(1, retained)
        sharedRetained = self.retained
        self.durability = durability
        self.compactionFactor = max(2, compactionFactor)
        fileSystem = _StoreFileSystem(faults: faults, protection: protection.fileProtection)
    }

    deinit { unmap() }

    public func load() throws(StoreError) -> StoreLoad {
        try fileSystem.load(path, locked: true) { contents throws(StoreError) in
            guard let (bytes, version) = contents else {
                read = .absent
                return StoreLoad(.nothing)
            }
            read = .present(version)
            return try recover(bytes, version)
        }
    }

    private func recover(_ bytes: [UInt8], _ version: _FileVersion) throws(StoreError) -> StoreLoad {
        switch bytes.withUnsafeBytes({ _JournalFormat.readHeader($0, magic: _JournalFormat.mappedMagic) }) {
        case .newer(let version):
            newerVersion = version
            throw newerVersionError(version)
        case .invalid:
            if _SnapshotFormat.isFramed(bytes) { return StoreLoad(.snapshot(bytes)) }
            return try salvage(bytes, version, reason: bytes.isEmpty ? "the file is empty" : "not a mapped journal header")
        case .current(let recorded):
            sharedRetained = max(sharedRetained, recorded)
            guard let (_, used) = bytes.withUnsafeBytes({ Self.slotsAndCount($0, fileSize: bytes.count) }) else {
                return try salvage(bytes, version, reason: "its slot count or record count is out of range or damaged")
            }
            let end = Self.headerSize + used * _JournalFormat.recordSize
            let (ids, damaged, validEnd) = bytes.withUnsafeBytes { _JournalFormat.records($0, from: Self.headerSize, to: end) }
            let bad = damaged + (end - validEnd) / _JournalFormat.recordSize
            guard bad > 0 else { return StoreLoad(.ids(ids)) }
            // Under the lock, kept aside once, then compacted away, so the next launch finds a
            // clean file. (Another store may have repaired it first: its copy is reported.)
            var copy = try dropDamagedRecords()
            if copy == nil { copy = try fileSystem.existingCopy(of: path, bytes: bytes) }
            guard let copy else { return StoreLoad(.ids(ids)) }
            return StoreLoad(.ids(ids), repairs: [.skippedDamagedRecords(count: bad, copy: copy)])
        }
    }

    /// Copies the mapped file aside if it still holds a damaged record the count covers, then
    /// compacts it, which keeps only records whose checksum holds; all under the lock. Returns
    /// the copy.
    private func dropDamagedRecords() throws(StoreError) -> String? {
        let fd = try mapped()
        do throws(StoreError) {
            try fileSystem.lock(fd, LOCK_EX, path)
            let count = try header()
            let map = UnsafeRawBufferPointer(mapping!)
            let end = Self.headerSize + count.used * _JournalFormat.recordSize
            let valid = _JournalFormat.records(map, from: Self.headerSize, to: end).ids.count
            let copy = valid < count.used ? try fileSystem.copyAside(path, bytes: Array(map)) : nil
            compactInPlace(used: count.used)
            try fileSystem.lock(fd, LOCK_UN, path)
            return copy
        } catch {
            unmap()
            throw error
        }
    }

    /// A file whose header cannot be trusted: under its lock, if it is still the file that was
    /// read, copied aside, and the valid records it committed written to a new mapped journal
    /// renamed over it.
    /// The records are the valid ones the count covers when the count word's check holds (past
    /// it lies a consume that never returned); otherwise every valid record (a compaction clears
    /// the slots past its count, so none is stale), which keeps whatever is undamaged.
    private func salvage(_ bytes: [UInt8], _ version: _FileVersion, reason: String) throws(StoreError) -> StoreLoad {
        let ids = bytes.withUnsafeBytes { buffer -> [EnvelopeID] in
            guard buffer.count > Self.headerSize else { return [] }
            let slots = (buffer.count - Self.headerSize) / _JournalFormat.recordSize
            let committed = Self.count(in: _JournalFormat.load64(buffer, Self.countOffset)).flatMap { $0 <= slots ? $0 : nil }
            return _JournalFormat.records(buffer, from: Self.headerSize, to: Self.headerSize + (committed ?? slots) * _JournalFormat.recordSize).ids
        }
        unmap()
        let file = Self.file(ids, slots: max(2 * sharedRetained, ids.count), retained: sharedRetained)
        let copy = try fileSystem.salvage(path, damaged: bytes, expecting: version, with: file, durability: durability)
        bytesWritten += Self.headerSize + ids.count * _JournalFormat.recordSize
        read = .unread
        return StoreLoad(.ids(ids), repairs: [.movedAside(movedTo: copy, reason: "\(reason); \(ids.count) valid record(s) salvaged")])
    }

    public func append(_ ids: [EnvelopeID], snapshot: () -> [UInt8]) throws(StoreError) {
        guard !ids.isEmpty else { return }
        if let newerVersion { throw newerVersionError(newerVersion) }
        var fd = try mapped()
        do throws(StoreError) {
            try fileSystem.lock(fd, LOCK_EX, path)
            if !(try fileSystem.status(fd, path).linked) {
                // Another store replaced the file (a migration): write to the one at the path.
                unmap()
                fd = try mapped()
                try fileSystem.lock(fd, LOCK_EX, path)
            }
            var count = try header()
            if count.used + ids.count > count.slots {
                try grow(to: max(2 * count.slots, count.used + ids.count))
                count = try header()
            }
            try fileSystem.check(.map, path)
            let map = mapping!
            for (index, id) in ids.enumerated() {
                _JournalFormat.encode(id, into: map, at: Self.headerSize + (count.used + index) * _JournalFormat.recordSize)
            }
            try flush(from: Self.headerSize + count.used * _JournalFormat.recordSize, count: ids.count * _JournalFormat.recordSize)
            // The count commits the records: stored only once they are whole.
            _JournalFormat.store(Self.countWord(count.used + ids.count), at: Self.countOffset, in: map)
            try flush(from: 0, count: Self.headerSize)
            bytesWritten += ids.count * _JournalFormat.recordSize + 8
            if count.used + ids.count >= compactionFactor * sharedRetained { compactInPlace(used: count.used + ids.count) }
            try fileSystem.lock(fd, LOCK_UN, path)
        } catch {
            unmap()
            throw error
        }
    }

    /// Replaces the file the last ``load()`` read (an earlier version's snapshot) with a mapped
    /// journal of `ids`, if no other store changed it since.
    public func replace(with ids: [EnvelopeID], snapshot: () -> [UInt8]) throws(StoreError) {
        if let newerVersion { throw newerVersionError(newerVersion) }
        unmap()
        let file = Self.file(ids, slots: max(2 * sharedRetained, ids.count), retained: sharedRetained)
        try fileSystem.replace(path, with: file, expecting: try read.expected(path), durability: durability)
        bytesWritten += Self.headerSize + ids.count * _JournalFormat.recordSize
        read = .unread
    }

    /// A whole file of `slots` slots holding `ids`, its header recording `retained`.
    static func file(_ ids: [EnvelopeID], slots: Int, retained: Int) -> [UInt8] {
        var bytes = _JournalFormat.header(magic: _JournalFormat.mappedMagic, retained: retained, size: headerSize)
        bytes += [UInt8](repeating: 0, count: slots * _JournalFormat.recordSize)
        bytes.withUnsafeMutableBytes { buffer in
            _JournalFormat.store(UInt64(slots), at: slotsOffset, in: buffer)
            _JournalFormat.store(countWord(ids.count), at: countOffset, in: buffer)
            for (index, id) in ids.enumerated() {
                _JournalFormat.encode(id, into: buffer, at: headerSize + index * _JournalFormat.recordSize)
            }
        }
        return bytes
    }

    /// The slot count and the used count, remapping when another process grew the file.
    private func header() throws(StoreError) -> (slots: Int, used: Int) {
        if let header = Self.slotsAndCount(UnsafeRawBufferPointer(mapping!), fileSize: mapping!.count) { return header }
        // Slots beyond this mapping: another process grew the file. Map it as it is now.
        try remap()
        guard let header = Self.slotsAndCount(UnsafeRawBufferPointer(mapping!), fileSize: mapping!.count) else {
            throw StoreError(path: path, kind: .corrupt, reason: "the header's slot count or record count is out of range or damaged")
        }
        return header
    }

    /// Extends the file by writing zeros, not by `ftruncate`: a sparse region would have no disk
    /// blocks, and a store into a mapped page that cannot get one on a full disk raises SIGBUS,
    /// ending the app, where a write fails with ENOSPC.
    private func grow(to slots: Int) throws(StoreError) {
        let oldSize = try fileSystem.status(descriptor, path).size
        let newSize = Self.headerSize + slots * _JournalFormat.recordSize
        if newSize > oldSize {
            try fileSystem.check(.write, path)
            let zeros = [UInt8](repeating: 0, count: min(newSize - oldSize, 1 << 16))
            var offset = oldSize
            while offset < newSize {
                let count = zeros.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, min($0.count, newSize - offset), off_t(offset)) }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw _StoreFileSystem.error(.write, path, errno, reading: false)
                }
                offset += count
            }
            bytesWritten += newSize - oldSize
        }
        try remap()
        _JournalFormat.store(UInt64(slots), at: Self.slotsOffset, in: mapping!)
        try flush(from: 0, count: Self.headerSize)
    }

    /// Copies the newest `retained` distinct records forward, then lowers the count (see the type's
    /// doc comment for why a kill at any point loses nothing).
    private func compactInPlace(used: Int) {
        let map = mapping!
        if case .current(let recorded) = _JournalFormat.readHeader(UnsafeRawBufferPointer(map), magic: _JournalFormat.mappedMagic) {
            sharedRetained = max(sharedRetained, recorded)
        }
        let keep = sharedRetained
        var newestSlot: [EnvelopeID: Int] = [:]
        newestSlot.reserveCapacity(min(used, 2 * keep))
        var kept: [Int] = []
        for slot in stride(from: used - 1, through: 0, by: -1) where kept.count < keep {
            guard let id = _JournalFormat.decode(UnsafeRawBufferPointer(map), at: Self.headerSize + slot * _JournalFormat.recordSize),
                  newestSlot[id] == nil else { continue }
            newestSlot[id] = slot
            kept.append(slot)
        }
        for (target, source) in kept.reversed().enumerated() where target != source {
            let from = Self.headerSize + source * _JournalFormat.recordSize
            let to = Self.headerSize + target * _JournalFormat.recordSize
            (map.baseAddress! + to).copyMemory(from: map.baseAddress! + from, byteCount: _JournalFormat.recordSize)
        }
        // A failed flush under power-loss durability leaves the count high: a later compaction
        // tries again, and a restore meanwhile replays the kept ids twice, harmlessly.
        guard (try? flush(from: Self.headerSize, count: kept.count * _JournalFormat.recordSize)) != nil else { return }
        _JournalFormat.store(Self.countWord(kept.count), at: Self.countOffset, in: map)
        try? flush(from: 0, count: Self.headerSize)
        // The slots past the new count are cleared, so that a salvage of a file whose count is
        // later damaged cannot replay them after newer records.
        let stale = Self.headerSize + kept.count * _JournalFormat.recordSize
        (map.baseAddress! + stale).initializeMemory(as: UInt8.self, repeating: 0, count: (used - kept.count) * _JournalFormat.recordSize)
        bytesWritten += kept.count * _JournalFormat.recordSize + 8
        compactions += 1
    }

    /// `msync(MS_SYNC)` of the pages under `offset..<offset+count`, for power-loss durability.
    private func flush(from offset: Int, count: Int) throws(StoreError) {
        guard durability == .powerLoss, count > 0 else { return }
        try fileSystem.check(.sync, path)
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = offset / page * page
        if msync(mapping!.baseAddress! + start, offset + count - start, MS_SYNC) != 0 {
            throw _StoreFileSystem.error(.sync, path, errno, reading: false)
        }
    }

    /// The descriptor of a mapped file, opening, creating and mapping it as needed.
    private func mapped() throws(StoreError) -> Int32 {
        if mapping != nil { return descriptor }
        for _ in 0..<_StoreRead.attempts {
            guard let fd = try fileSystem.open(path, flags: O_RDWR, reading: false, missingIsNil: true) else {
                let file = Self.file([], slots: 2 * sharedRetained, retained: sharedRetained)
                let temporary = try fileSystem.writeTemporary(beside: path, "creating", file, durability: durability)
                defer { unlink(temporary) }
                if try fileSystem.link(temporary, path), durability == .powerLoss { try fileSystem.syncDirectory(of: path) }
                continue
            }
            descriptor = fd
            do throws(StoreError) {
                try remap()
                guard case .current(let recorded) = _JournalFormat.readHeader(UnsafeRawBufferPointer(mapping!), magic: _JournalFormat.mappedMagic) else {
                    throw StoreError(path: path, kind: .corrupt, reason: "not a current mapped journal; it is not written until it is read")
                }
                sharedRetained = max(sharedRetained, recorded)
                if recorded < retained { try recordRetained(fd) }
            } catch {
                unmap()
                throw error
            }
            return fd
        }
        throw _StoreRead.keptChanging(path)
    }

    /// Raises the capacity the header records to this store's, under the lock: the capacity and
    /// the header's checksum are one aligned word, stored at once.
    private func recordRetained(_ fd: Int32) throws(StoreError) {
        try fileSystem.lock(fd, LOCK_EX, path)
        defer { try? fileSystem.lock(fd, LOCK_UN, path) }
        let map = mapping!
        guard case .current(let recorded) = _JournalFormat.readHeader(UnsafeRawBufferPointer(map), magic: _JournalFormat.mappedMagic) else { return }
        sharedRetained = max(sharedRetained, recorded)
        guard recorded < sharedRetained else { return }
        try fileSystem.check(.map, path)
        _JournalFormat.store(_JournalFormat.retainedWord(sharedRetained, header: UnsafeRawBufferPointer(map)), at: _JournalFormat.retainedOffset, in: map)
        try flush(from: 0, count: Self.headerSize)
    }

    /// Maps the whole file as it is now.
    private func remap() throws(StoreError) {
        if let mapping { munmap(mapping.baseAddress, mapping.count) }
        mapping = nil
        try fileSystem.check(.map, path)
        let size = try fileSystem.status(descriptor, path).size
        guard size >= Self.headerSize else {
            throw StoreError(path: path, kind: .corrupt, reason: "\(size) bytes is shorter than the header")
        }
        guard let base = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0), base != MAP_FAILED else {
            throw _StoreFileSystem.error(.map, path, errno, reading: false)
        }
        mapping = UnsafeMutableRawBufferPointer(start: base, count: size)
    }

    private func unmap() {
        if let mapping { munmap(mapping.baseAddress, mapping.count) }
        mapping = nil
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }

    public func moveAside(reason: String) throws(StoreError) -> StoreRepair {
        unmap()
        let movedTo = try fileSystem.moveAside(path, expecting: try read.existing(path))
        read = .unread
        return .movedAside(movedTo: movedTo, reason: reason)
    }

    private func newerVersionError(_ version: Int) -> StoreError {
        StoreError(
            path: path, kind: .newerVersion(found: version, supported: Int(_JournalFormat.version)),
            reason: "written by mapped journal format version \(version); this library reads up to \(_JournalFormat.version), so the file is left untouched")
    }
}
