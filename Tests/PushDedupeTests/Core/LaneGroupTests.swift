@testable import PushDedupe
import Testing

/// The whole-group views the lane indexes scan with, against their one-lane definitions.
@Suite struct LaneGroupTests {
    /// Every one of the 256 lane patterns comes back as its own bits.
    @Test func bitsNumberTheTrueLanes() {
        for pattern in 0..<256 {
            var lanes = SIMD8<UInt32>.zero
            for lane in 0..<8 where pattern >> lane & 1 == 1 { lanes[lane] = 7 }
            #expect(_LaneGroup.bits(lanes .== SIMD8(repeating: 7)) == UInt32(pattern), "pattern \(pattern)")
        }
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
