import DedupeMeasurement
import Foundation
@_spi(StoreLab) import PushDedupe

/// What each kind of damage to a small store costs: a store of ``ids`` acknowledged ids is
/// damaged (``StoreDamageResult/Kind``), each trial on a fresh copy, then a deduplicator restores
/// it, consumes one more id (a launch, then a push: the moment a store that misread its file
/// would overwrite it), and a second deduplicator restores again and counts the acknowledged ids
/// it does not know. A trial destroys the file when afterwards neither the store's path nor a
/// `.corrupt-N` copy beside it exists, or when a newer version's file has changed.
package enum StoreDamageMatrix {
    /// Ids in the damaged store.
    package static let ids = 16

    /// One damaged file and the indices a restore must still know.
    struct Variant {
        var bytes: [UInt8]
        var expected: Range<Int>
    }

    /// The `kinds` of damage for `design`, in that order; bit flips at every `bitFlipStride`-th byte.
    static func run(
        _ design: DedupeStore.Design, directory: URL, bitFlipStride: Int, kinds: [StoreDamageResult.Kind] = StoreDamageResult.Kind.allCases
    ) throws -> [StoreDamageResult] {
        let pristine = try pristineFile(design, directory: try StoreDesigns.makeDirectory(directory, "pristine"))
        let previous = try pristineFile(design, directory: try StoreDesigns.makeDirectory(directory, "previous"), ids: ids - 1)
        let trialDirectory = try StoreDesigns.makeDirectory(directory, "trial")
        var results: [StoreDamageResult] = []
        for kind in kinds {
            var result = StoreDamageResult(design: design.rawValue, kind: kind, ids: ids, trials: 0, lostMax: 0, lostTotal: 0, destroyed: 0)
            switch try variants(kind, design: design, pristine: pristine, previous: previous, bitFlipStride: bitFlipStride) {
            case .failure(let reason):
                result.notApplicable = reason.message
            case .success(let variants):
                for variant in variants {
                    let (lost, destroyed) = try trial(variant, kind: kind, design: design, in: trialDirectory)
                    result.trials += 1
                    result.lostMax = max(result.lostMax, lost)
                    result.lostTotal += lost
                    if destroyed { result.destroyed += 1 }
                }
            }
            results.append(result)
        }
        return results
    }

    struct NotApplicable: Error {
        var message: String
    }

    /// The damaged files of `kind`, or why the kind does not apply to `design`; `previous` is
    /// the store one consume earlier.
    static func variants(
        _ kind: StoreDamageResult.Kind, design: DedupeStore.Design, pristine: [UInt8], previous: [UInt8], bitFlipStride: Int
    ) throws(MeasurementError) -> Result<[Variant], NotApplicable> {
        let all = 0..<ids
        switch kind {
        case .tornTail:
            switch design {
            case .journal:
                // The last record cut to each length: a write a kill interrupted, never acknowledged.
                return .success((0..<recordSize).map { Variant(bytes: Array(pristine.dropLast(recordSize - $0)), expected: 0..<(ids - 1)) })
            case .mappedJournal:
                // The last record copied in part, its count never stored: the file one consume
                // earlier with the record's first bytes in its slot.
                let record = mappedHeaderSize + (ids - 1) * recordSize
                guard previous.count == pristine.count else {
                    throw .stageFailed("stores: damage of \(design.rawValue): the store grew between its last two consumes")
                }
                return .success((0..<recordSize).map { length in
                    var bytes = previous
                    bytes[record..<(record + length)] = pristine[record..<(record + length)]
                    return Variant(bytes: bytes, expected: 0..<(ids - 1))
                })
            case .snapshot:
                return .failure(NotApplicable(message: "written whole to a temporary file renamed over the store: a kill leaves the old file or the new one"))
            case .sqlite:
                return .failure(NotApplicable(message: "torn log frames are SQLite's own recovery (frame checksums), not simulated"))
            }
        case .bitFlip:
            return .success(stride(from: 0, to: pristine.count, by: max(1, bitFlipStride)).map { offset in
                var bytes = pristine
                bytes[offset] ^= UInt8(1) << UInt8(offset % 8)
                return Variant(bytes: bytes, expected: all)
            })
        case .truncatedHeader:
            // Every record goes with the header: nothing can be recovered, and the file must be kept.
            return .success((0..<headerSize(design)).map { Variant(bytes: Array(pristine.prefix($0)), expected: 0..<0) })
        case .newerVersion:
            var bytes = pristine
            switch design {
            case .journal, .mappedJournal:
                // Version 2 with a header checksum that holds: a valid file of a later format.
                guard journalHeaderChecksum(bytes) == load32(bytes, 20) else {
                    throw .stageFailed("stores: damage of \(design.rawValue): the header checksum is not the format's")
                }
                store32(2, at: 8, in: &bytes)
                store32(journalHeaderChecksum(bytes), at: 20, in: &bytes)
            case .snapshot:
                // Version 2 with a checksum that holds: the framing is the same in every version.
                bytes[4] = 2
                let checksum = DeterministicHashing.fnv1a64(bytes.dropLast(8))
                bytes.replaceSubrange((bytes.count - 8)..., with: withUnsafeBytes(of: checksum.littleEndian) { Array($0) })
            case .sqlite:
                // Version 99 in the header's `user_version` and the checksummed `meta` row, which
                // must agree: either alone is damage.
                bytes = try markedNewer(pristine, version: 99)
            }
            return .success([Variant(bytes: bytes, expected: 0..<0)])
        }
    }

    /// A SQLite store file marked as schema `version`, as a later library writes it.
    package static func markedNewer(_ database: [UInt8], version: Int) throws(MeasurementError) -> [UInt8] {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("dedupe-newer-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: url) }
        do {
            try Data(database).write(to: url)
            try SQLiteStore.markSchemaVersion(version, ofDatabaseAt: url)
            return [UInt8](try Data(contentsOf: url))
        } catch {
            throw .stageFailed("stores: damage of sqlite: cannot mark a newer version: \(error)")
        }
    }

    /// Writes `variant` as the store, restores, consumes one id, restores again; returns the
    /// expected ids the second restore does not know and whether the file was destroyed.
    static func trial(
        _ variant: Variant, kind: StoreDamageResult.Kind, design: DedupeStore.Design, in directory: URL
    ) throws -> (lost: Int, destroyed: Bool) {
        let manager = FileManager.default
        for name in try manager.contentsOfDirectory(atPath: directory.path) {
            try manager.removeItem(at: directory.appendingPathComponent(name))
        }
        let url = StoreDesigns.file(in: directory)
        try StoreDesigns.writeFile(url.path, variant.bytes)
        let store = StoreDesigns.store(design, at: url, durability: .processKill)
        do {
            let launched = try StoreDesigns.deduplicator(retained: 2 * ids, store: store)
            _ = launched.receiveEmit(pushID: "extra")
        }
        let relaunched = try StoreDesigns.deduplicator(retained: 2 * ids, store: store)
        let consumed = relaunched.pipeline.consumed
        let lost = variant.expected.filter { !consumed.contains(EnvelopeID(token: "d-\($0)")) }.count
        let names = try manager.contentsOfDirectory(atPath: directory.path)
        var destroyed = !manager.fileExists(atPath: url.path) && !names.contains { $0.contains(".corrupt-") }
        if kind == .newerVersion { destroyed = destroyed || (try? Data(contentsOf: url)) != Data(variant.bytes) }
        return (lost, destroyed)
    }

    /// A store of `d-0` … `d-15` (or the first `count`), written by a deduplicator and closed
    /// (SQLite's log checkpointed into the database), as bytes.
    package static func pristineFile(_ design: DedupeStore.Design, directory: URL, ids count: Int = ids) throws -> [UInt8] {
        let url = StoreDesigns.file(in: directory)
        do {
            let dedupe = try StoreDesigns.deduplicator(retained: 2 * ids, store: StoreDesigns.store(design, at: url, durability: .processKill))
            for index in 0..<count { _ = dedupe.receiveEmit(pushID: "d-\(index)") }
        }
        guard !FileManager.default.fileExists(atPath: url.path + "-wal") else {
            throw MeasurementError.stageFailed("stores: damage of \(design.rawValue): the database's log was not checkpointed at close")
        }
        return Array(try Data(contentsOf: url))
    }

    package static let recordSize = 24
    package static let mappedHeaderSize = 64

    /// The bytes before a design's first id: the journal's and the mapped journal's headers, the
    /// snapshot's framing up to its payload (`PDCS`, version, `fifo-set`'s id), SQLite's header.
    package static func headerSize(_ design: DedupeStore.Design) -> Int {
        switch design {
        case .journal: recordSize
        case .mappedJournal: mappedHeaderSize
        case .snapshot: 4 + 1 + 1 + FIFOSet.strategyID.utf8.count
        case .sqlite: 100
        }
    }

    /// The journal header's checksum (`_JournalFormat`): FNV-1a 64 of bytes 0..<20, mixed, low 32 bits.
    package static func journalHeaderChecksum(_ bytes: [UInt8]) -> UInt32 {
        let hash = bytes[0..<20].reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3 }
        return UInt32(truncatingIfNeeded: DeterministicHashing.mix64(hash))
    }

    package static func load32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * UInt32($1)) }
    }

    package static func store32(_ value: UInt32, at offset: Int, in bytes: inout [UInt8]) {
        for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(index))) }
    }
}
