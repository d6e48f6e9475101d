import DedupeStoreLab
import DedupeHarness
import PushDedupe

/// What the store fuzzer knows of each design's bytes (`Guides/Stores.md` § Formats,
/// `Guides/Snapshots.md` § Framing, SQLite's file format): where a record sits, which fields a
/// header holds, and how to tell a valid newer version's file from a damaged one. It reads the
/// formats on its own rather than through the library, so a store that misreads its file is
/// judged against the documented layout.
enum StoreFileLayout {
    static let recordSize = StoreDamageMatrix.recordSize
    static let journalHeaderSize = StoreDamageMatrix.headerSize(.journal)
    static let mappedHeaderSize = StoreDamageMatrix.mappedHeaderSize
    static let recordTag: UInt32 = 0x4352_4450
    static let mappedSlotsOffset = 24
    static let mappedCountOffset = 32
    static let snapshotHeaderSize = StoreDamageMatrix.headerSize(.snapshot)
    static let snapshotChecksumSize = 8
    static let sqliteUserVersionOffset = 60

    /// Where the `k`-th consumed id's record starts in a pristine journal's file.
    static func recordOffset(_ design: DedupeStore.Design, _ k: Int) -> Int? {
        switch design {
        case .journal: journalHeaderSize + k * recordSize
        case .mappedJournal: mappedHeaderSize + k * recordSize
        case .snapshot, .sqlite: nil
        }
    }

