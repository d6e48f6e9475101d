import Foundation
@testable import PushDedupe
import Testing

/// The two journal formats damaged byte by byte: a torn tail, a bit flipped anywhere, a
/// truncated header. No file is ever destroyed, and at most the damaged record's id is lost.
@Suite struct JournalRecoveryTests {
    static let ids = (1...4).map(storeID)

    /// A journal design's file holding `ids`, written by the store.
    static func written(_ subject: StoreSubject, _ url: URL, ids: [EnvelopeID] = ids) throws -> [UInt8] {
        try subject.open(url, retained: 100).append(ids, snapshot: { [] })
        return try #require(fileBytes(url.path))
    }

    /// The last record cut at every length: a write a kill interrupted. The earlier records are
    /// all restored, the tail is cut, nothing is copied aside, and the next append is aligned.
    @Test func aTornTailIsCutAtEveryLength() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let subject = StoreSubject(design: .journal, durability: .processKill)
        let whole = try Self.written(subject, directory.file("whole.pdcs"))
        let kept = _JournalFormat.headerSize + 3 * _JournalFormat.recordSize
        for torn in 1..<_JournalFormat.recordSize {
            let url = directory.file("torn-\(torn).pdcs")
            try writeFile(whole.prefix(kept + torn), to: url)
            let store = try subject.open(url, retained: 100)
            let load = try store.load()
            #expect(load.contents == .ids(Array(Self.ids.prefix(3))), "torn at \(torn)")
            #expect(load.repairs == [.truncatedTornTail(bytes: torn)], "torn at \(torn)")
            #expect(fileBytes(url.path) == Array(whole.prefix(kept)), "torn at \(torn): the tail is cut, the rest unchanged")
            try store.append([storeID(9)], snapshot: { [] })
            #expect(try loadedIDs(try subject.open(url, retained: 100)) == Self.ids.prefix(3) + [storeID(9)], "torn at \(torn)")
        }
        #expect(try corruptCopies(in: directory.url).isEmpty)
    }

    /// A whole unreadable record at the end (zeros a crash left, or a flipped acknowledged
    /// record) is copied aside before the compaction that drops it.
    @Test func aWholeBadRecordAtTheEndIsCopiedAsideBeforeItIsCut() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let subject = StoreSubject(design: .journal, durability: .processKill)
        let url = directory.file("consumed.pdcs")
        let damaged = try Self.written(subject, url) + [UInt8](repeating: 0, count: _JournalFormat.recordSize)
        try writeFile(damaged, to: url)
        let load = try subject.open(url, retained: 100).load()
        #expect(load.contents == .ids(Self.ids))
        #expect(load.repairs == [.skippedDamagedRecords(count: 1, copy: url.path + ".corrupt-1")])
        #expect(fileBytes(url.path + ".corrupt-1") == damaged)
        #expect(fileBytes(url.path) == Array(damaged.dropLast(_JournalFormat.recordSize)), "the bad record is gone, the rest as it was")
    }

    /// One bit flipped, every bit of the header and of every record: the file as it was survives
    /// (in place, or copied or moved aside), a header flip loses no id, and a record flip loses
    /// that record's id only.
    @Test(arguments: StoreSubject.journals)
    func aFlippedBitLosesAtMostItsRecord(_ subject: StoreSubject) throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let header = journalHeaderSize(subject.design)
        let whole = try Self.written(subject, directory.file("whole.store"))
        let used = header + Self.ids.count * _JournalFormat.recordSize
        var file = 0
        for offset in 0..<used {
            for bit in 0..<8 {
                file += 1
                let url = directory.file("\(file).store")
                var flipped = whole
                flipped[offset] ^= 1 << bit
                try writeFile(flipped, to: url)
                let loaded = try loadedIDs(try subject.open(url, retained: 100))
                let damagedRecord = offset < header ? nil : (offset - header) / _JournalFormat.recordSize
                let allowed = damagedRecord.map { index in Self.ids.enumerated().filter { $0.offset != index }.map(\.element) } ?? Self.ids
                #expect(
                    loaded == allowed || loaded == Self.ids,
                    "\(subject) byte \(offset) bit \(bit): restored \(loaded.map(\.low))")
                let kept = [url.path] + (1...3).map { "\(url.path).corrupt-\($0)" }
                #expect(kept.contains { fileBytes($0) == flipped }, "\(subject) byte \(offset) bit \(bit): the damaged file is gone")
            }
        }
    }

    /// A header cut at every length, down to an empty file: moved aside byte for byte, and a
    /// new journal starts.
    @Test(arguments: StoreSubject.journals)
    func aTruncatedHeaderIsMovedAside(_ subject: StoreSubject) throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let whole = try Self.written(subject, directory.file("whole.store"))
        for length in 0..<journalHeaderSize(subject.design) {
            let url = directory.file("cut-\(length).store")
            try writeFile(whole.prefix(length), to: url)
            let store = try subject.open(url, retained: 100)
            let load = try store.load()
            #expect(load.contents == .ids([]) || load.contents == .nothing, "\(subject) cut at \(length)")
            guard case .movedAside(let movedTo, _)? = load.repairs.first, load.repairs.count == 1 else {
                Issue.record("\(subject) cut at \(length): \(load.repairs)")
                continue
            }
            #expect(movedTo == url.path + ".corrupt-1" && fileBytes(movedTo) == Array(whole.prefix(length)))
            try store.append([storeID(9)], snapshot: { [] })
            #expect(try loadedIDs(try subject.open(url, retained: 100)) == [storeID(9)], "\(subject) cut at \(length)")
        }
    }

    /// A damaged record in the middle is copied aside once; the relaunches after it find a
    /// clean file instead of copying it again at every launch until a compaction.
    @Test(arguments: StoreSubject.journals)
    func aDamagedRecordIsCopiedAsideOnce(_ subject: StoreSubject) throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.store")
        var bytes = try Self.written(subject, url)
        bytes[journalHeaderSize(subject.design) + _JournalFormat.recordSize + 3] ^= 0x20
        try writeFile(bytes, to: url)
        let expected = [Self.ids[0], Self.ids[2], Self.ids[3]]
        let first = try subject.open(url, retained: 100).load()
        #expect(first.contents == .ids(expected))
        #expect(first.repairs == [.skippedDamagedRecords(count: 1, copy: url.path + ".corrupt-1")])
        for _ in 0..<3 {
            let again = try subject.open(url, retained: 100).load()
            #expect(again.contents == .ids(expected) && again.repairs.isEmpty, "\(subject): \(again.repairs)")
        }
        #expect(try corruptCopies(in: directory.url) == ["consumed.store.corrupt-1"])
    }

    /// The mapped journal's count commits its records: a record copied in by a consume that a
    /// kill ended before the count was stored is not restored, and the next append takes its
    /// slot.
    @Test func aMappedRecordTheCountDoesNotCoverIsNotRestored() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let subject = StoreSubject(design: .mappedJournal, durability: .processKill)
        let url = directory.file("consumed.pdmj")
        var bytes = try Self.written(subject, url, ids: Array(Self.ids.prefix(3)))
        #expect(MappedJournalStore.count(in: bytes.withUnsafeBytes { _JournalFormat.load64($0, MappedJournalStore.countOffset) }) == 3)
        let slot = MappedJournalStore.headerSize + 3 * _JournalFormat.recordSize
        bytes.withUnsafeMutableBytes { _JournalFormat.encode(storeID(99), into: $0, at: slot) }
        try writeFile(bytes, to: url)
        let store = try subject.open(url, retained: 100)
        #expect(try store.load() == StoreLoad(.ids(Array(Self.ids.prefix(3)))))
        try store.append([storeID(4)], snapshot: { [] })
        #expect(try loadedIDs(try subject.open(url, retained: 100)) == Self.ids)
    }
}

/// A mapped compaction killed after it copied some kept records forward leaves them in two
/// slots, the copy first; the restore keeps each id at its last record, so the copies do not
/// make the newest ids look oldest to a FIFO set.
@Suite struct InterruptedCompactionTests {
    @Test func aKeptIDCopiedForwardIsRestoredAtItsOwnPlace() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.pdmj")
        let ids = (1...4).map(storeID)
        // Retained 2: a compaction keeps ids 3 and 4 and copies them to slots 0 and 1; killed
        // after the first copy, with the count still 4.
        var bytes = MappedJournalStore.file(ids, slots: 8, retained: 2)
        bytes.withUnsafeMutableBytes { _JournalFormat.encode(ids[2], into: $0, at: MappedJournalStore.headerSize) }
        try writeFile(bytes, to: url)
        let dedupe = try SharedDeduplicator<HashDequeWindow, FIFOSet>(
            window: HashDequeWindow(preset: .compact), consumed: .init(capacity: 2), store: .mappedJournal(url),
            clock: .manual(ManualClock()))
        #expect(dedupe.pipeline.consumed.contains(ids[2]) && dedupe.pipeline.consumed.contains(ids[3]))
    }
}
