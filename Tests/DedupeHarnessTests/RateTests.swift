@testable import DedupeHarness
import Testing

@Suite struct RateTests {
    @Test(arguments: [
        (0, 100, 0.0, 0.036_993_5),
        (5, 100, 0.021_543_7, 0.111_750_5),
        (50, 100, 0.403_831_5, 0.596_168_5),
        (1, 3, 0.061_491_9, 0.792_340_4),
        (10, 10, 0.722_467_2, 1.0),
    ])
    func wilsonMatchesKnownValues(count: Int, total: Int, lower: Double, upper: Double) {
        let rate = Rate(wilson: count, of: total)
        #expect(abs(rate.lower95 - lower) < 1e-6)
        #expect(abs(rate.upper95 - upper) < 1e-6)
        #expect(rate.value == Double(count) / Double(total))
    }

    @Test func emptyTotalIsUninformative() {
        let rate = Rate(wilson: 0, of: 0)
        #expect(rate.value == 0 && rate.lower95 == 0 && rate.upper95 == 1)
    }
}