    /// A journal record of `id`: high, low, tag, checksum, little-endian.
    static func record(_ id: EnvelopeID) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: recordSize)
        store64(id.high, at: 0, in: &bytes)
        store64(id.low, at: 8, in: &bytes)
        StoreDamageMatrix.store32(recordTag, at: 16, in: &bytes)
        StoreDamageMatrix.store32(checksum32(bytes[0..<20]), at: 20, in: &bytes)
        return bytes
    }

    /// The journals' checksum: FNV-1a 64 finished with `mix64`, low 32 bits.
    static func checksum32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        UInt32(truncatingIfNeeded: DeterministicHashing.fnv1a64(bytes))
    }

    /// Rewrites a journal header's checksum so that the header's fields hold.
    static func refreshJournalHeader(_ bytes: inout [UInt8]) {
        guard bytes.count >= journalHeaderSize else { return }
        StoreDamageMatrix.store32(StoreDamageMatrix.journalHeaderChecksum(bytes), at: 20, in: &bytes)
    }

    /// Rewrites a snapshot's trailing checksum over every byte before it.
    static func refreshSnapshotChecksum(_ bytes: inout [UInt8]) {
        guard bytes.count >= snapshotChecksumSize else { return }
        let end = bytes.count - snapshotChecksumSize
        store64(DeterministicHashing.fnv1a64(bytes[0..<end]), at: end, in: &bytes)
    }

    /// A mapped journal's count word for `count`: the count and its check.
    static func mappedCountWord(_ count: UInt32) -> UInt64 {
        let check = UInt32(truncatingIfNeeded: DeterministicHashing.mix64(UInt64(count) ^ 0x5044_4d4a_434f_554e))
        return UInt64(count) | UInt64(check) << 32
    }

    /// Whether `bytes` start with a header of `design` that holds, as the format defines it
    /// (magic and checksum for the journals; magic for the others).
    static func headerHolds(_ design: DedupeStore.Design, _ bytes: [UInt8]) -> Bool {
        switch design {
        case .journal, .mappedJournal:
            let magic = Array((design == .journal ? "PDJOURNL" : "PDMAPJNL").utf8)
            return bytes.count >= journalHeaderSize && Array(bytes[0..<8]) == magic
                && StoreDamageMatrix.load32(bytes, 20) == StoreDamageMatrix.journalHeaderChecksum(bytes)
        case .snapshot:
            guard bytes.count >= 5 + snapshotChecksumSize, Array(bytes[0..<4]) == Array("PDCS".utf8) else { return false }
            let end = bytes.count - snapshotChecksumSize
            return load64(bytes, end) == DeterministicHashing.fnv1a64(bytes[0..<end])
        case .sqlite:
            return bytes.count >= 100 && Array(bytes[0..<16]) == Array("SQLite format 3\0".utf8)
        }
    }

    /// The version a file of `design` states, when its header holds.
    static func version(_ design: DedupeStore.Design, _ bytes: [UInt8]) -> Int? {
        guard headerHolds(design, bytes) else { return nil }
        switch design {
        case .journal, .mappedJournal: return Int(StoreDamageMatrix.load32(bytes, 8))
        case .snapshot: return Int(bytes[4])
        // `user_version` is a signed 32-bit integer.
        case .sqlite: return Int(Int32(bitPattern: loadBigEndian32(bytes, sqliteUserVersionOffset)))
        }
    }

    /// The SQLite schema version the library writes; every other design's format is version 1.
    static let sqliteSchemaVersion = 2

    /// Whether `bytes` state a newer version: a header that holds with a version above the
    /// library's. For SQLite, whose header has no checksum, the header's `user_version` alone
    /// (a store may still find the checksummed `meta` row disagrees, and read it as damage).
    static func statesNewerVersion(_ design: DedupeStore.Design, _ bytes: [UInt8]) -> Bool {
        (version(design, bytes) ?? 0) > (design == .sqlite ? sqliteSchemaVersion : 1)
    }

    /// Whether `bytes` are a newer version's valid file, which a store must leave byte for byte:
    /// one that states a newer version and, for SQLite, is the `pristine` database marked as that
    /// version in its header and its `meta` row, as a later library writes it.
    static func isValidNewerVersion(_ design: DedupeStore.Design, _ bytes: [UInt8], pristine: [UInt8]) -> Bool {
        guard statesNewerVersion(design, bytes), let version = version(design, bytes) else { return false }
        guard design == .sqlite else { return true }
        return (try? StoreDamageMatrix.markedNewer(pristine, version: version)) == bytes
    }

    /// The committed record count of a mapped journal whose header, slot count and count word
    /// all hold over the file, or `nil` when a reader must salvage instead.
    static func mappedCommittedCount(_ bytes: [UInt8]) -> Int? {
        guard headerHolds(.mappedJournal, bytes), bytes.count >= mappedHeaderSize,
              StoreDamageMatrix.load32(bytes, 8) == 1, StoreDamageMatrix.load32(bytes, 12) == UInt32(recordSize)
        else { return nil }
        let slots = load64(bytes, mappedSlotsOffset)
        let word = load64(bytes, mappedCountOffset)
        let count = UInt32(truncatingIfNeeded: word)
        guard slots <= UInt64((bytes.count - mappedHeaderSize) / recordSize), word == mappedCountWord(count),
              UInt64(count) <= slots else { return nil }
        return Int(count)
    }

    /// The count a mapped journal's count word holds when its check holds and it is within the
    /// slots the file has room for, whatever the rest of the header says; `nil` otherwise, when
    /// no reader can tell a record a consume wrote before its count from a committed one.
    static func mappedCountWord(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= mappedHeaderSize else { return nil }
        let word = load64(bytes, mappedCountOffset)
        let count = UInt32(truncatingIfNeeded: word)
        guard word == mappedCountWord(count), Int(count) <= (bytes.count - mappedHeaderSize) / recordSize else { return nil }
        return Int(count)
    }

    /// SQLite's page size (header offset 16, big-endian; 1 means 65536), or 4096 when the field
    /// is not a power of two from 512.
    static func sqlitePageSize(_ bytes: [UInt8]) -> Int {
        guard bytes.count >= 18 else { return 4096 }
        let raw = Int(bytes[16]) << 8 | Int(bytes[17])
        if raw == 1 { return 65_536 }
        return raw >= 512 && raw & (raw - 1) == 0 ? raw : 4096
    }

    static func load64(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
        (0..<8).reduce(0) { $0 | UInt64(bytes[offset + $1]) << (8 * UInt64($1)) }
    }

    static func store64(_ value: UInt64, at offset: Int, in bytes: inout [UInt8]) {
        for index in 0..<8 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(index))) }
    }

    static func loadBigEndian32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 << 8 | UInt32(bytes[offset + $1]) }
    }

    static func storeBigEndian32(_ value: UInt32, at offset: Int, in bytes: inout [UInt8]) {
        for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(3 - index))) }
    }
}
