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

    /// A mapped journal at `url`, compacted to `retained` ids. Its protection class cannot be
    /// `complete` (see ``MappedFileProtection``).
    public init(
        url: URL, retained: Int, durability: StoreDurability = .processKill, compactionFactor: Int = 2,
        protection: MappedFileProtection = .completeUntilFirstUserAuthentication, faults: StoreFaults? = nil
    ) {
        path = url.path
        self.retained = max(1, retained)
        self.durability = durability
        self.compactionFactor = max(2, compactionFactor)
        fileSystem = _StoreFileSystem(faults: faults, protection: protection.fileProtection)
    }

    deinit { unmap() }

    public func load() throws(StoreError) -> StoreLoad {
        guard let bytes = try fileSystem.contents(of: path, locked: true) else { return StoreLoad(.nothing) }
        switch bytes.withUnsafeBytes({ _JournalFormat.readHeader($0, magic: _JournalFormat.mappedMagic) }) {
        case .newer(let version):
            newerVersion = version
            throw newerVersionError(version)
        case .invalid:
            if bytes.starts(with: _SnapshotFormat.magic) { return StoreLoad(.snapshot(bytes)) }
            return try salvage(bytes, reason: bytes.isEmpty ? "the file is empty" : "not a mapped journal header")
        case .current:
            guard let (_, used) = bytes.withUnsafeBytes({ Self.slotsAndCount($0, fileSize: bytes.count) }) else {
                return try salvage(bytes, reason: "its slot count or record count is out of range or damaged")
            }
            let end = Self.headerSize + used * _JournalFormat.recordSize
            let (ids, damaged, validEnd) = bytes.withUnsafeBytes { _JournalFormat.records($0, from: Self.headerSize, to: end) }
            let bad = damaged + (end - validEnd) / _JournalFormat.recordSize
            guard bad > 0 else { return StoreLoad(.ids(ids)) }
            // Kept aside once, then compacted away, so the next launch finds a clean file.
            let copy = try fileSystem.copyAside(path, bytes: bytes)
            try dropDamagedRecords()
            return StoreLoad(.ids(ids), repairs: [.skippedDamagedRecords(count: bad, copy: copy)])
        }
    }

    /// Compacts the mapped file under the lock, which keeps only records whose checksum holds.
    private func dropDamagedRecords() throws(StoreError) {
        let fd = try mapped()
        do throws(StoreError) {
            try fileSystem.lock(fd, LOCK_EX, path)
            let count = try header()
            compactInPlace(used: count.used)
            try fileSystem.lock(fd, LOCK_UN, path)
        } catch {
            unmap()
            throw error
        }
    }

    /// A file whose header cannot be trusted: moved aside, and every valid record in it written
    /// to a new mapped journal.
    private func salvage(_ bytes: [UInt8], reason: String) throws(StoreError) -> StoreLoad {
        let ids = bytes.count > Self.headerSize
            ? bytes.withUnsafeBytes { _JournalFormat.records($0, from: Self.headerSize, to: bytes.count).ids } : []
        let movedTo = try fileSystem.moveAside(path)
        if !ids.isEmpty { try replace(with: ids, snapshot: { [] }) }
        return StoreLoad(.ids(ids), repairs: [.movedAside(movedTo: movedTo, reason: "\(reason); \(ids.count) valid record(s) salvaged")])
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
            if count.used + ids.count >= compactionFactor * retained { compactInPlace(used: count.used + ids.count) }
            try fileSystem.lock(fd, LOCK_UN, path)
        } catch {
            unmap()
            throw error
        }
    }

    public func replace(with ids: [EnvelopeID], snapshot: () -> [UInt8]) throws(StoreError) {
        if let newerVersion { throw newerVersionError(newerVersion) }
        unmap()
        let lockFD = try fileSystem.open(path, flags: O_RDWR, reading: false, missingIsNil: true)
        defer { if let lockFD { close(lockFD) } }
        if let lockFD { try fileSystem.lock(lockFD, LOCK_EX, path) }
        try fileSystem.replace(path, with: Self.file(ids, slots: max(2 * retained, ids.count)), temporary: path + ".compacting", durability: durability)
        bytesWritten += Self.headerSize + ids.count * _JournalFormat.recordSize
    }

    /// A whole file of `slots` slots holding `ids`.
    static func file(_ ids: [EnvelopeID], slots: Int) -> [UInt8] {
        var bytes = _JournalFormat.header(magic: _JournalFormat.mappedMagic, size: headerSize)
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
        var newestSlot: [EnvelopeID: Int] = [:]
        newestSlot.reserveCapacity(min(used, 2 * retained))
        var kept: [Int] = []
        for slot in stride(from: used - 1, through: 0, by: -1) where kept.count < retained {
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
        while true {
            if let fd = try fileSystem.open(path, flags: O_RDWR, reading: false, missingIsNil: true) {
                descriptor = fd
                do throws(StoreError) {
                    try remap()
                } catch {
                    unmap()
                    throw error
                }
                guard _JournalFormat.readHeader(UnsafeRawBufferPointer(mapping!), magic: _JournalFormat.mappedMagic) == .current else {
                    unmap()
                    throw StoreError(path: path, kind: .corrupt, reason: "not a current mapped journal; it is not written until it is read")
                }
                return fd
            }
            let temporary = "\(path).creating-\(getpid())"
            try fileSystem.replace(temporary, with: Self.file([], slots: 2 * retained), temporary: temporary + ".tmp", durability: durability)
            defer { unlink(temporary) }
            if try fileSystem.link(temporary, path), durability == .powerLoss { try fileSystem.syncDirectory(of: path) }
        }
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
        return .movedAside(movedTo: try fileSystem.moveAside(path), reason: reason)
    }

    private func newerVersionError(_ version: Int) -> StoreError {
        StoreError(
            path: path, kind: .newerVersion(found: version, supported: Int(_JournalFormat.version)),
            reason: "written by mapped journal format version \(version); this library reads up to \(_JournalFormat.version), so the file is left untouched")
    }
}
