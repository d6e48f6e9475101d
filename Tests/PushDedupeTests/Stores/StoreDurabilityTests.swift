import Foundation
@testable import PushDedupe
import Testing

/// What each durability costs in flushes, counted through `StoreFaults`, which sees every step.
@Suite struct StoreDurabilityTests {
    /// Every step a store takes, in order.
    final class Steps: @unchecked Sendable {
        private let lock = NSLock()
        private var seen: [StoreFaults.Step] = []

        var all: [StoreFaults.Step] { lock.withLock { seen } }

        var faults: StoreFaults {
            StoreFaults { [self] step, _ in
                lock.withLock { seen.append(step) }
                return nil
            }
        }
    }

    /// Power-loss durability flushes before every append returns; kill durability never
    /// flushes, since the kernel already holds what a returned write wrote. (SQLite flushes
    /// inside the library, under `synchronous=FULL`: no step of ours to count.)
    @Test(arguments: StoreSubject.everyDurability.filter { $0.design != .sqlite })
    func powerLossFlushesEveryAppendAndKillNever(_ subject: StoreSubject) throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let url = directory.file("consumed.store")
        try subject.open(url, retained: 100).append([storeID(1)], snapshot: { [1] })
        let steps = Steps()
        let store = try subject.open(url, retained: 100, faults: steps.faults)
        var flushed: [Int] = []
        for number in 2...4 {
            let before = steps.all.count
            let snapshot = try fifoSnapshot((1...number).map(storeID), capacity: 100)
            try store.append([storeID(number)], snapshot: { snapshot })
            flushed.append(steps.all[before...].filter { $0 == .sync }.count)
        }
        if subject.durability == .powerLoss {
            #expect(flushed.allSatisfy { $0 >= 1 }, "\(subject): flushes per append \(flushed), steps \(steps.all)")
        } else {
            #expect(flushed == [0, 0, 0], "\(subject): flushes per append \(flushed)")
        }
        #expect(try loadedIDs(try subject.open(url, retained: 100)) == (1...4).map(storeID))
    }
}
