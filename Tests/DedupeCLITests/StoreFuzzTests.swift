import Foundation
import PushDedupe
import Testing
@testable import DedupeFuzz

/// `dedupe-fuzz stores`: its inputs are a function of the seed, the design and the index, its
/// verdict flags planted losses and inventions (on hand-made observations of a hand-made
/// journal), and a small round runs end to end the same way twice.
@Suite struct StoreFuzzTests {
    @Test(arguments: DedupeStore.Design.allCases)
    func inputsAreAFunctionOfTheSeedTheDesignAndTheIndex(_ design: DedupeStore.Design) {
        let first = (0..<200).map { StoreFuzzInput(seed: 11, design: design, index: $0) }
        let again = (0..<200).reversed().map { StoreFuzzInput(seed: 11, design: design, index: $0) }.reversed()
        #expect(first == Array(again))
        #expect(first.map(\.mutationNames) != (0..<200).map { StoreFuzzInput(seed: 12, design: design, index: $0).mutationNames })
        for input in first {
            #expect((1...3).contains(input.mutationNames.count), "\(input)")
            #expect((1...16).contains(input.ids))
            #expect(design == .mappedJournal || !input.edits.contains(.ghostRecord))
            #expect(input.fault == nil || input.placement.holdsFile)
        }
        let pristine = Self.journal(ids: 16)
        for input in first {
            #expect(StoreFuzzTrial.edit(input, pristine: pristine) == StoreFuzzTrial.edit(input, pristine: pristine))
        }
    }

    @Test func theDesignsDrawDifferentInputs() {
        let journal = (0..<50).map { StoreFuzzInput(seed: 3, design: .journal, index: $0).mutationNames }
        let sqlite = (0..<50).map { StoreFuzzInput(seed: 3, design: .sqlite, index: $0).mutationNames }
        #expect(journal != sqlite)
    }

