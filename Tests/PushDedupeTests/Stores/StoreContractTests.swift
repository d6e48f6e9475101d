import Foundation
@testable import PushDedupe
import Testing

/// The store contract where two stores meet, a file is damaged, or the app and its extension
/// disagree. Two stores are interleaved deterministically on one thread: the first store's
/// `StoreFaults` hook runs the second store's whole operation just before one of the first's
/// steps (`StoreFaults.interleaving`), so each race below is the same race every run.
@Suite struct StoreContractTests {
    typealias Dedupe = SharedDeduplicator<HashDequeWindow, FIFOSet>

    /// A launch with a FIFO set of `capacity` (a valid one: the init cannot throw here).
    static func launch(_ subject: StoreSubject, _ url: URL, faults: StoreFaults? = nil, capacity: Int = 8) -> Dedupe {
        do {
            return try SharedDeduplicator(
                window: HashDequeWindow(preset: .compact), consumed: .init(capacity: capacity),
                store: subject.dedupeStore(url, faults: faults), clock: .manual(ManualClock()))
        } catch {
            preconditionFailure("a FIFO set of capacity \(capacity): \(error)")
        }
    }

    /// Whether a relaunch knows `pushID` (probing consumes it, so probe each id once).
    static func knows(_ dedupe: Dedupe, _ pushID: String) -> Bool {
        dedupe.receiveEmit(pushID: pushID) == .suppressedByConsumedSet
    }

