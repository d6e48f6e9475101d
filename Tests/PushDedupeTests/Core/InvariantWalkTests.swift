@testable import PushDedupe
import Testing

#if PUSHDEDUPE_INTERNAL_CHECKS
/// The schedule of the debug builds' full invariant walks.
@Suite struct InvariantWalkTests {
    /// Small structures are walked after every change. Up to 256, every run of ⌈size / 16⌉
    /// consecutive changes holds exactly one walk, so walking costs about 16 entries per change
    /// (and, where the change counter wraps at 2³², every run of twice that holds one). Above
    /// 256, never.
    @Test func everyRunOfOnePeriodHoldsOneWalk() {
        func walks(size: Int, from first: UInt32, count: Int) -> Int {
            (0..<UInt32(count)).filter { _InvariantWalk.isDue(size: size, change: first &+ $0) }.count
        }
        for size in 0...300 {
            guard let period = _InvariantWalk.period(size: size).map(Int.init) else {
                #expect(size > _InvariantWalk.largestWalked)
                #expect(walks(size: size, from: 0, count: 1_000) == 0)
                continue
            }
            #expect(size <= _InvariantWalk.largestWalked)
            #expect(period == (size <= 16 ? 1 : (size + 15) / 16))
            for first in (0..<UInt32(40)) + [1_000_003] where walks(size: size, from: first, count: period) != 1 {
                Issue.record("size \(size): changes \(first)..<\(first + UInt32(period)) hold other than one walk")
                return
            }
            for first in (UInt32.max - 40)...UInt32.max where walks(size: size, from: first, count: 2 * period) == 0 {
                Issue.record("size \(size): no walk in the changes from \(first), across the wrap")
                return
            }
        }
    }
}
#endif
