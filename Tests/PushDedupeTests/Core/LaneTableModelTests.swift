@testable import PushDedupe
import Testing

/// The lane-table engine (`_LaneTable`) against plain models: a dictionary of key → slot for
/// explicit deletion (`_SlotIndex`), and the arithmetic of ages for liveness by sequence age
/// (`_RetainedByAge`). Keys are fingerprint digests, so the tests choose keys by home group.
@Suite struct LaneTableModelTests {
    /// Digests whose home group is `group` in a table of `groupMask + 1` groups, from `start` on.
    static func digests(homedAt group: Int, groupMask: Int, count: Int, from start: UInt64 = 1) -> [UInt64] {
        var found: [UInt64] = []
        var digest = start
        while found.count < count {
            if _SlotHash(digest: digest).group(groupMask) == group { found.append(digest) }
            digest &+= 1
        }
        return found
    }

    /// Runs `steps` seeded random inserts, finds and deletes over `universe` in an index of
    /// `slotCapacity` slots, checking every find against a dictionary model (and, with internal
    /// checks, every lane and control count); returns the first disagreement.
    static func firstDisagreement(
        slotCapacity: Int, universe: [UInt64], steps: Int, seed: UInt64
    ) -> String? {
        var index = _SlotIndex(slotCapacity: slotCapacity)
        var keys = [UInt64](repeating: 0, count: slotCapacity)
        var model: [UInt64: Int] = [:]
        var freeSlots = Array((0..<slotCapacity).reversed())
        var random = SplitMix64(seed: seed)
        for step in 0..<steps {
            let key = universe[Int.random(in: 0..<universe.count, using: &random)]
            let hash = _SlotHash(digest: key)
            let found = index.find(key, hash: hash, keys: keys)
            guard found == (model[key] ?? -1) else {
                return "step \(step): find(\(key)) gave \(found), model \(model[key] ?? -1)"
            }
            if let slot = model[key] {
                if Int.random(in: 0..<3, using: &random) == 0 { continue }
                index.remove(slot: slot, hash: hash)
                model[key] = nil
                freeSlots.append(slot)
            } else if let slot = freeSlots.popLast() {
                keys[slot] = key
                index.insert(slot: slot, hash: hash)
                model[key] = slot
            }
            #if PUSHDEDUPE_INTERNAL_CHECKS
            index._checkInvariants(live: model.values.sorted(), keys: keys)
            #endif
        }
        for (key, slot) in model.sorted(by: { $0.value < $1.value }) {
            guard index.find(key, hash: _SlotHash(digest: key), keys: keys) == slot else { return "lost \(key) at the end" }
            index.remove(slot: slot, hash: _SlotHash(digest: key))
        }
        return index._lanes.allSatisfy { $0 == 0 } ? nil : "entries or control counts left after removing every key"
    }

    /// Every slot capacity from 1 to 24 (one to eight groups), with a universe three times the
    /// capacity: half of it homed at the last group, so that chains overflow and wrap past the
    /// table's end, half spread by the hash.
    @Test func explicitDeletionAgreesWithADictionaryAtEverySmallCapacity() {
        for slotCapacity in 1...24 {
            let groupMask = _LaneTable.Geometry.groupCount(slots: slotCapacity, slotsPerGroup: 4) - 1
            let crowded = Self.digests(homedAt: groupMask, groupMask: groupMask, count: 3 * slotCapacity / 2 + 1)
            let spread = (0..<(3 * slotCapacity / 2 + 1)).map { UInt64(1_000_000 + $0) }
            let disagreement = Self.firstDisagreement(
                slotCapacity: slotCapacity, universe: crowded + spread, steps: 1_500, seed: 0x1a_7e ^ UInt64(slotCapacity))
            #expect(disagreement == nil, "capacity \(slotCapacity)")
        }
    }

