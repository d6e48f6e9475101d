@testable import PushDedupe
import Testing

/// The shared index under collisions the sets' random ids rarely produce: one home bucket
/// holding a run longer than the 7-bit distance field, wrapping past the table's end.
@Suite struct SlotIndexTests {
    /// 150 ids whose home is bucket 505 of 512, plus 50 others, inserted, removed and re-inserted
    /// in random order against a dictionary model.
    @Test func longWrappingRunsSurviveDeletionInAnyOrder() {
        var keys: [EnvelopeID] = []
        var n = 0
        while keys.count < 200 {
            let id = envelope(n)
            n += 1
            if keys.count >= 150 || id.hash64 & 511 == 505 { keys.append(id) }
        }
        var index = _SlotIndex(slotCapacity: keys.count)
        #expect(index.footprint == 512 * 4)
        var random = SplitMix64(seed: 0x51_07)
        var present = Set<Int>()
        for _ in 0..<40 {
            for slot in Array(0..<keys.count).shuffled(using: &random) {
                let hash = keys[slot].hash64
                if present.contains(slot) {
                    if Bool.random(using: &random) {
                        index.remove(slot: slot, hash: hash, keys: keys)
                        present.remove(slot)
                    }
                } else if Bool.random(using: &random) {
                    let found = index.find(keys[slot], hash: hash, keys: keys)
                    index.insert(slot: slot, hash: hash, at: found.bucket)
                    present.insert(slot)
                }
            }
            let wrong = (0..<keys.count).filter {
                index.find(keys[$0], hash: keys[$0].hash64, keys: keys).slot != (present.contains($0) ? $0 : -1)
            }
            #expect(wrong.isEmpty)
            if !wrong.isEmpty { return }
            #if PUSHDEDUPE_INTERNAL_CHECKS
            index._checkInvariants(live: present, keys: keys)
            #endif
        }
        for slot in present { index.remove(slot: slot, hash: keys[slot].hash64, keys: keys) }
        #expect(index._buckets.allSatisfy { $0 == 0 })
    }
}
