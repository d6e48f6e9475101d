import Foundation
@testable import PushDedupe
import Testing

/// One store file driven by operations, every load checked against `StoreModel`: a journal's
/// load equals the model's journal exactly; every design gives back the model's newest
/// `retained` distinct ids, in order, which is what a deduplicator restores.
struct StoreReplay {
    let subject: StoreSubject
    let url: URL
    let retained: Int
    private(set) var model: StoreModel
    private var store: any ConsumedStore
    private(set) var log: [String] = []

    init(_ subject: StoreSubject, url: URL, retained: Int) throws {
        self.subject = subject
        self.url = url
        self.retained = retained
        model = StoreModel(retained: retained)
        store = try subject.open(url, retained: retained)
    }

    mutating func append(_ ids: [EnvelopeID]) throws {
        log.append("append \(ids.map(\.low))")
        model.append(ids)
        let snapshot = subject.design == .snapshot ? try fifoSnapshot(model.kept, capacity: retained) : []
        try store.append(ids, snapshot: { snapshot })
    }

    mutating func replace(with ids: [EnvelopeID]) throws {
        log.append("replace \(ids.map(\.low))")
        model.replace(with: ids)
        let snapshot = subject.design == .snapshot ? try fifoSnapshot(model.kept, capacity: retained) : []
        // A replace writes over what the store last read, as a migration does right after its load.
        _ = try store.load()
        try store.replace(with: ids, snapshot: { snapshot })
    }

    /// A relaunch: a new store on the file, whose load is checked, and which takes the appends
    /// from now on.
    mutating func relaunch() throws {
        log.append("relaunch")
        store = try subject.open(url, retained: retained)
        try check(try loadedIDs(store))
    }

    /// A load by another store on the file (another process), checked.
    func checkFromOutside() throws {
        try check(try loadedIDs(try subject.open(url, retained: retained)))
    }

    private func check(_ loaded: [EnvelopeID]) throws {
        if subject.keepsEveryRecord {
            #expect(loaded == model.journal, "\(subject) retained \(retained): \(loaded.map(\.low)) after \(log)")
        }
        #expect(
            StoreModel.newestDistinct(loaded, keep: retained) == model.kept,
            "\(subject) retained \(retained): newest distinct of \(loaded.map(\.low)) is not \(model.kept.map(\.low)) after \(log)")
        #expect(loaded.count <= subject.mostHeld(retained: retained, batch: 4), "\(subject): \(loaded.count) ids held after \(log)")
    }
}

