@testable import DedupeMeasurement
import PushDedupe
import Testing
@testable import DedupeHarness

/// The clock calibration's counting median and smallest step against sorting, on seeded deltas
/// that mix the usual tens of nanoseconds with preemptions far above the counted range.
@Suite struct MonotonicClockTests {
    @Test(arguments: [1, 2, 3, 10, 1_001, 20_000])
    func countingAgreesWithSorting(count: Int) {
        var random = SplitMix64(seed: UInt64(count))
        for round in 0..<20 {
            let deltas: [UInt64] = (0..<count).map { _ in
                switch Int.random(in: 0..<10, using: &random) {
                case 0: return 0
                case 1: return UInt64.random(in: 4_000...9_000_000, using: &random)
                default: return UInt64.random(in: 1...80, using: &random) * (round % 3 == 0 ? 100 : 1)
                }
            }
            let sorted = deltas.sorted()
            let (smallestStep, median) = MonotonicClock.smallestStepAndMedian(deltas)
            #expect(median == sorted[count / 2], "count \(count) round \(round)")
            #expect(smallestStep == sorted.first { $0 > 0 }, "count \(count) round \(round)")
        }
    }
}