    /// A full table: every slot holds a key homed at one group, so the chain fills every group,
    /// wraps round to the first, and each lookup of an absent key walks the whole table and
    /// stops by the group bound. Deleting from the chain's middle keeps every later key
    /// reachable, and deleting all leaves no control count behind.
    @Test func fullTableWithOneChainThroughEveryGroup() {
        let slotCapacity = 16
        var index = _SlotIndex(slotCapacity: slotCapacity)
        let groupMask = index._geometry.groupMask
        #expect(groupMask == 3)
        let keys = Self.digests(homedAt: 2, groupMask: groupMask, count: slotCapacity)
        for slot in 0..<slotCapacity { index.insert(slot: slot, hash: _SlotHash(digest: keys[slot])) }
        for slot in 0..<slotCapacity {
            #expect(index.find(keys[slot], hash: _SlotHash(digest: keys[slot]), keys: keys) == slot)
        }
        let absent = Self.digests(homedAt: 2, groupMask: groupMask, count: 1, from: keys[slotCapacity - 1] + 1)[0]
        #expect(index.find(absent, hash: _SlotHash(digest: absent), keys: keys) == -1)
        // Groups 2 and 3 are full of entries, 0 holds the wrapped rest: both count them as passing.
        #expect(index._lanes[2 * 8 + 7] == 9 && index._lanes[3 * 8 + 7] == 2)
        for slot in stride(from: 1, to: slotCapacity, by: 2) {
            index.remove(slot: slot, hash: _SlotHash(digest: keys[slot]))
        }
        for slot in 0..<slotCapacity {
            let expected = slot % 2 == 0 ? slot : -1
            #expect(index.find(keys[slot], hash: _SlotHash(digest: keys[slot]), keys: keys) == expected, "slot \(slot)")
        }
        #if PUSHDEDUPE_INTERNAL_CHECKS
        index._checkInvariants(live: stride(from: 0, to: slotCapacity, by: 2), keys: keys)
        #endif
        for slot in stride(from: 0, to: slotCapacity, by: 2) {
            index.remove(slot: slot, hash: _SlotHash(digest: keys[slot]))
        }
        #expect(index._lanes.allSatisfy { $0 == 0 })
    }

    /// A key whose tag matches a live entry's but whose key differs is told apart by the key
    /// array, and a lane freed by deletion is reused by the next insertion into its group.
    @Test func tagCollisionsAndLaneReuse() {
        var index = _SlotIndex(slotCapacity: 4)
        let geometry = index._geometry
        var keys: [UInt64] = [0, 0]
        // Two keys with one home (one group) and the same tag, by a birthday search over random
        // digests (sequential ones are spread evenly by the multiply and take far longer).
        var candidates: [UInt32: UInt64] = [:]
        var random = SplitMix64(seed: 0x7a6)
        while keys[1] == 0 {
            let digest = random.next() | 1
            let tag = geometry.tag(_SlotHash(digest: digest))
            if let first = candidates[tag], first != digest { keys = [first, digest] } else { candidates[tag] = digest }
        }
        index.insert(slot: 0, hash: _SlotHash(digest: keys[0]))
        #expect(index.find(keys[1], hash: _SlotHash(digest: keys[1]), keys: keys) == -1)
        index.insert(slot: 1, hash: _SlotHash(digest: keys[1]))
        #expect(index.find(keys[1], hash: _SlotHash(digest: keys[1]), keys: keys) == 1)
        let laneOfFirst = index._lanes.firstIndex { $0 & geometry.payloadMask == 1 }
        index.remove(slot: 0, hash: _SlotHash(digest: keys[0]))
        index.insert(slot: 0, hash: _SlotHash(digest: keys[0]))
        #expect(index._lanes.firstIndex { $0 & geometry.payloadMask == 1 } == laneOfFirst)
    }

