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

    /// Emptying by ids must clear every bucket, even when the ids share one wrapping run, so that
    /// an id whose probe passes a bucket zeroed earlier is still found; and it must agree with a
    /// full wipe whichever path it takes.
    @Test(arguments: [4, 40, 512])
    func removeAllByKeysClearsEveryBucket(bucketsPerKey: Int) {
        var keys: [EnvelopeID] = []
        var n = 0
        let slotCapacity = 2_048
        let bucketCount = 4_096
        let wanted = max(1, bucketCount / bucketsPerKey)
        while keys.count < wanted {
            let id = testEnvelope(n)
            n += 1
            // Half of them collide on the last home bucket, so runs wrap past the end.
            if keys.count % 2 == 1 || id.hash64 & UInt64(bucketCount - 1) == UInt64(bucketCount - 1) { keys.append(id) }
        }
        var index = _SlotIndex(slotCapacity: slotCapacity)
        #expect(index._buckets.count == bucketCount)
        var random = SplitMix64(seed: 0xc1ea2)
        for slot in Array(0..<keys.count).shuffled(using: &random) {
            let found = index.find(keys[slot], hash: keys[slot].hash64, keys: keys)
            index.insert(slot: slot, hash: keys[slot].hash64, at: found.bucket)
        }
        #expect(index._buckets.filter { $0 != 0 }.count == keys.count)
        index.removeAll(keys: keys)
        #expect(index._buckets.allSatisfy { $0 == 0 })
    }
}
