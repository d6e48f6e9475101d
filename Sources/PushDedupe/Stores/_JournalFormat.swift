/// The byte layout both journal designs share: a header, then fixed-size records, each with its
/// own checksum, so that recovery can tell a whole record from a torn or flipped one without
/// trusting anything around it (`Guides/Stores.md` § Formats).
///
/// ```
/// header  (24 bytes): magic "PDJOURNL" | version u32 | record size u32 | retained u32 | checksum u32
///         (the mapped journal: magic "PDMAPJNL", then slots u64 | count u64 | 24 bytes of zeros)
/// record  (24 bytes): id.high u64 | id.low u64 | tag "PDRC" u32 | checksum u32
/// ```
///
/// `retained` is the largest capacity of the stores sharing the file (0 in files written before
/// it was recorded): every compaction keeps that many ids. Little-endian throughout. A checksum is the low 32 bits of the snapshot format's FNV-1a 64
/// over the 20 bytes before it, which any single changed byte changes; an all-zero record (a
/// region a crash left unwritten) fails it too.
enum _JournalFormat {
    static let magic: [UInt8] = Array("PDJOURNL".utf8)
    static let mappedMagic: [UInt8] = Array("PDMAPJNL".utf8)
    static let version: UInt32 = 1
    static let recordSize = 24
    static let headerSize = 24
    static let recordTag: UInt32 = 0x4352_4450

    static func checksum(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> UInt32 {
        var hash = DeterministicHashing.fnvOffsetBasis
        for index in range { hash = (hash ^ UInt64(bytes[index])) &* DeterministicHashing.fnvPrime }
        return UInt32(truncatingIfNeeded: DeterministicHashing.mix64(hash))
    }

    static func store(_ value: UInt32, at offset: Int, in bytes: UnsafeMutableRawBufferPointer) {
        bytes.storeBytes(of: value.littleEndian, toByteOffset: offset, as: UInt32.self)
    }

    static func store(_ value: UInt64, at offset: Int, in bytes: UnsafeMutableRawBufferPointer) {
        bytes.storeBytes(of: value.littleEndian, toByteOffset: offset, as: UInt64.self)
    }

    static func load32(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
        UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    static func load64(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// The offset of the shared capacity and the header's checksum, one aligned 8-byte word, so
    /// the mapped journal can change the capacity with one store a kill cannot tear.
    static let retainedOffset = 16

    /// The header of version ``version`` recording `retained`, `size` bytes (the mapped
    /// journal's is longer).
    static func header(magic: [UInt8], retained: Int, size: Int = headerSize) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: size)
        bytes.withUnsafeMutableBytes { buffer in
            for (index, byte) in magic.enumerated() { buffer[index] = byte }
            store(version, at: 8, in: buffer)
            store(UInt32(recordSize), at: 12, in: buffer)
            store(retainedWord(retained, header: UnsafeRawBufferPointer(buffer)), at: retainedOffset, in: buffer)
        }
        return bytes
    }

    /// The word at ``retainedOffset`` that records `retained` in a header whose first 16 bytes
    /// are `header`'s: the capacity, then the checksum of the 20 bytes before it.
    static func retainedWord(_ retained: Int, header: UnsafeRawBufferPointer) -> UInt64 {
        var prefix = [UInt8](header[0..<retainedOffset])
        withUnsafeBytes(of: UInt32(clamping: retained).littleEndian) { prefix.append(contentsOf: $0) }
        let sum = prefix.withUnsafeBytes { checksum($0, 0..<20) }
        return UInt64(UInt32(clamping: retained)) | UInt64(sum) << 32
    }

    /// Writes `id`'s record into `buffer` at `offset`.
    static func encode(_ id: EnvelopeID, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) {
        store(id.high, at: offset, in: buffer)
        store(id.low, at: offset + 8, in: buffer)
        store(recordTag, at: offset + 16, in: buffer)
        store(checksum(UnsafeRawBufferPointer(buffer), offset..<(offset + 20)), at: offset + 20, in: buffer)
    }

    /// The id of the record at `offset`, or `nil` for a torn, flipped or unwritten one.
    static func decode(_ buffer: UnsafeRawBufferPointer, at offset: Int) -> EnvelopeID? {
        guard load32(buffer, offset + 16) == recordTag,
              load32(buffer, offset + 20) == checksum(buffer, offset..<(offset + 20)) else { return nil }
        return EnvelopeID(high: load64(buffer, offset), low: load64(buffer, offset + 8))
    }

    /// What a header says.
    enum Header: Equatable {
        /// This version's header, and the capacity it records.
        case current(retained: Int)
        /// A valid header of a later version: the file is left untouched.
        case newer(version: Int)
        /// Not a journal header (or a damaged one).
        case invalid
    }

    static func readHeader(_ buffer: UnsafeRawBufferPointer, magic: [UInt8]) -> Header {
        guard buffer.count >= headerSize, Array(buffer[0..<8]) == magic,
              load32(buffer, 20) == checksum(buffer, 0..<20) else { return .invalid }
        let version = load32(buffer, 8)
        if version > Self.version { return .newer(version: Int(version)) }
        return version == Self.version && load32(buffer, 12) == UInt32(recordSize) ? .current(retained: Int(load32(buffer, retainedOffset))) : .invalid
    }

    /// The records of `buffer[start..<end]`, in order: the ids of the whole valid ones, how many
    /// whole records failed their checksum before the last valid one (damage in the middle), and
    /// where the valid data ends (what follows is a torn tail: a partial record, or records a
    /// crash left unwritten).
    static func records(_ buffer: UnsafeRawBufferPointer, from start: Int, to end: Int)
        -> (ids: [EnvelopeID], damaged: Int, validEnd: Int)
    {
        var ids: [EnvelopeID] = []
        ids.reserveCapacity((end - start) / recordSize)
        var bad = 0
        var damaged = 0
        var validEnd = start
        var offset = start
        while offset + recordSize <= end {
            if let id = decode(buffer, at: offset) {
                ids.append(id)
                damaged += bad
                bad = 0
                validEnd = offset + recordSize
            } else {
                bad += 1
            }
            offset += recordSize
        }
        return (ids, damaged, validEnd)
    }

    /// The newest `keep` distinct ids of `ids`, oldest first: what a compaction keeps.
    static func newestDistinct(_ ids: [EnvelopeID], keep: Int) -> [EnvelopeID] {
        var seen = Set<EnvelopeID>()
        seen.reserveCapacity(min(keep, ids.count))
        var kept: [EnvelopeID] = []
        kept.reserveCapacity(min(keep, ids.count))
        for id in ids.reversed() where kept.count < keep {
            if seen.insert(id).inserted { kept.append(id) }
        }
        return kept.reversed()
    }
}
