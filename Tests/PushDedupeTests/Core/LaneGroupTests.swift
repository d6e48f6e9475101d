@testable import PushDedupe
import Testing

/// The whole-group views the lane indexes scan with, against their one-lane definitions.
@Suite struct LaneGroupTests {
    /// Every one of the 256 lane patterns comes back as its entry lanes (0...6): `contains`,
    /// `first`, `hasSeveral` and `removeFirst` agree with the pattern's bits.
    @Test func entryLanesAreTheTrueEntryLanes() {
        for pattern in 0..<256 {
            var lanes = SIMD8<UInt32>.zero
            for lane in 0..<8 where pattern >> lane & 1 == 1 { lanes[lane] = 7 }
            var set = _LaneGroup.entryLanes(lanes .== SIMD8(repeating: 7))
            let expected = (0..<7).filter { pattern >> $0 & 1 == 1 }
            #expect((0..<8).filter(set.contains) == expected, "pattern \(pattern)")
            #expect(set.hasSeveral == (expected.count > 1), "pattern \(pattern)")
            var drained: [Int] = []
            while !set.isEmpty {
                drained.append(set.first)
                set.removeFirst()
            }
            #expect(drained == expected, "pattern \(pattern)")
            #expect(set.first == 8)
        }
    }

    /// `entries` masks before comparing: lanes equal under the mask match, whatever their other bits.
    @Test func entriesCompareUnderTheMask() {
        let group = SIMD8<UInt32>(0x8000_0001, 0x8000_0002, 0x4000_0001, 0x8000_0003, 0, 0x8000_0000, 0x8000_00ff, 0x8000_0001)
        let set = _LaneGroup.entries(group, masked: 0xffff_ff00, equalTo: 0x8000_0000)
        #expect((0..<8).filter(set.contains) == [0, 1, 3, 5, 6])
    }

    /// A group is the eight lanes from its base, whatever the buffer's alignment.
    @Test func loadReadsTheGroupAtItsBase() {
        let values = (0..<33).map { UInt32($0) &* 0x9e37_79b9 }
        values.withUnsafeBufferPointer { all in
            // Starting one lane in, so that no group is 16- or 32-byte aligned.
            let lanes = UnsafeBufferPointer(rebasing: all[1...])
            for base in stride(from: 0, to: 32, by: 8) {
                let group = _LaneGroup.load(lanes, at: base)
                #expect((0..<8).allSatisfy { group[$0] == lanes[base + $0] }, "group at \(base)")
            }
        }
    }
}
