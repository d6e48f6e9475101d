@testable import PushDedupe
import Testing

/// The shared index under collisions the sets' random ids rarely produce: one home bucket
/// holding a run longer than the 7-bit distance field, wrapping past the table's end.
@Suite struct SlotIndexTests {
    /// 200 ids whose home is bucket 505 of 512, plus 56 others: whenever most are present the
    /// run is longer than the distance field can hold. Each round fills the table in random order,
    /// then removes a random share, checking against a dictionary model.
    @Test func longWrappingRunsSurviveDeletionInAnyOrder() {
        var keys: [EnvelopeID] = []
        var n = 0
        while keys.count < 256 {
            let id = testEnvelope(n)
            n += 1
            if keys.count >= 200 || id.hash64 & 511 == 505 { keys.append(id) }
        }
        var index = _SlotIndex(slotCapacity: keys.count)
        #expect(index.footprint == 512 * 4)
        var random = SplitMix64(seed: 0x51_07)
        var present = Set<Int>()
        for round in 0..<20 {
            for slot in Array(0..<keys.count).shuffled(using: &random) where !present.contains(slot) {
                let found = index.find(keys[slot], hash: keys[slot].hash64, keys: keys)
                index.insert(slot: slot, hash: keys[slot].hash64, at: found.bucket)
                present.insert(slot)
            }
            let share = round % 4 + 1
            let order = Array(0..<keys.count).shuffled(using: &random)
            for slot in order where Int.random(in: 0..<5, using: &random) < share {
                index.remove(slot: slot, hash: keys[slot].hash64, keys: keys)
                present.remove(slot)
            }
            let wrong = (0..<keys.count).filter {
                index.find(keys[$0], hash: keys[$0].hash64, keys: keys).slot != (present.contains($0) ? $0 : -1)
            }
            #expect(wrong.isEmpty, "round \(round)")
            if !wrong.isEmpty { return }
            #if PUSHDEDUPE_INTERNAL_CHECKS
            index._checkInvariants(live: present, keys: keys)
            #endif
        }
        for slot in present { index.remove(slot: slot, hash: keys[slot].hash64, keys: keys) }
        #expect(index._buckets.allSatisfy { $0 == 0 })
    }
}
