@testable import PushDedupe
import Testing

/// `fifo-set`'s lanes under what random ids rarely produce: groups that overflow into chains,
/// and sequence numbers that wrap around their field many times.
@Suite struct FIFOSetLaneTests {
    /// Ids that all share one home group, the first or the last (so that chains wrap past the
    /// table's end), so that every group in their path overflows; mixed with ordinary ids,
    /// which must still be found past the chains. Seeded random sequences are checked step by
    /// step against the FIFO model.
    @Test(arguments: [(8, false), (17, false), (64, false), (200, false), (17, true), (64, true), (200, true)])
    func overflowChainsStayExact(capacity: Int, homeIsLastGroup: Bool) throws {
        let groupMask = FIFOSet._Geometry(capacity: capacity).groupMask
        var colliding: [EnvelopeID] = []
        var n = 0
        while colliding.count < 3 * capacity {
            let id = testEnvelope(n)
            n += 1
            if _SlotHash(id).group(groupMask) == (homeIsLastGroup ? groupMask : 0) { colliding.append(id) }
        }
        let ordinary = (0..<capacity).map { testEnvelope(1_000_000 + $0) }
        var random = SplitMix64(seed: 0xf1f0 ^ UInt64(capacity))
        var sawOverflow = false
        for round in 0..<10 {
            let universe = round % 2 == 0 ? colliding : colliding + ordinary
            let operations = (0..<2_000).map { step in
                ConsumeOperation(
                    id: universe[Int.random(in: 0..<universe.count, using: &random)],
                    time: Timestamp(nanoseconds: Int64(step)))
            }
            let violation = firstConsumedSetViolation(
                FIFOSet.self, configuration: .init(capacity: capacity),
                contract: .exact(.firstInFirstOut(capacity: capacity)), operations: operations)
            #expect(violation == nil, "round \(round)")
            if violation != nil { return }
            // Once an overflow has been seen, the replay below has nothing left to show.
            if sawOverflow { continue }
            var set = try FIFOSet(configuration: .init(capacity: capacity))
            for operation in operations { _ = set.consume(operation.id, at: operation.time) }
            // A control lane that names a retained id: some group is overflowing right now.
            let lanes = set._lanes
            let sequence = set._accepted & set._geometry.sequenceMask
            sawOverflow = stride(from: FIFOSet.entryLanes, to: lanes.count, by: FIFOSet.lanesPerGroup)
                .contains { set._geometry.liveness(sequence: sequence, count: set.count, next: 0).retainedBit(lanes[$0]) == 1 }
        }
        #expect(sawOverflow, "the colliding ids never overflowed a group")
    }

    /// Capacities whose sequence field is a few bits wide wrap it every few dozen accepts; a
    /// long run must agree with the model throughout (and, with internal checks, keep every lane
    /// within the cursor's age bound).
    @Test(arguments: [1, 2, 3, 5, 8])
    func sequenceNumbersWrapWithoutLosingIds(capacity: Int) {
        var random = SplitMix64(seed: 0x5e9 ^ UInt64(capacity))
        let operations = randomConsumeOperations(
            count: 20_000, universe: 3 * capacity, meanStepNanoseconds: 1_000, using: &random)
        let violation = firstConsumedSetViolation(
            FIFOSet.self, configuration: .init(capacity: capacity),
            contract: .exact(.firstInFirstOut(capacity: capacity)), operations: operations)
        #expect(violation == nil)
    }

