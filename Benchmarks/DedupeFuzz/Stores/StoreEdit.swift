import DedupeStoreLab
import DedupeHarness
import PushDedupe

/// One seeded edit of a store file's bytes. It holds raw random numbers, resolved against the
/// bytes when applied (an offset is taken modulo the file's length), so an input is generated
/// without its file and applies the same way to the same pristine file.
enum StoreEdit: Equatable, Sendable {
    /// A header field of the design (``StoreFileLayout``).
    enum Field: String, Equatable, Sendable, CaseIterable {
        case magic, version, count, checksum
    }

    case flipBit(UInt64)
    /// Cut to a length below the file's.
    case truncate(UInt64)
    case appendJunk(length: Int, seed: UInt64, zeros: Bool)
    /// Two whole records (journals), ids (snapshot) or pages (SQLite) exchanged.
    case swapRecords(UInt64, UInt64)
    /// A header field set to `value`; `consistent` rewrites the checksum (or the count's check)
    /// so that the header still holds: a valid file of other contents, or of a newer version.
    case header(Field, value: UInt64, consistent: Bool)
    /// Zeros over a range (a whole page for SQLite).
    case zeroRange(UInt64, length: Int)
    /// A mapped journal's valid record of a never-consumed id in the first slot past the count:
    /// a consume killed between its copy and its count store, never acknowledged.
    case ghostRecord

    var name: String {
        switch self {
        case .flipBit: "bit-flip"
        case .truncate: "truncate"
        case .appendJunk: "append-junk"
        case .swapRecords: "swap-records"
        case .header(let field, _, let consistent): "header-\(field.rawValue)" + (consistent ? "-consistent" : "")
        case .zeroRange: "zero-range"
        case .ghostRecord: "ghost-record"
        }
    }

    /// A random edit; a ghost record only for the mapped journal.
    static func random(_ random: inout FuzzRandom, design: DedupeStore.Design) -> StoreEdit {
        switch random.below(100) {
        case 0..<25: return .flipBit(random.next())
        case 25..<38: return .truncate(random.next())
        case 38..<48: return .appendJunk(length: 1 + random.below(64), seed: random.next(), zeros: random.chance(1, in: 3))
        case 48..<58: return .swapRecords(random.next(), random.next())
        case 58..<80:
            let field = random.pick(Field.allCases)
            // Small versions half the time: the newer versions a store must leave untouched.
            let value = field == .version && random.chance(1, in: 2) ? UInt64(2 + random.below(3)) : random.next()
            return .header(field, value: value, consistent: random.chance(1, in: 2))
        case 80..<90: return .zeroRange(random.next(), length: random.pick([8, 24, 64, 512, 4096]))
        default: return design == .mappedJournal ? .ghostRecord : .flipBit(random.next())
        }
    }