    /// Liveness by age against the model: a lane is live exactly when its age (next sequence
    /// number minus its own, modulo the field) is in 1...count, and then names the slot `age`
    /// before `next` in the ring. Exhaustive over a 4-bit field, every ring position, every
    /// count up to the capacity, and every lane value with and without a tag; so ages 0,
    /// `count` and `count + 1` (the boundary) and every wrap of the field are covered.
    @Test func ageLivenessAgreesWithTheModelExhaustively() {
        let capacity = 5
        let mask: UInt32 = 15
        for sequence in 0...mask {
            for count in 0...capacity {
                for next in 0..<capacity {
                    let rule = _RetainedByAge(sequenceMask: mask, sequence: sequence, count: count, next: next, capacity: capacity)
                    for lane in 0...mask {
                        let age = Int((sequence &- lane) & mask)
                        let expected = age >= 1 && age <= count ? ((next - age) % capacity + capacity) % capacity : -1
                        for tagged in [lane, lane | 1 << 31] where rule.liveSlot(tagged) != expected {
                            Issue.record("sequence \(sequence), count \(count), next \(next), lane \(tagged): \(rule.liveSlot(tagged)), expected \(expected)")
                            return
                        }
                        let retained = rule.retainedBit(lane) == 1
                        #expect(retained == (expected >= 0))
                        #expect(rule.continuesPast(lane) == retained)
                    }
                }
            }
        }
    }

    /// The engine under liveness by age: a ring of the last `capacity` keys, all homed at the last
    /// group so that chains wrap, kept in lanes by `_LaneTable.insert` and restamped as `FIFOSet`
    /// does; every find agrees with the model of the last `capacity` distinct keys.
    @Test(arguments: [1, 3, 4, 7, 12])
    func ageLivenessThroughTheEngineAgreesWithAFIFOModel(capacity: Int) {
        let geometry = FIFOSet._Geometry(capacity: capacity)
        let table = geometry.table
        let universe = Self.digests(homedAt: table.groupMask, groupMask: table.groupMask, count: 2 * capacity + 1)
        var lanes = [UInt32](repeating: geometry.vacantStamp(sequence: 0), count: table.laneCount)
        var ring = [UInt64](repeating: 0, count: capacity)
        var model: [UInt64] = []
        var accepted: UInt32 = 0
        var next = 0
        var sweep = 0
        var random = SplitMix64(seed: 0xa6e ^ UInt64(capacity))
        for step in 0..<3_000 {
            let key = universe[Int.random(in: 0..<universe.count, using: &random)]
            let hash = _SlotHash(digest: key)
            let sequence = accepted & geometry.sequenceMask
            let found = lanes.withUnsafeBufferPointer { lanes in
                _LaneTable.find(
                    key, tag: table.tag(hash), home: table.home(hash), geometry: table, lanes: lanes,
                    liveness: geometry.liveness(sequence: sequence, count: model.count, next: next), keys: ring)
            }
            let expected = model.firstIndex(of: key).map { _ in ring.firstIndex(of: key)! } ?? -1
            guard found == expected else {
                Issue.record("step \(step): found \(found), model \(expected)")
                return
            }
            if found >= 0 { continue }
            let retained = model.count == capacity ? capacity - 1 : model.count
            lanes.withUnsafeMutableBufferPointer { lanes in
                _LaneTable.insert(
                    table.tag(hash) | sequence, home: table.home(hash), groupMask: table.groupMask, lanes: lanes,
                    liveness: geometry.liveness(sequence: sequence, count: retained, next: next))
                let following = (sequence &+ 1) & geometry.sequenceMask
                geometry.liveness(sequence: following, count: retained + 1, next: next)
                    .restamp(sweep, vacant: geometry.vacantStamp(sequence: following), lanes: lanes)
            }
            sweep = (sweep + 1) & geometry.laneMask
            ring[next] = key
            next = (next + 1) % capacity
            accepted &+= 1
            if model.count == capacity { model.removeFirst() }
            model.append(key)
        }
    }
}