/// The shared conformance suite every store design runs: seeded random operations, and every
/// short sequence at small sizes, against the plain model.
@Suite struct StoreConformanceTests {
    /// Seeded appends (new ids, repeats of older ones, batches, nothing), relaunches and
    /// replaces, with a load from outside after every step.
    @Test(arguments: StoreSubject.everyDurability)
    func seededOperationsMatchTheModel(_ subject: StoreSubject) throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        // A flush per append costs milliseconds on a disk: fewer steps at power-loss durability.
        let seeds: [UInt64] = subject.durability == .powerLoss ? [1] : [1, 2, 3, 4]
        let steps = subject.durability == .powerLoss ? 40 : 90
        for seed in seeds {
            for retained in [1, 3, 8] {
                var random = SplitMix64(seed: seed &* 1000 &+ UInt64(retained))
                var replay = try StoreReplay(subject, url: directory.file("\(seed)-\(retained).store"), retained: retained)
                var next = 0
                func fresh() -> EnvelopeID {
                    next += 1
                    return storeID(next)
                }
                for _ in 0..<steps {
                    let roll = Int.random(in: 0..<100, using: &random)
                    switch roll {
                    case 0..<45: try replay.append([fresh()])
                    case 45..<65: try replay.append([storeID(Int.random(in: 1...max(1, next), using: &random))])
                    case 65..<78: try replay.append((0..<Int.random(in: 2...4, using: &random)).map { _ in fresh() })
                    case 78..<80: try replay.append([])
                    case 80..<95: try replay.relaunch()
                    default: try replay.replace(with: (0..<Int.random(in: 0...retained, using: &random)).map { _ in fresh() })
                    }
                    try replay.checkFromOutside()
                }
            }
        }
    }

    /// Every sequence of five steps from {a new id, the first id again, a relaunch}, at retained
    /// 1, 2 and 3: every compaction boundary, with repeats on either side of it.
    @Test(arguments: StoreSubject.every)
    func everyShortSequenceMatchesTheModel(_ subject: StoreSubject) throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let length = 5
        var file = 0
        for retained in 1...3 {
            for code in 0..<Int(pow(3, Double(length))) {
                file += 1
                var replay = try StoreReplay(subject, url: directory.file("\(file).store"), retained: retained)
                var next = 0
                var rest = code
                for _ in 0..<length {
                    switch rest % 3 {
                    case 0:
                        next += 1
                        try replay.append([storeID(next)])
                    case 1: try replay.append([storeID(1)])
                    default: try replay.relaunch()
                    }
                    rest /= 3
                }
                try replay.relaunch()
            }
        }
    }

    /// Every count of appends up to three compactions' worth, at retained 1 to 4, reloaded after
    /// each: a journal holds exactly the model's records at every size.
    @Test(arguments: StoreSubject.every)
    func everySizeUpToThreeCompactionsReloads(_ subject: StoreSubject) throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        for retained in 1...4 {
            var replay = try StoreReplay(subject, url: directory.file("\(retained).store"), retained: retained)
            for number in 1...(6 * retained + 1) {
                try replay.append([storeID(number)])
                try replay.checkFromOutside()
            }
        }
    }
}

/// Through a deduplicator: seeded consumes of a small id pool, with relaunches, against the
/// reference FIFO set. After every relaunch the restored set holds exactly what the set held
/// before it, in the same order, for every design; the snapshot design is checked this way.
@Suite struct StoreDeduplicatorModelTests {
    @MainActor @Test(arguments: StoreSubject.every)
    func aRelaunchRestoresExactlyTheSetItLeft(_ subject: StoreSubject) throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        for (seed, capacity) in [(1, 3), (2, 4), (3, 5), (4, 2)] as [(UInt64, Int)] {
            var random = SplitMix64(seed: seed)
            let url = directory.file("\(seed).store")
            let clock = ManualClock()
            func launch() throws -> MainActorDeduplicator<HashDequeWindow, FIFOSet> {
                try MainActorDeduplicator<HashDequeWindow, FIFOSet>(
                    window: HashDequeWindow(preset: .compact), consumed: .init(capacity: capacity),
                    store: subject.dedupeStore(url), clock: .manual(clock))
            }
            var dedupe = try launch()
            var reference = ReferenceConsumedSet(policy: .firstInFirstOut(capacity: capacity))
            var log: [String] = []
            for _ in 0..<120 {
                clock.advance(by: .seconds(1))
                if Int.random(in: 0..<100, using: &random) < 15 {
                    log.append("relaunch")
                    dedupe = try launch()
                    let expected: RestoreOutcome = log.contains(where: { $0.hasPrefix("msg") })
                        ? .restored(ids: reference.count) : .nothingStored
                    #expect(dedupe.restoreOutcome == expected, "\(subject) seed \(seed): \(dedupe.restoreOutcome) after \(log)")
                    let held = try heldIDs(dedupe.pipeline.consumed)
                    #expect(held == reference.order, "\(subject) seed \(seed): restored \(held.map(\.low)) after \(log)")
                    continue
                }
                let pushID = "msg-\(Int.random(in: 0..<(2 * capacity + 2), using: &random))"
                log.append(pushID)
                let navigates = reference.consume(EnvelopeID(token: pushID))
                #expect(dedupe.receiveEmit(pushID: pushID) == (navigates ? .navigated : .suppressedByConsumedSet), "\(subject) seed \(seed) after \(log)")
            }
            #expect(dedupe.counters.failedSaves == 0 && dedupe.lastStoreError == nil, "\(subject): \(String(describing: dedupe.lastStoreError))")
        }
    }
}