    /// Applies the edit to `bytes` of `design`, whose pristine file held `records` ids; `ghost`
    /// is the ghost record's id. Returns what it did, resolved (`bit-flip@37.2`).
    func apply(to bytes: inout [UInt8], design: DedupeStore.Design, records: Int, ghost: EnvelopeID) -> String {
        switch self {
        case .flipBit(let raw):
            guard !bytes.isEmpty else { return "bit-flip(empty)" }
            // Half of SQLite's flips land in page 1, where its header and schema live: the
            // bytes a reader needs before any row.
            let span = design == .sqlite && raw >> 63 == 1 ? min(bytes.count, StoreFileLayout.sqlitePageSize(bytes)) : bytes.count
            let bit = Int(raw % UInt64(span * 8))
            bytes[bit / 8] ^= UInt8(1) << UInt8(bit % 8)
            return "bit-flip@\(bit / 8).\(bit % 8)"
        case .truncate(let raw):
            guard !bytes.isEmpty else { return "truncate(empty)" }
            let length = Int(raw % UInt64(bytes.count))
            bytes.removeLast(bytes.count - length)
            return "truncate@\(length)"
        case .appendJunk(let length, let seed, let zeros):
            var generator = SplitMix64(seed: seed)
            bytes += (0..<length).map { _ in zeros ? 0 : UInt8(truncatingIfNeeded: generator.next()) }
            return "append-\(zeros ? "zeros" : "junk")+\(length)"
        case .swapRecords(let first, let second):
            let (start, size, count) = Self.recordGrid(bytes, design: design, records: records)
            guard count >= 2 else { return "swap-records(none)" }
            let a = Int(first % UInt64(count))
            var b = Int(second % UInt64(count - 1))
            if b >= a { b += 1 }
            let rangeA = (start + a * size)..<(start + (a + 1) * size)
            let rangeB = (start + b * size)..<(start + (b + 1) * size)
            let saved = Array(bytes[rangeA])
            bytes.replaceSubrange(rangeA, with: bytes[rangeB])
            bytes.replaceSubrange(rangeB, with: saved)
            return "swap-records@\(min(a, b)),\(max(a, b))x\(size)"
        case .header(let field, let value, let consistent):
            return Self.editHeader(field, value: value, consistent: consistent, in: &bytes, design: design)
        case .zeroRange(let raw, let length):
            guard !bytes.isEmpty else { return "zero-range(empty)" }
            if design == .sqlite {
                let page = StoreFileLayout.sqlitePageSize(bytes)
                let start = Int(raw % UInt64(max(1, bytes.count / page))) * page
                let end = min(bytes.count, start + page)
                bytes.replaceSubrange(start..<end, with: repeatElement(0, count: end - start))
                return "zero-page@\(start)+\(end - start)"
            }
            let start = Int(raw % UInt64(bytes.count))
            let end = min(bytes.count, start + length)
            bytes.replaceSubrange(start..<end, with: repeatElement(0, count: end - start))
            return "zero-range@\(start)+\(end - start)"
        case .ghostRecord:
            let offset = StoreFileLayout.mappedHeaderSize + records * StoreFileLayout.recordSize
            guard design == .mappedJournal, offset + StoreFileLayout.recordSize <= bytes.count else { return "ghost-record(no slot)" }
            bytes.replaceSubrange(offset..<(offset + StoreFileLayout.recordSize), with: StoreFileLayout.record(ghost))
            return "ghost-record@slot\(records)"
        }
    }

    /// Where records sit: their first offset, their size, and how many whole ones the file holds
    /// (a mapped journal's committed ones only, so a swap never moves a ghost into the count).
    static func recordGrid(_ bytes: [UInt8], design: DedupeStore.Design, records: Int) -> (start: Int, size: Int, count: Int) {
        let size = StoreFileLayout.recordSize
        switch design {
        case .journal:
            let start = StoreFileLayout.journalHeaderSize
            return (start, size, max(0, bytes.count - start) / size)
        case .mappedJournal:
            let start = StoreFileLayout.mappedHeaderSize
            return (start, size, min(records, max(0, bytes.count - start) / size))
        case .snapshot:
            let start = StoreFileLayout.snapshotHeaderSize
            return (start, 16, max(0, bytes.count - StoreFileLayout.snapshotChecksumSize - start) / 16)
        case .sqlite:
            // Page 1 holds the database header; the swap is among the pages after it.
            let page = StoreFileLayout.sqlitePageSize(bytes)
            return (page, page, max(0, bytes.count / page - 1))
        }
    }

