@testable import DedupeStoreLab
import Foundation
import PushDedupe
import Testing

/// The kill sweep's accounting against a model store: a faithful one loses nothing, and any store
/// that drops or forgets an acknowledged id the set must retain is counted.
@Suite struct StoreKillSweepTests {
    /// An in-memory store that keeps the newest `retained` ids it was given, minus those `drops`
    /// selects; a "child" consumes from `start`, acknowledges `acknowledgements` ids and, on odd
    /// points, makes one more consume it never acknowledges (killed in between).
    final class ModelStore {
        let retained: Int
        let drops: (Int) -> Bool
        var ids: [Int] = []
        var points = 0

        init(retained: Int, drops: @escaping (Int) -> Bool = { _ in false }) {
            self.retained = retained
            self.drops = drops
        }

        func point(start: Int, acknowledgements: Int) -> [Int] {
            points += 1
            let acknowledged = Array(start..<(start + acknowledgements))
            for index in acknowledged + (points % 2 == 1 ? [start + acknowledgements] : []) where !drops(index) {
                ids.append(index)
            }
            if ids.count > retained { ids.removeFirst(ids.count - retained) }
            return acknowledged
        }

        func restore() -> (isKnown: (Int) -> Bool, repairs: [StoreRepair]) {
            let known = Set(ids)
            return ({ known.contains($0) }, [.truncatedTornTail(bytes: 3)])
        }
    }

    static let settings = StoreKillSweep.Settings(points: 60, retained: 32, seed: 7, maximumAcknowledged: 64, maximumDelayMicroseconds: 10)

    static func sweep(_ store: ModelStore) throws -> StoreKillResult {
        try StoreKillSweep.sweep(
            design: "model", settings: settings,
            point: { start, acknowledgements, _ in store.point(start: start, acknowledgements: acknowledgements) },
            restore: { store.restore() })
    }

    @Test func aFaithfulStoreLosesNothingAndEveryPointIsCounted() throws {
        let result = try Self.sweep(ModelStore(retained: Self.settings.retained))
        #expect(result.killPoints == 60)
        #expect(result.lost == 0)
        #expect(result.acknowledged > Self.settings.retained)
        #expect(result.repairs == 60 && result.tornTailsCut == 60)
    }

    @Test func aStoreThatDropsIdsIsCaught() throws {
        let result = try Self.sweep(ModelStore(retained: Self.settings.retained) { $0 % 7 == 3 })
        #expect(result.lost > 0)
    }

    /// A store keeping one id fewer than the set retains forgets an acknowledged id the ledger
    /// still checks: the check's window is exactly the set's.
    @Test func aStoreThatForgetsTooEarlyIsCaught() throws {
        let result = try Self.sweep(ModelStore(retained: Self.settings.retained - 1))
        #expect(result.lost > 0)
    }

    /// The same seed gives the same kill points.
    @Test func pointsAreSeeded() throws {
        var first: [Int] = []
        var second: [Int] = []
        for round in 0..<2 {
            _ = try StoreKillSweep.sweep(
                design: "model", settings: Self.settings,
                point: { start, acknowledgements, delay in
                    if round == 0 { first.append(acknowledgements * 1_000 + delay) } else { second.append(acknowledgements * 1_000 + delay) }
                    return Array(start..<(start + acknowledgements))
                },
                restore: { ({ _ in true }, []) })
        }
        #expect(first == second && Set(first).count > 1)
    }

    @Test func theLedgerSkipsTheUnacknowledgedSlot() {
        var ledger = StoreKillLedger(retained: 4)
        ledger.record(acknowledged: [0, 1, 2])
        #expect(ledger.next == 4)
        ledger.record(acknowledged: [])
        #expect(ledger.next == 5)
        ledger.record(acknowledged: [5, 6])
        // Newest four slots: 5, 6, the slot after 6, and the slot after the empty child.
        #expect(ledger.check { $0 != 5 } == [5])
        #expect(ledger.checked == [5, 6] && ledger.lost == [5])
    }

    @Test func acknowledgementsAreWrittenInDecimal() {
        var buffer = [UInt8](repeating: 0, count: 24)
        for value in [0, 7, 10, 99, 123_456_789, Int(Int32.max)] {
            let length = StoreWriterChild.decimal(value, into: &buffer)
            #expect(String(decoding: buffer[0..<length], as: UTF8.self) == "\(value)\n")
        }
    }
}
