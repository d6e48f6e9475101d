@testable import PushDedupe
import Testing

/// `_SlotHash` must spread ids whatever bits they differ in: a hash that ignored some bits would
/// pile such ids into one group and turn every lookup into a scan.
@Suite struct SlotHashTests {
    /// 4,096 ids over 16,384 groups (64K capacity), differing only in the top 12 bits of one
    /// half, only in the low 12 bits, or counting up in both: random placement fills about
    /// 3,600 distinct groups with at most a handful of ids in any one.
    @Test(arguments: ["high top", "high low", "low top", "low low", "both counting"])
    func structuredIdsSpreadOverGroups(pattern: String) {
        let groupMask = 16_383
        var perGroup: [Int: Int] = [:]
        for n in 0..<4_096 {
            let k = UInt64(n)
            let id = switch pattern {
            case "high top": EnvelopeID(high: k << 52 | 0x4000, low: 0x8000_0000_0000_0001)
            case "high low": EnvelopeID(high: 0x1234_5678_0000_4000 | k, low: 0x8000_0000_0000_0001)
            case "low top": EnvelopeID(high: 0x4000, low: k << 52)
            case "low low": EnvelopeID(high: 0x4000, low: 0x8000_0000_0000_0000 | k)
            default: EnvelopeID(high: k, low: k)
            }
            perGroup[_SlotHash(id).group(groupMask), default: 0] += 1
        }
        #expect(perGroup.count > 3_000, "\(pattern): only \(perGroup.count) groups used")
        #expect(perGroup.values.max()! <= 8, "\(pattern): \(perGroup.values.max()!) ids in one group")
    }

    /// One group takes everything, and the top bits serve every table size.
    @Test func groupsStayInRange() {
        for bits in 0...30 {
            let mask = (1 << bits) - 1
            for n in 0..<64 {
                let group = _SlotHash(testEnvelope(n)).group(mask)
                #expect(group >= 0 && group <= mask)
            }
        }
    }
}
