import Foundation
@testable import PushDedupe
import Testing

/// One store design at one durability, opened the way a deduplicator opens it
/// (`DedupeStore.open(retaining:)`). The designs come from the catalogue, `DedupeStore.Design`,
/// so a new design cannot be left out of these tests.
struct StoreSubject: Sendable, Hashable, CustomStringConvertible {
    let design: DedupeStore.Design
    let durability: StoreDurability

    var description: String { "\(design)/\(durability)" }

    /// Every design, kill durability (the default).
    static let every = DedupeStore.Design.allCases.map { StoreSubject(design: $0, durability: .processKill) }
    /// Every design at both durabilities.
    static let everyDurability = DedupeStore.Design.allCases.flatMap { design in
        StoreDurability.allCases.map { StoreSubject(design: design, durability: $0) }
    }
    /// The designs that record each consume and share a file between two processes: all but
    /// the snapshot, whose whole-state writes are last-writer-wins by design.
    static let appending = every.filter { $0.design != .snapshot }
    /// The two journal formats, whose byte layout the recovery tests damage.
    static let journals = [StoreSubject(design: .journal, durability: .processKill), StoreSubject(design: .mappedJournal, durability: .processKill)]

    /// The deduplicator's store description for `url`.
    func dedupeStore(_ url: URL, faults: StoreFaults? = nil) -> DedupeStore {
        switch design {
        case .snapshot: .snapshot(url, durability: durability, faults: faults)
        case .journal: .journal(url, durability: durability, faults: faults)
        case .mappedJournal: .mappedJournal(url, durability: durability, faults: faults)
        case .sqlite: .sqlite(url, durability: durability, faults: faults)
        }
    }

    /// The store itself, retaining `retained` ids.
    func open(_ url: URL, retained: Int, faults: StoreFaults? = nil) throws -> any ConsumedStore {
        try #require(dedupeStore(url, faults: faults).open(retaining: retained))
    }

    /// Whether `load()` returns the file's records as they are, so that the journal model
    /// predicts them exactly; SQLite keeps one row per id, and the snapshot one set.
    var keepsEveryRecord: Bool { design == .journal || design == .mappedJournal }

    /// The most ids a load may return, after appends of at most `batch` ids each: a journal
    /// compacts once it holds twice `retained`; SQLite deletes down to `retained` every
    /// `retained` inserts.
    func mostHeld(retained: Int, batch: Int) -> Int {
        design == .snapshot ? retained : 2 * retained + batch
    }
}

/// The plain model every store is checked against: an array of ids appended, oldest first.
struct StoreModel {
    let retained: Int
    let compactionFactor = 2
    /// Every id appended since the last replace, oldest first.
    private(set) var history: [EnvelopeID] = []
    /// What a journal holds: the history, cut to its newest `retained` distinct ids whenever it
    /// reaches `compactionFactor` × `retained` records.
    private(set) var journal: [EnvelopeID] = []

    init(retained: Int) {
        self.retained = retained
    }

    mutating func append(_ ids: [EnvelopeID]) {
        guard !ids.isEmpty else { return }
        history += ids
        journal += ids
        if journal.count >= compactionFactor * retained { journal = Self.newestDistinct(journal, keep: retained) }
    }

    mutating func replace(with ids: [EnvelopeID]) {
        history = ids
        journal = ids
    }

    /// What every store must give back, in this order, once a deduplicator restores it into a
    /// set of `retained` ids: the newest `retained` distinct ids appended.
    var kept: [EnvelopeID] { Self.newestDistinct(history, keep: retained) }

    static func newestDistinct(_ ids: [EnvelopeID], keep: Int) -> [EnvelopeID] {
        var seen = Set<EnvelopeID>()
        var newestFirst: [EnvelopeID] = []
        for id in ids.reversed() {
            if newestFirst.count == keep { break }
            if seen.insert(id).inserted { newestFirst.append(id) }
        }
        return newestFirst.reversed()
    }
}

/// Test ids whose high halves use every bit, the sign bit included (SQLite stores them signed).
func storeID(_ number: Int) -> EnvelopeID {
    EnvelopeID(high: UInt64(number) &* 0x9E37_79B9_7F4A_7C15, low: UInt64(number))
}

/// A FIFO set's snapshot holding `ids`, oldest first: what a deduplicator hands the snapshot
/// design.
func fifoSnapshot(_ ids: [EnvelopeID], capacity: Int) throws -> [UInt8] {
    var set = try FIFOSet(configuration: .init(capacity: capacity))
    for id in ids { _ = set.consume(id, at: .zero) }
    return set.snapshot()
}

/// The ids a load returned, oldest first; a snapshot's through the FIFO set that wrote it.
func loadedIDs(_ store: any ConsumedStore) throws -> [EnvelopeID] {
    switch try store.load().contents {
    case .nothing: []
    case .ids(let ids): ids
    case .snapshot(let bytes): try FIFOSet._snapshotIDs(bytes)
    }
}

/// The ids a deduplicator's FIFO set holds, oldest first.
func heldIDs(_ set: FIFOSet) throws -> [EnvelopeID] {
    try FIFOSet._snapshotIDs(set.snapshot())
}

/// The bytes of the file at `path`, or `nil` when there is none.
func fileBytes(_ path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { [UInt8]($0) }
}

/// The names in `directory` with their sizes, sorted: what a store left in its folder.
func folderListing(_ directory: URL) throws -> [(name: String, size: Int)] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted().map { name in
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)
        return (name, (attributes[.size] as? NSNumber)?.intValue ?? 0)
    }
}

/// The files in `directory` whose names say a store moved or copied them aside.
func corruptCopies(in directory: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".corrupt-") && !$0.hasSuffix(".tmp") }.sorted()
}

extension _JournalFormat {
    /// A valid header of format `version`: a file a later library version wrote.
    static func header(magic: [UInt8], version: UInt32, size: Int) -> [UInt8] {
        var bytes = header(magic: magic, retained: 0, size: size)
        bytes.withUnsafeMutableBytes { buffer in
            store(version, at: 8, in: buffer)
            store(checksum(UnsafeRawBufferPointer(buffer), 0..<20), at: 20, in: buffer)
        }
        return bytes
    }
}

/// The header size of a journal design's file.
func journalHeaderSize(_ design: DedupeStore.Design) -> Int {
    design == .mappedJournal ? MappedJournalStore.headerSize : _JournalFormat.headerSize
}

/// A fresh directory for a store's files, `defer { directory.remove() }`: in memory (`/dev/shm`)
/// where the system has one, because these tests check what a store does, and a disk's
/// `fsync` (milliseconds each on a virtual disk) would only slow them; the temporary directory
/// elsewhere.
struct StoreDirectory {
    let url: URL

    init() throws {
        let memory = "/dev/shm"
        let base = access(memory, W_OK) == 0 ? URL(fileURLWithPath: memory) : FileManager.default.temporaryDirectory
        url = base.appendingPathComponent("pushdedupe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// Writes `bytes` as the whole file at `url` with one `write(2)` and no flush (Foundation's
/// `Data.write` flushes every file).
func writeFile(_ contents: some Sequence<UInt8>, to url: URL) throws {
    let bytes = Array(contents)
    let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    defer { close(fd) }
    let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    guard written == bytes.count else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
}