    static func editHeader(
        _ field: Field, value: UInt64, consistent: Bool, in bytes: inout [UInt8], design: DedupeStore.Design
    ) -> String {
        let name = "header-\(field.rawValue)" + (consistent ? "-consistent" : "")
        let word = UInt32(truncatingIfNeeded: value)
        switch design {
        case .journal, .mappedJournal:
            guard bytes.count >= StoreFileLayout.journalHeaderSize else { return name + "(short)" }
            switch field {
            case .magic:
                let offset = Int(value % 8)
                bytes[offset] ^= max(1, UInt8(truncatingIfNeeded: value >> 8))
            case .version:
                StoreDamageMatrix.store32(word, at: 8, in: &bytes)
            case .count where design == .journal:
                StoreDamageMatrix.store32(word, at: 12, in: &bytes)
            case .count:
                guard bytes.count >= StoreFileLayout.mappedHeaderSize else { return name + "(short)" }
                let slots = StoreFileLayout.load64(bytes, StoreFileLayout.mappedSlotsOffset)
                let count = UInt32(truncatingIfNeeded: value % (min(slots, 1 << 20) + 2))
                let stored = consistent ? StoreFileLayout.mappedCountWord(count)
                    : StoreFileLayout.load64(bytes, StoreFileLayout.mappedCountOffset) & 0xffff_ffff_0000_0000 | UInt64(count)
                StoreFileLayout.store64(stored, at: StoreFileLayout.mappedCountOffset, in: &bytes)
                return name + "=\(count)"
            case .checksum:
                StoreDamageMatrix.store32(word, at: 20, in: &bytes)
                return name
            }
            if consistent { StoreFileLayout.refreshJournalHeader(&bytes) }
            return field == .magic ? name : name + "=\(word)"
        case .snapshot:
            guard bytes.count > StoreFileLayout.snapshotHeaderSize + StoreFileLayout.snapshotChecksumSize else { return name + "(short)" }
            var described = name
            switch field {
            case .magic:
                bytes[Int(value % 4)] ^= max(1, UInt8(truncatingIfNeeded: value >> 8))
            case .version:
                bytes[4] = UInt8(truncatingIfNeeded: value)
                described += "=\(bytes[4])"
            case .count:
                bytes[StoreFileLayout.snapshotHeaderSize] = UInt8(truncatingIfNeeded: value)
                described += "=\(bytes[StoreFileLayout.snapshotHeaderSize])"
            case .checksum:
                let end = bytes.count - StoreFileLayout.snapshotChecksumSize
                StoreFileLayout.store64(StoreFileLayout.load64(bytes, end) ^ (value | 1), at: end, in: &bytes)
                return described
            }
            if consistent { StoreFileLayout.refreshSnapshotChecksum(&bytes) }
            return described
        case .sqlite:
            // SQLite's header has no checksum: `consistent` changes only the version (below).
            guard bytes.count >= 100 else { return name + "(short)" }
            switch field {
            case .magic: bytes[Int(value % 16)] ^= max(1, UInt8(truncatingIfNeeded: value >> 8))
            // Half the raw values pick the file format's read or write version (offsets 18 and
            // 19: 1 rollback, 2 WAL), which SQLite checks before any page.
            case .version where value >> 63 == 1:
                let offset = 18 + Int(value >> 62 & 1)
                bytes[offset] = UInt8(value & 3)
                return name + "@\(offset)=\(bytes[offset])"
            // Consistent: the header's `user_version` and the checksummed `meta` row both, as a
            // later library writes them (a database a previous edit damaged gets the header alone).
            case .version where consistent:
                let version = Int(Int32(bitPattern: word))
                if let marked = try? StoreDamageMatrix.markedNewer(bytes, version: version) {
                    bytes = marked
                    return name + "=\(version)"
                }
                StoreFileLayout.storeBigEndian32(word, at: StoreFileLayout.sqliteUserVersionOffset, in: &bytes)
            case .version: StoreFileLayout.storeBigEndian32(word, at: StoreFileLayout.sqliteUserVersionOffset, in: &bytes)
            case .count: StoreFileLayout.storeBigEndian32(word, at: 28, in: &bytes)
            // No checksum either: the file change counter stands in for it.
            case .checksum: StoreFileLayout.storeBigEndian32(word, at: 24, in: &bytes)
            }
            return field == .magic ? name : name + "=\(word)"
        }
    }
}
