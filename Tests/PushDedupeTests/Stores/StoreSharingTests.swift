import Foundation
@testable import PushDedupe
import Testing

/// Two stores on one file, each with its own descriptor, mapping or connection: the app and its
/// Notification Service Extension. No id either appends is lost, across compactions by either.
@Suite struct StoreSharingTests {
    /// Seeded interleaving of appends by two stores, each sometimes relaunched, with retained 4
    /// so that both compact many times. The file's order is the order of the appends, so the
    /// model predicts every load.
    @Test(arguments: StoreSubject.appending)
    func twoStoresAppendingInTurnLoseNothing(_ subject: StoreSubject) throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("shared.store")
        let retained = 4
        var stores = [try subject.open(url, retained: retained), try subject.open(url, retained: retained)]
        var model = StoreModel(retained: retained)
        var random = SplitMix64(seed: 7)
        var log: [String] = []
        var compactions = [0, 0]
        for number in 1...200 {
            let writer = Int.random(in: 0..<2, using: &random)
            if Int.random(in: 0..<10, using: &random) == 0 {
                log.append("relaunch \(writer)")
                compactions[writer] += stores[writer].compactions
                stores[writer] = try subject.open(url, retained: retained)
                _ = try stores[writer].load()
            }
            log.append("\(writer): \(number)")
            try stores[writer].append([storeID(number)], snapshot: { [] })
            model.append([storeID(number)])
            let loaded = try loadedIDs(try subject.open(url, retained: retained))
            if subject.keepsEveryRecord {
                #expect(loaded == model.journal, "\(subject): \(loaded.map(\.low)) after \(log.suffix(12))")
            }
            #expect(
                StoreModel.newestDistinct(loaded, keep: retained) == model.kept,
                "\(subject): \(loaded.map(\.low)) lost one of \(model.kept.map(\.low)) after \(log.suffix(12))")
        }
        for writer in 0..<2 { compactions[writer] += stores[writer].compactions }
        #expect(compactions.allSatisfy { $0 > 0 }, "\(subject): \(compactions) compactions")
    }

    /// Two threads append at once through two stores, with retained 50 so that compactions fall
    /// among the appends. Each thread's ids are distinct, so whatever the interleaving, the file
    /// must hold an unbroken newest run of each thread's ids, and at least `retained` in all.
    @Test(arguments: StoreSubject.appending)
    func twoStoresAppendingAtOnceLoseNothing(_ subject: StoreSubject) throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("shared.store")
        let retained = 50
        let perWriter = 300
        let stores = Shared([try subject.open(url, retained: retained), try subject.open(url, retained: retained)])
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: 2) { writer in
            for index in 0..<perWriter {
                do throws(StoreError) {
                    try stores.value[writer].append([storeID(writer * 100_000 + index)], snapshot: { [] })
                } catch {
                    failures.add("writer \(writer) append \(index): \(error)")
                }
            }
        }
        #expect(failures.all.isEmpty, "\(failures.all)")
        let loaded = try loadedIDs(try subject.open(url, retained: retained))
        #expect(Set(loaded).count == loaded.count, "\(subject): an id appears twice")
        #expect(loaded.count >= retained, "\(subject): \(loaded.count) ids held")
        for writer in 0..<2 {
            let mine = loaded.map { Int($0.low) }.filter { $0 / 100_000 == writer }.map { $0 % 100_000 }
            let unbroken = Array((perWriter - mine.count)..<perWriter)
            #expect(mine == unbroken, "\(subject) writer \(writer): \(mine) is not the newest run of its ids")
        }
    }

    /// One store replaces the file it read (a migration, or a salvage of a damaged header) while
    /// the other holds it open: the other's next append lands in the new file.
    @Test(arguments: StoreSubject.appending)
    func anAppendAfterTheOtherStoreReplacedTheFileIsKept(_ subject: StoreSubject) throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("shared.store")
        let first = try subject.open(url, retained: 100)
        let second = try subject.open(url, retained: 100)
        try first.append([storeID(1)], snapshot: { [] })
        try second.append([storeID(2)], snapshot: { [] })
        _ = try first.load()
        try first.replace(with: [storeID(1), storeID(2), storeID(3)], snapshot: { [] })
        try second.append([storeID(4)], snapshot: { [] })
        try first.append([storeID(5)], snapshot: { [] })
        let loaded = try loadedIDs(try subject.open(url, retained: 100))
        #expect(loaded == (1...5).map(storeID), "\(subject): \(loaded.map(\.low))")
    }

    /// A replace never writes over a file another store changed since this one read it: the
    /// other's acknowledged append is kept, and the replace asks for a new read.
    @Test(arguments: StoreSubject.appending)
    func aReplaceAfterTheOtherStoresAppendIsRefused(_ subject: StoreSubject) throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("shared.store")
        let first = try subject.open(url, retained: 100)
        let second = try subject.open(url, retained: 100)
        try first.append([storeID(1)], snapshot: { [] })
        _ = try first.load()
        try second.append([storeID(2)], snapshot: { [] })
        #expect(throws: StoreError.self) { try first.replace(with: [storeID(1)], snapshot: { [] }) }
        let loaded = try loadedIDs(try subject.open(url, retained: 100))
        #expect(loaded == [storeID(1), storeID(2)], "\(subject): \(loaded.map(\.low))")
    }
}

/// Stores handed to two threads, each of which uses only its own.
final class Shared: @unchecked Sendable {
    let value: [any ConsumedStore]

    init(_ value: [any ConsumedStore]) { self.value = value }
}

/// Messages collected from several threads.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [String] = []

    func add(_ message: String) { lock.withLock { messages.append(message) } }

    var all: [String] { lock.withLock { messages } }
}