    /// Two stores in one process create the file at once: each used to build it through the
    /// temporary `NAME.creating-<pid>`, so the second unlinked the first's before its `link`,
    /// whose append then failed.
    @Test(arguments: StoreSubject.journals)
    func twoStoresCreatingTheFileAtOnceBothAppend(_ subject: StoreSubject) throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.store")
        let other = Shared([try subject.open(url, retained: 8)])
        let interleaving = Interleaving(before: .rename) {
            #expect(throws: Never.self) { try other.value[0].append([storeID(2)], snapshot: { [] }) }
        }
        let first = try subject.open(url, retained: 8, faults: interleaving.faults)
        try first.append([storeID(1)], snapshot: { [] })
        #expect(interleaving.ran)
        let loaded = try loadedIDs(try subject.open(url, retained: 8))
        #expect(Set(loaded) == [storeID(1), storeID(2)], "\(subject): \(loaded.map(\.low))")
    }

    /// Two first launches over a v2 snapshot (the app and its extension, woken by one push): the
    /// second migrates and appends its push between the first's read and its write. The first
    /// used to rename its journal over the second's, losing that acknowledged push.
    @Test(arguments: StoreSubject.appending)
    func twoLaunchesMigratingAtOnceLoseNothing(_ subject: StoreSubject) throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.store")
        try writeFile(try fifoSnapshot((1...3).map(storeID), capacity: 8), to: url)
        let interleaving = Interleaving(before: .open, afterFirst: .read) {
            let extensionLaunch = Self.launch(subject, url)
            #expect(extensionLaunch.restoreOutcome.isRestored, "\(subject): \(extensionLaunch.restoreOutcome)")
            #expect(extensionLaunch.receiveEmit(pushID: "extension") == .navigated && extensionLaunch.counters.failedSaves == 0)
        }
        let app = Self.launch(subject, url, faults: interleaving.faults)
        #expect(interleaving.ran)
        #expect(app.restoreOutcome.isRestored, "\(subject): \(app.restoreOutcome)")
        #expect(app.receiveEmit(pushID: "app") == .navigated && app.counters.failedSaves == 0)
        let relaunched = Self.launch(subject, url)
        for pushID in ["extension", "app"] { #expect(Self.knows(relaunched, pushID), "\(subject): \(pushID) was lost") }
        for id in (1...3).map(storeID) { #expect(relaunched.pipeline.consumed.contains(id), "\(subject): migrated id \(id.low) lost") }
    }

    /// A salvage of a damaged header races another launch that salvages and appends first: the
    /// other launch's push is kept, and the damaged file is copied aside once.
    @Test(arguments: StoreSubject.journals)
    func aSalvageRacingAnotherLaunchLosesNothing(_ subject: StoreSubject) throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.store")
        let damaged = try Self.damagedHeader(subject, url, ids: (1...3).map(storeID))
        let interleaving = Interleaving(before: .open, afterFirst: .read) {
            let extensionLaunch = Self.launch(subject, url)
            #expect(extensionLaunch.receiveEmit(pushID: "extension") == .navigated && extensionLaunch.counters.failedSaves == 0)
        }
        let app = Self.launch(subject, url, faults: interleaving.faults)
        #expect(interleaving.ran)
        #expect(app.receiveEmit(pushID: "app") == .navigated && app.counters.failedSaves == 0)
        let relaunched = Self.launch(subject, url)
        for pushID in ["extension", "app"] { #expect(Self.knows(relaunched, pushID), "\(subject): \(pushID) was lost") }
        for id in (1...3).map(storeID) { #expect(relaunched.pipeline.consumed.contains(id), "\(subject): salvaged id \(id.low) lost") }
        #expect(try corruptCopies(in: directory.url) == ["consumed.store.corrupt-1"])
        #expect(fileBytes(url.path + ".corrupt-1") == damaged)
    }

    /// A full disk while a salvage writes the new file: the damaged file stays where it was, so
    /// the retry salvages every id; the failed tries leave one copy aside, not one per try.
    @Test(arguments: StoreSubject.journals)
    func aSalvageThatCannotWriteLosesNoIDAndCopiesOnce(_ subject: StoreSubject) throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.store")
        let damaged = try Self.damagedHeader(subject, url, ids: (1...3).map(storeID))
        // The first write is the copy aside; the next two, the salvaged file's, meet a full disk.
        let app = Self.launch(subject, url, faults: .failing(.write, errno: ENOSPC, occurrences: [2, 3]))
        guard case .pending = app.restoreOutcome else {
            Issue.record("\(subject): \(app.restoreOutcome)")
            return
        }
        _ = app.retryRestore()
        #expect(!app.restoreOutcome.isRestored, "\(subject): \(app.restoreOutcome)")
        _ = app.retryRestore()
        #expect(app.restoreOutcome == .restored(ids: 3), "\(subject): \(app.restoreOutcome)")
        #expect(try corruptCopies(in: directory.url) == ["consumed.store.corrupt-1"])
        #expect(fileBytes(url.path + ".corrupt-1") == damaged)
        let relaunched = Self.launch(subject, url)
        #expect(relaunched.restoreOutcome == .restored(ids: 3), "\(subject): \(relaunched.restoreOutcome)")
    }

    /// An extension whose set is smaller shares the file: its compactions keep as many ids as
    /// the app's set retains, which the file records.
    @Test(arguments: StoreSubject.appending)
    func aSmallerSharerNeverCompactsAwayTheLargerOnesIDs(_ subject: StoreSubject) throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.store")
        let app = Self.launch(subject, url, capacity: 64)
        let appIDs = (0..<60).map { "app-\($0)" }
        for pushID in appIDs { #expect(app.receiveEmit(pushID: pushID) == .navigated) }
        let extensionLaunch = Self.launch(subject, url, capacity: 4)
        for index in 0..<40 { #expect(extensionLaunch.receiveEmit(pushID: "extension-\(index)") == .navigated) }
        #expect(extensionLaunch.counters.failedSaves == 0)
        let relaunched = Self.launch(subject, url, capacity: 64)
        let known = (appIDs.suffix(24) + (0..<40).map { "extension-\($0)" }).filter { Self.knows(relaunched, $0) }.count
        #expect(known == 64, "\(subject): \(known) of the newest 64 ids known")
    }

    /// Anything but a regular file at the path is left untouched, never followed, waited on or
    /// written: a dangling symbolic link (a journal used to spin on open ENOENT and link
    /// EEXIST), a link to a store elsewhere, and a fifo (opening one blocks until a writer
    /// comes).
    @Test(arguments: StoreSubject.every)
    func whatIsNotARegularFileIsLeftUntouched(_ subject: StoreSubject) throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let elsewhere = directory.file("elsewhere.store")
        let stored = Self.launch(subject, elsewhere)
        _ = stored.receiveEmit(pushID: "elsewhere")
        let before = fileBytes(elsewhere.path)
        for kind in ["dangling", "link", "fifo"] {
            let url = directory.file("\(kind).store")
            switch kind {
            case "dangling": try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: directory.file("nothing").path)
            case "link": try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: elsewhere.path)
            default: #expect(mkfifo(url.path, 0o600) == 0)
            }
            let finished = DispatchSemaphore(value: 0)
            let outcome = Locked<String>("")
            Thread.detachNewThread {
                let dedupe = Self.launch(subject, url)
                let decision = dedupe.receiveEmit(pushID: "push")
                outcome.value = "\(dedupe.restoreOutcome) / \(decision) / refused \(dedupe.counters.refusedWrites)"
                finished.signal()
            }
            #expect(finished.wait(timeout: .now() + 10) == .success, "\(subject) \(kind): the launch hung")
            #expect(outcome.value.hasPrefix("left untouched") && outcome.value.contains("navigated"), "\(subject) \(kind): \(outcome.value)")
            var info = stat()
            #expect(lstat(url.path, &info) == 0 && info.st_mode & S_IFMT != S_IFREG, "\(subject) \(kind): the path was replaced")
        }
        #expect(fileBytes(elsewhere.path) == before, "\(subject): the link's target was written")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.contains(".corrupt-") }.isEmpty)
    }

    /// A snapshot whose version byte is damaged reads as damage (the checksum fails), not as a
    /// newer version that would disable the store for the app's life.
    @Test func aDamagedSnapshotVersionIsDamageNotANewerVersion() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.pdcs")
        let subject = StoreSubject(design: .snapshot, durability: .processKill)
        _ = Self.launch(subject, url).receiveEmit(pushID: "stored")
        var bytes = try #require(fileBytes(url.path))
        bytes[_SnapshotFormat.magic.count] = _SnapshotFormat.version + 1
        try writeFile(bytes, to: url)
        let dedupe = Self.launch(subject, url)
        guard case .movedAside = dedupe.restoreOutcome else {
            Issue.record("\(dedupe.restoreOutcome)")
            return
        }
        #expect(dedupe.receiveEmit(pushID: "next") == .navigated && dedupe.counters.saves == 1)
        #expect(Self.knows(Self.launch(subject, url), "next"))
    }

    /// A mapped journal whose header is damaged is salvaged up to its count: a record copied in
    /// by a consume that never returned, past the count, is not taken for consumed.
    @Test func aMappedSalvageStopsAtTheCount() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.pdmj")
        var bytes = MappedJournalStore.file((1...3).map(storeID), slots: 8, retained: 8)
        bytes.withUnsafeMutableBytes { _JournalFormat.encode(storeID(4), into: $0, at: MappedJournalStore.headerSize + 3 * _JournalFormat.recordSize) }
        bytes[0] ^= 0x01
        try writeFile(bytes, to: url)
        let loaded = try loadedIDs(try StoreSubject(design: .mappedJournal, durability: .processKill).open(url, retained: 8))
        #expect(loaded == (1...3).map(storeID), "\(loaded.map(\.low))")
    }

    /// A mapped compaction clears the slots past its new count, so that a later salvage cannot
    /// replay them after newer records (the set would keep the oldest ids and drop the newest).
    @Test func aMappedCompactionLeavesNoStaleSlot() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.pdmj")
        let store = try StoreSubject(design: .mappedJournal, durability: .processKill).open(url, retained: 2)
        for number in 1...4 { try store.append([storeID(number)], snapshot: { [] }) }
        #expect(store.compactions == 1)
        var bytes = try #require(fileBytes(url.path))
        let slots = bytes.withUnsafeBytes { buffer in
            (0..<((bytes.count - MappedJournalStore.headerSize) / _JournalFormat.recordSize)).filter {
                _JournalFormat.decode(buffer, at: MappedJournalStore.headerSize + $0 * _JournalFormat.recordSize) != nil
            }
        }
        #expect(slots == [0, 1], "valid records in slots \(slots)")
        bytes[MappedJournalStore.countOffset] ^= 0x01
        try writeFile(bytes, to: url)
        let loaded = try loadedIDs(try StoreSubject(design: .mappedJournal, durability: .processKill).open(url, retained: 2))
        #expect(loaded == [storeID(3), storeID(4)], "\(loaded.map(\.low))")
    }

    /// A journal whose damaged header happens to start with a snapshot's magic bytes is
    /// salvaged, not taken for a snapshot and moved aside with its records.
    @Test(arguments: StoreSubject.journals)
    func aJournalStartingWithTheSnapshotMagicIsSalvaged(_ subject: StoreSubject) throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.store")
        let store = try subject.open(url, retained: 8)
        try store.append((1...3).map(storeID), snapshot: { [] })
        var bytes = try #require(fileBytes(url.path))
        bytes.replaceSubrange(0..<_SnapshotFormat.magic.count, with: _SnapshotFormat.magic)
        try writeFile(bytes, to: url)
        let dedupe = Self.launch(subject, url)
        #expect(dedupe.restoreOutcome == .restored(ids: 3), "\(subject): \(dedupe.restoreOutcome)")
    }

    /// Writes a store of `subject`'s journal design holding `ids` with its header damaged, and
    /// returns the damaged bytes.
    static func damagedHeader(_ subject: StoreSubject, _ url: URL, ids: [EnvelopeID]) throws -> [UInt8] {
        let store = try subject.open(url, retained: 8)
        try store.append(ids, snapshot: { [] })
        var bytes = try #require(fileBytes(url.path))
        bytes[9] ^= 0x40
        try writeFile(bytes, to: url)
        return bytes
    }
}