    /// A journal of `d-0` … `d-(ids − 1)` in the documented layout.
    static func journal(ids: Int) -> [UInt8] {
        var header = Array("PDJOURNL".utf8) + [1, 0, 0, 0, 24, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        StoreFileLayout.refreshJournalHeader(&header)
        return header + (0..<ids).flatMap { StoreFileLayout.record(EnvelopeID(token: StoreFuzzTrial.consumedToken($0))) }
    }

    static func placed(ids: Int = 4, edits: [StoreEdit] = []) -> StoreFuzzTrial.Placed {
        var input = StoreFuzzInput(seed: 1, design: .journal, index: 0)
        input.ids = ids
        input.placement = .file
        input.edits = edits
        let pristine = journal(ids: ids)
        let (content, mutations) = StoreFuzzTrial.edit(input, pristine: pristine)
        return StoreFuzzTrial.Placed(
            input: input, pristine: pristine, content: content, mutations: mutations, readable: true, object: .file(content))
    }

    /// What a store that keeps the contract leaves after restoring `placed` cleanly.
    static func kept(_ placed: StoreFuzzTrial.Placed) -> StoreFuzzTrial.Observation {
        StoreFuzzTrial.Observation(
            firstOutcome: .restored(ids: placed.input.ids), settledOutcome: .restored(ids: placed.input.ids), firstRepairs: [],
            newAcknowledged: true,
            secondOutcome: .restored(ids: placed.input.ids + 1), knownConsumed: Set(0..<placed.input.ids), knowsNew: true,
            knowsGhost: false, knownCount: placed.input.ids + 1, pathAfter: .file(placed.content), targetAfter: nil, copiesAside: [:])
    }

    static func categories(_ placed: StoreFuzzTrial.Placed, _ observation: StoreFuzzTrial.Observation) -> [StoreFuzzVerdict.Category] {
        StoreFuzzVerdict.judge(placed, observation).map(\.category)
    }

    @Test func aKeptStoreIsOk() {
        let placed = Self.placed()
        #expect(Self.categories(placed, Self.kept(placed)) == [])
    }

    @Test func aPlantedLostIDIsFlaggedOnlyWhenItsRecordWasUndamaged() {
        let placed = Self.placed()
        var observation = Self.kept(placed)
        observation.knownConsumed.remove(2)
        observation.knownCount -= 1
        #expect(Self.categories(placed, observation) == [.lostID])
        // The flip lands in record 2 (bytes 72..<96): its loss is the damage's, not the store's.
        let damaged = Self.placed(edits: [.flipBit(UInt64(80 * 8))])
        #expect(StoreFuzzVerdict.undamagedRecords(damaged) == [0, 1, 3])
        var copied = observation
        copied.firstRepairs = [.skippedDamagedRecords(count: 1, copy: "consumed.store.corrupt-1")]
        copied.copiesAside = ["store/consumed.store.corrupt-1": .file(damaged.content)]
        #expect(Self.categories(damaged, copied) == [])
    }

    @Test func aPlantedInventedIDIsFlagged() {
        let placed = Self.placed()
        var observation = Self.kept(placed)
        observation.knownCount += 1
        #expect(Self.categories(placed, observation) == [.inventedID])
        var ghost = Self.kept(placed)
        ghost.knowsGhost = true
        ghost.knownCount += 1
        #expect(Self.categories(placed, ghost) == [.inventedID])
    }

    @Test func damageMustBeKeptAsideOnceAndTheNewPushKept() {
        let damaged = Self.placed(edits: [.flipBit(UInt64(80 * 8))])
        var observation = Self.kept(damaged)
        observation.knownConsumed.remove(2)
        observation.knownCount -= 1
        observation.firstRepairs = [.skippedDamagedRecords(count: 1, copy: "consumed.store.corrupt-1")]
        observation.pathAfter = .file(Array(damaged.content.prefix(72)))
        #expect(Self.categories(damaged, observation) == [.unreadFileModified])
        observation.copiesAside = [
            "store/consumed.store.corrupt-1": .file(damaged.content), "store/consumed.store.corrupt-2": .file(damaged.content),
        ]
        #expect(Self.categories(damaged, observation) == [.copiesPiledUp])
        observation.copiesAside.removeValue(forKey: "store/consumed.store.corrupt-2")
        observation.knowsNew = false
        observation.knownCount -= 1
        #expect(Self.categories(damaged, observation) == [.newPushLost])
    }

    /// A journal whose restore waits may append to the unread file, and nothing else.
    @Test func aWaitingJournalMayOnlyAppend() {
        let placed = Self.placed()
        var observation = Self.kept(placed)
        observation.firstOutcome = .pending(StoreError(path: "", kind: .unreadable(errno: 5), reason: ""))
        observation.settledOutcome = observation.firstOutcome
        observation.pathAfter = .file(placed.content + StoreFileLayout.record(EnvelopeID(token: "new")))
        #expect(Self.categories(placed, observation) == [])
        observation.pathAfter = .file(Array(placed.content.dropLast(24)) + StoreFileLayout.record(EnvelopeID(token: "new")))
        #expect(Self.categories(placed, observation) == [.unreadFileModified])
        // A retry then copied the appended file aside and compacted it.
        observation.settledOutcome = .restored(ids: placed.input.ids + 1)
        observation.firstRepairs = [.skippedDamagedRecords(count: 1, copy: "consumed.store.corrupt-1")]
        observation.copiesAside = ["store/consumed.store.corrupt-1": .file(placed.content + StoreFileLayout.record(EnvelopeID(token: "new")))]
        #expect(Self.categories(placed, observation) == [])
    }

    @Test func aNewerVersionMustBeValidAndLeftAsItIs() {
        let newer = Self.placed(edits: [.header(.version, value: 2, consistent: true)])
        var observation = Self.kept(newer)
        observation.firstOutcome = .leftUntouched(StoreError(path: "", kind: .newerVersion(found: 2, supported: 1), reason: ""))
        observation.settledOutcome = observation.firstOutcome
        observation.knownConsumed = []
        observation.knownCount = 1
        #expect(Self.categories(newer, observation) == [])
        observation.pathAfter = .file(newer.content + [0])
        #expect(Self.categories(newer, observation) == [.unreadFileModified])
        let damaged = Self.placed(edits: [.header(.version, value: 2, consistent: false)])
        var misread = Self.kept(damaged)
        misread.firstOutcome = observation.firstOutcome
        misread.settledOutcome = observation.firstOutcome
        misread.knownConsumed = []
        misread.knownCount = 1
        #expect(Self.categories(damaged, misread) == [.lostID, .misreadVersion])
    }

    /// Two rounds of a few inputs through the binary: the same table, and an exit code that says
    /// whether it holds a finding. Seed 1's first snapshot inputs hold no fifo, so nothing waits
    /// for the timeout.
    @Test func aSmallRoundRunsEndToEndTheSameWayTwice() throws {
        let inputs = 8
        #expect((0..<inputs).allSatisfy { StoreFuzzInput(seed: 1, design: .snapshot, index: $0).placement != .fifo })
        var tables: [String] = []
        for _ in 0..<2 {
            let directory = try BinaryRunner.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let outcome = try BinaryRunner.run(
                tool: "dedupe-fuzz",
                ["stores", "--design", "snapshot", "--seed", "1", "--inputs", String(inputs), "--timeout", "60", "--out", directory.path])
            let table = try String(contentsOf: directory.appendingPathComponent("inputs.tsv"), encoding: .utf8)
            let rows = table.split(separator: "\n").dropFirst()
            #expect(rows.count == inputs)
            let findings = rows.filter { $0.split(separator: "\t", omittingEmptySubsequences: false)[3] != "ok" }.count
            #expect(outcome.status == (findings > 0 ? 1 : 0), "\(outcome.error)")
            let kept = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("findings").path)
            #expect(kept.filter { $0.hasSuffix(".txt") }.count == findings)
            #expect(outcome.output.hasPrefix("stores fuzz: seed 1, timeout 60 s\n"))
            tables.append(table)
        }
        #expect(tables[0] == tables[1])
    }

    @Test func aBadDesignIsOneUsageError() throws {
        let outcome = try BinaryRunner.run(tool: "dedupe-fuzz", ["stores", "--design", "tape", "--out", "/tmp"])
        #expect(outcome.status == 2)
        #expect(outcome.error == "dedupe-fuzz: error: invalid value 'tape' for '--design': expected one of snapshot, journal, mapped-journal, sqlite, or all\n")
    }
}