    /// A cursor that restamps several lanes per accept (what capacities above 2²⁹ use), forced
    /// here at small sizes, where the sequence field is a few bits wide and wraps constantly.
    @Test(arguments: [(3, 2), (5, 4), (8, 2), (17, 4), (64, 8)])
    func fasterCursorsStayExact(capacity: Int, swept: Int) {
        var set = FIFOSet(geometry: .init(capacity: capacity, sweptLanesPerAccept: swept))
        #expect(set._geometry.sweptLanesPerAccept == swept)
        var model = ReferenceConsumedSet(policy: .firstInFirstOut(capacity: capacity))
        var random = SplitMix64(seed: 0xc0_5e ^ UInt64(capacity))
        for step in 0..<20_000 {
            let id = testEnvelope(Int.random(in: 0..<(3 * capacity), using: &random))
            let predicted = set.contains(id)
            let accepted = set.consume(id, at: Timestamp(nanoseconds: Int64(step)))
            let expected = model.consume(id)
            guard accepted == expected, predicted == !accepted, set.count == model.count,
                  set.evictions == model.evictions else {
                Issue.record("step \(step): accepted \(accepted), model \(expected), contains said \(predicted)")
                return
            }
        }
    }

    /// The vector test of a whole group (`freeLanes`) says, lane by lane, what `retainedBit`
    /// says of one lane: exhaustively over a 4-bit sequence field (every next number, count and lane
    /// value, with and without a tag), and at the edges of the widest field.
    @Test func groupScanAgreesWithRetainedBit() {
        func check(_ geometry: FIFOSet._Geometry, sequence: UInt32, count: Int, lanes: [UInt32]) -> Bool {
            for start in stride(from: 0, to: lanes.count, by: 8) {
                var group = SIMD8<UInt32>(repeating: 0)
                for lane in 0..<8 { group[lane] = lanes[(start + lane) % lanes.count] }
                let liveness = geometry.liveness(sequence: sequence, count: count, next: 0)
                let free = liveness.freeLanes(group)
                for lane in 0..<8 {
                    let expected = lane < FIFOSet.entryLanes && liveness.retainedBit(group[lane]) == 0
                    guard free.contains(lane) == expected else {
                        Issue.record("sequence \(sequence), count \(count), lane value \(group[lane]): vector says \(!expected)")
                        return false
                    }
                }
            }
            return true
        }
        let small = FIFOSet._Geometry(capacity: 3)
        #expect(small.sequenceMask == 15)
        let values = (0...small.sequenceMask).flatMap { [$0, $0 | small.tag(_SlotHash(testEnvelope(Int($0))))] }
        for sequence in 0...small.sequenceMask {
            for count in 0...small.capacity {
                guard check(small, sequence: sequence, count: count, lanes: values) else { return }
            }
        }
        let largest = FIFOSet._Geometry(capacity: 1 << 30)
        let mask = largest.sequenceMask
        for sequence in [0, 1, mask - 1, mask, 1 << 30, 0x1234_5678 & mask] {
            for count in [0, 1, largest.capacity - 1, largest.capacity] {
                let ages = [0, 1, 2, count - 1, count, count + 1, Int(mask) - 1, Int(mask)].map { UInt32(truncatingIfNeeded: $0) }
                let lanes = ages.flatMap { age in
                    let lane = (sequence &- age) & mask
                    return [lane, lane | FIFOSet.tagBit]
                }
                guard check(largest, sequence: sequence, count: count, lanes: lanes) else { return }
            }
        }
    }

    /// The lane table is a power of two of 32-byte groups, one per four slots: 24 bytes per
    /// entry at a power-of-two capacity. The sequence field covers capacity plus one cursor
    /// pass, and stays within 31 bits up to 2³⁰ by moving the cursor faster above 2²⁹.
    @Test func geometry() throws {
        let set = try FIFOSet(configuration: .init(capacity: 65_536))
        #expect(set._lanes.count == 65_536 * 2)
        #expect(set.footprint == 24 * 65_536)
        #expect(set._geometry.sequenceMask == (1 << 18) - 1)
        #expect(set._geometry.sweptLanesPerAccept == 1)
        let odd = try FIFOSet(configuration: .init(capacity: 5))
        #expect(odd._lanes.count == 16)
        let large = FIFOSet._Geometry(capacity: 1 << 29)
        #expect(large.sweptLanesPerAccept == 1 && large.sequenceMask == UInt32.max >> 1)
        for capacity in [(1 << 29) + 1, (1 << 30) - 1] {
            let above = FIFOSet._Geometry(capacity: capacity)
            #expect(above.sweptLanesPerAccept == 2 && above.sequenceMask == UInt32.max >> 1)
        }
        let largest = FIFOSet._Geometry(capacity: 1 << 30)
        #expect(largest.sweptLanesPerAccept == 4 && largest.sequenceMask == UInt32.max >> 1)
    }