/// A value shared with another thread.
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// Another store's operation, run once from inside a store's fault hook: a deterministic
/// interleaving of two stores on one thread.
final class Interleaving: @unchecked Sendable {
    private let lock = NSLock()
    private var afterFirst: StoreFaults.Step?
    private let before: StoreFaults.Step
    private let other: @Sendable () -> Void
    private var didRun = false

    /// Runs `other` just before the store's first `before` step that comes after its first
    /// `afterFirst` step, when given.
    init(before: StoreFaults.Step, afterFirst: StoreFaults.Step? = nil, _ other: @escaping @Sendable () -> Void) {
        self.before = before
        self.afterFirst = afterFirst
        self.other = other
    }

    /// Whether the other operation ran.
    var ran: Bool { lock.withLock { didRun } }

    /// The hook for the store whose step the other operation goes before.
    var faults: StoreFaults {
        StoreFaults { step, _ in
            if self.isDue(step) { self.other() }
            return nil
        }
    }

    private func isDue(_ step: StoreFaults.Step) -> Bool {
        lock.withLock {
            guard !didRun else { return false }
            if let trigger = afterFirst {
                if step == trigger { afterFirst = nil }
                return false
            }
            guard step == before else { return false }
            didRun = true
            return true
        }
    }
}

extension StoreFaults {
    /// Fails the `occurrences` of steps of kind `step` (counted from 1) with `errno`.
    static func failing(_ step: Step, errno code: Int32, occurrences: Set<Int>) -> StoreFaults {
        let seen = Locked(0)
        return StoreFaults { kind, _ in
            guard kind == step else { return nil }
            seen.value += 1
            return occurrences.contains(seen.value) ? .fail(errno: code) : nil
        }
    }
}
