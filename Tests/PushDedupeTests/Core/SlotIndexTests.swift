@testable import PushDedupe
import Testing

/// The shared index under collisions the sets' random ids rarely produce: many ids with one home
/// group, so that groups overflow into chains that wrap past the table's end.
@Suite struct SlotIndexTests {
    /// 200 ids whose home is the last of 64 groups, plus 56 others. Each round inserts the
    /// absent ones in random order, then removes a random share, checking every lookup against
    /// a set model (and, with internal checks, every lane and control count).
    @Test func overflowChainsSurviveDeletionInAnyOrder() {
        var keys: [EnvelopeID] = []
        var n = 0
        while keys.count < 256 {
            let id = testEnvelope(n)
            n += 1
            if keys.count >= 200 || _SlotHash(id).group(63) == 63 { keys.append(id) }
        }
        var index = _SlotIndex(slotCapacity: keys.count)
        #expect(index.footprint == 64 * 8 * 4)
        var random = SplitMix64(seed: 0x51_07)
        var present = Set<Int>()
        for round in 0..<20 {
            for slot in Array(0..<keys.count).shuffled(using: &random) where !present.contains(slot) {
                index.insert(slot: slot, hash: _SlotHash(keys[slot]))
                present.insert(slot)
            }
            let share = round % 4 + 1
            let order = Array(0..<keys.count).shuffled(using: &random)
            for slot in order where Int.random(in: 0..<5, using: &random) < share {
                index.remove(slot: slot, hash: _SlotHash(keys[slot]))
                present.remove(slot)
            }
            let wrong = (0..<keys.count).filter {
                index.find(keys[$0], hash: _SlotHash(keys[$0]), keys: keys) != (present.contains($0) ? $0 : -1)
            }
            #expect(wrong.isEmpty, "round \(round)")
            if !wrong.isEmpty { return }
            #if PUSHDEDUPE_INTERNAL_CHECKS
            index._checkInvariants(live: present, keys: keys)
            #endif
        }
        for slot in present { index.remove(slot: slot, hash: _SlotHash(keys[slot])) }
        #expect(index._lanes.allSatisfy { $0 == 0 }, "entries or control counts left behind")
    }

    /// Emptying by ids must leave every lane and control count at zero whichever path it takes
    /// (one removal per id when they are few, a full wipe otherwise), with half the ids piled on
    /// the last group so that chains wrap.
    @Test(arguments: [4, 40, 512])
    func removeAllByKeysClearsEveryLane(lanesPerKey: Int) {
        var keys: [EnvelopeID] = []
        var n = 0
        let slotCapacity = 2_048
        let laneCount = 4_096
        let groups = laneCount / 8
        let wanted = max(1, laneCount / lanesPerKey)
        while keys.count < wanted {
            let id = testEnvelope(n)
            n += 1
            if keys.count % 2 == 1 || _SlotHash(id).group(groups - 1) == groups - 1 { keys.append(id) }
        }
        var index = _SlotIndex(slotCapacity: slotCapacity)
        #expect(index._lanes.count == laneCount)
        var random = SplitMix64(seed: 0xc1ea2)
        for slot in Array(0..<keys.count).shuffled(using: &random) {
            index.insert(slot: slot, hash: _SlotHash(keys[slot]))
        }
        #expect(index._lanes.enumerated().filter { $0.offset % 8 < 7 && $0.element != 0 }.count == keys.count)
        index.removeAll(keys: keys)
        #expect(index._lanes.allSatisfy { $0 == 0 })
    }

    /// An empty index and a zero-capacity one find nothing.
    @Test func emptyIndexesFindNothing() {
        for capacity in [0, 1, 5] {
            let index = _SlotIndex(slotCapacity: capacity)
            #expect(index.find(testEnvelope(1), hash: _SlotHash(testEnvelope(1)), keys: [EnvelopeID]()) == -1)
        }
    }

    #if PUSHDEDUPE_INTERNAL_CHECKS
    /// The walk the sets run after each change catches each kind of corruption, so a walk that
    /// stopped looking would fail here: a lost entry, a duplicated one, a wrong tag, a control
    /// lane off by one, and a live slot the index never held. Ids share one home group, so
    /// entries overflow into later groups and the control counts matter.
    @Test func theWalkCatchesEveryCorruption() {
        var keys: [EnvelopeID] = []
        var n = 0
        while keys.count < 12 {
            let id = testEnvelope(n)
            n += 1
            if _SlotHash(id).group(3) == 3 { keys.append(id) }
        }
        var index = _SlotIndex(slotCapacity: 16)
        #expect(index._geometry.groupMask == 3)
        for slot in keys.indices { index.insert(slot: slot, hash: _SlotHash(keys[slot])) }
        #expect(index._invariantViolation(live: keys.indices, keys: keys) == nil)
        let entry = index._lanes.indices.first { $0 % 8 < 7 && index._lanes[$0] != 0 }!
        let control = 3 * 8 + 7
        #expect(index._lanes[control] > 0, "the home group overflowed")
        let corruptions: [(String, (inout [UInt32]) -> Void)] = [
            ("lost entry", { $0[entry] = 0 }),
            ("duplicated entry", { lanes in lanes[lanes.indices.first { $0 % 8 < 7 && lanes[$0] == 0 }!] = lanes[entry] }),
            ("wrong tag", { $0[entry] ^= 1 << 30 }),
            ("control off by one", { $0[control] += 1 }),
        ]
        for (name, corrupt) in corruptions {
            var corrupted = index
            corrupt(&corrupted._lanes)
            #expect(corrupted._invariantViolation(live: keys.indices, keys: keys) != nil, "\(name) went unnoticed")
        }
        #expect(index._invariantViolation(live: keys.indices.dropLast(), keys: keys) != nil, "an extra entry went unnoticed")
        #expect(index._invariantViolation(live: 0..<13, keys: keys + [testEnvelope(1_000_000)]) != nil, "a missing entry went unnoticed")
    }
    #endif
}