    #if PUSHDEDUPE_INTERNAL_CHECKS
    /// A full, wrapped set with one corruption each: the second newest id's slot overwritten, the
    /// oldest id's lane's tag cleared, and that lane stamped older than the cursor allows. The
    /// full walk names each; the cheap checks alone, which only look at the newest id, do not see
    /// the first, which is why the walk still runs on a schedule (`_InvariantWalk`).
    @Test(arguments: [8, 64])
    func theWalkCatchesEveryCorruption(capacity: Int) throws {
        var set = try FIFOSet(configuration: .init(capacity: capacity))
        for n in 0..<(capacity + capacity / 2) { _ = set.consume(testEnvelope(n), at: Timestamp(nanoseconds: 0)) }
        #expect(set._invariantViolation() == nil)
        let secondNewestSlot = (set._next + capacity - 2) % capacity
        let sequence = set._accepted & set._geometry.sequenceMask
        let count = set.count
        let mask = set._geometry.sequenceMask
        let lanes = set._lanes
        let oldestLane = try #require(lanes.indices.first { lane in
            lane % FIFOSet.lanesPerGroup < FIFOSet.entryLanes && (sequence &- lanes[lane]) & mask == UInt32(count)
        })
        let corruptions: [(String, (UnsafeMutableBufferPointer<UInt32>, UnsafeMutableBufferPointer<EnvelopeID>) -> Void)] = [
            ("overwritten slot", { _, ring in ring[secondNewestSlot] = testEnvelope(1_000_000) }),
            ("cleared tag", { lanes, _ in lanes[oldestLane] &= ~FIFOSet.tagBit }),
            ("stale lane", { lanes, _ in lanes[oldestLane] = (sequence &- UInt32(capacity + lanes.count + 1)) & mask }),
        ]
        for (name, corrupt) in corruptions {
            var corrupted = set
            corrupted._withMutableStorage(corrupt)
            #expect(corrupted._invariantViolation() != nil, "\(name) went unnoticed")
        }
        var overwritten = set
        overwritten._withMutableStorage { _, ring in ring[secondNewestSlot] = testEnvelope(1_000_000) }
        #expect(overwritten._invariantViolation(walk: false) == nil, "the cheap checks alone see an old slot")
    }

    /// The walk runs from `consume` itself: a set whose second newest slot is overwritten traps
    /// within one walk period of accepts (4 at capacity 64), long before those accepts reach the
    /// slot. The same accepts on an intact set pass.
    @Test func consumeTrapsOnACorruptionWithinOnePeriod() async throws {
        let trapped = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var set = try FIFOSet(configuration: .init(capacity: 64))
            for n in 0..<100 { _ = set.consume(testEnvelope(n), at: Timestamp(nanoseconds: 0)) }
            let secondNewestSlot = (set._next + 62) % 64
            set._withMutableStorage { _, ring in ring[secondNewestSlot] = testEnvelope(1_000_000) }
            for n in 0..<4 { _ = set.consume(testEnvelope(2_000_000 + n), at: Timestamp(nanoseconds: 0)) }
        }
        let message = String(decoding: trapped?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("accepts ago not found"), "\(message)")
        var intact = try FIFOSet(configuration: .init(capacity: 64))
        for n in 0..<100 { _ = intact.consume(testEnvelope(n), at: Timestamp(nanoseconds: 0)) }
        for n in 0..<4 { _ = intact.consume(testEnvelope(2_000_000 + n), at: Timestamp(nanoseconds: 0)) }
        #expect(intact.count == 64 && intact.evictions == 40)
    }
    #endif
}
