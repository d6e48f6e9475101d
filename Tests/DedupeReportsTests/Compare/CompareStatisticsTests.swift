@testable import DedupeDecision
import Foundation
import Testing
@testable import DedupeReports

/// The statistics of `compare` against hand-computed small cases (and, for Student's t, closed
/// forms and values from scipy.stats).
@Suite struct CompareStatisticsTests {
    @Test func hodgesLehmannOfFourAgainstFour() throws {
        // Differences second − first, sorted: −1 0 1 1 2 2 2 3 3 4 4 4 5 5 6 7.
        let first: [Double] = [1, 2, 3, 4]
        let second: [Double] = [3, 5, 6, 8]
        let wide = try #require(HodgesLehmann.estimate(first, second, confidence: 0.95))
        #expect(wide == HodgesLehmann.Estimate(shift: 3, lower: -1, upper: 7))
        // 90%: P(U ≤ 1) = 2/70 ≤ 0.05 < P(U ≤ 2) = 4/70, so C = 2: the 2nd and 15th differences.
        let narrow = try #require(HodgesLehmann.estimate(first, second, confidence: 0.90))
        #expect(narrow == HodgesLehmann.Estimate(shift: 3, lower: 0, upper: 6))
    }

    @Test func hodgesLehmannOddCountTakesTheMiddleDifference() throws {
        // Differences, sorted: 8 9 10 18 19 20 28 29 30. At 50%, P(U ≤ 2) = 4/20 ≤ 0.25 < P(U ≤ 3) = 7/20,
        // so C = 3: the 3rd and 7th differences.
        let estimate = try #require(HodgesLehmann.estimate([1, 2, 3], [11, 21, 31], confidence: 0.5))
        #expect(estimate == HodgesLehmann.Estimate(shift: 19, lower: 10, upper: 28))
    }

    @Test func rankOfLowerBoundFollowsTheExactDistribution() {
        // n₁ = n₂ = 3: P(U = 0) = 1/20 > 0.025, no 95% interval.
        #expect(HodgesLehmann.rankOfLowerBound(3, 3, confidence: 0.95) == 0)
        #expect(HodgesLehmann.rankOfLowerBound(4, 4, confidence: 0.95) == 1)
        // n₁ = n₂ = 5: cumulative counts 1, 2, 4, 7 of 252; 4/252 ≤ 0.025 < 7/252.
        #expect(HodgesLehmann.rankOfLowerBound(5, 5, confidence: 0.95) == 3)
        #expect(HodgesLehmann.estimate([1, 2, 3], [4, 5, 6], confidence: 0.95) == nil)
        #expect(HodgesLehmann.estimate([], [4, 5, 6], confidence: 0.5) == nil)
        #expect(ResultsComparison.minimumForks(alpha: 0.05) == 4)
    }

    /// The settings print as typed, and the confidence 1 − α exactly, however small α is (the
    /// `Double` (1 − 1e-7) × 100 prints as 100 with `%g`).
    @Test func settingsAndConfidenceLevelsPrintAsTyped() {
        #expect(["5", "0.05", "97.5", "0.0000001", "1000"] == [5, 0.05, 97.5, 0.0000001, 1000].map(ResultsComparison.setting))
        let levels = [0.05, 0.025, 0.001, 0.0000001, 0.4999].map { ResultsComparison.Rule(alpha: $0).confidencePercent }
        #expect(levels == ["95", "97.5", "99.9", "99.99999", "50.01"])
    }

    @Test func holmAgainstHandComputedAdjustments() {
        // Sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1: 0.02, 0.03, 0.06, 0.04; running maximum.
        let adjusted = MultipleComparisons.holm.adjusted([0.01, 0.04, 0.03, 0.005])
        for (value, expected) in zip(adjusted, [0.03, 0.06, 0.06, 0.02]) { #expect(abs(value - expected) < 1e-12) }
        #expect(MultipleComparisons.holm.adjusted([0.5, 0.9]) == [1, 1])
        #expect(MultipleComparisons.holm.adjusted([]) == [])
    }

    @Test func benjaminiHochbergAgainstHandComputedAdjustments() {
        // k p / rank: 0.02, 0.02, 0.04, 0.04; running minimum from the largest.
        let adjusted = MultipleComparisons.benjaminiHochberg.adjusted([0.01, 0.04, 0.03, 0.005])
        for (value, expected) in zip(adjusted, [0.02, 0.04, 0.04, 0.02]) { #expect(abs(value - expected) < 1e-12) }
        // A larger p before a smaller adjusted one: 0.04 at rank 2 of 2 stays 0.04, 0.03 at rank 1 becomes min(0.06, 0.04).
        let pair = MultipleComparisons.benjaminiHochberg.adjusted([0.04, 0.03])
        #expect(abs(pair[0] - 0.04) < 1e-12 && abs(pair[1] - 0.04) < 1e-12)
    }

    @Test func studentTailsMatchClosedForms() {
        #expect(StudentT.upperTail(0, degreesOfFreedom: 7) == 0.5)
        // Cauchy: P(T > 1) = 1/4. Two degrees of freedom: ½ − t / (2√(t² + 2)).
        #expect(abs(StudentT.upperTail(1, degreesOfFreedom: 1) - 0.25) < 1e-12)
        #expect(abs(StudentT.upperTail(2, degreesOfFreedom: 2) - (0.5 - 2 / (2 * 6.0.squareRoot()))) < 1e-12)
        #expect(abs(StudentT.upperTail(-2, degreesOfFreedom: 2) - (0.5 + 2 / (2 * 6.0.squareRoot()))) < 1e-12)
        // scipy.stats.t.isf(0.05, 7).
        #expect(abs(StudentT.quantile(upper: 0.05, degreesOfFreedom: 7) - 1.8945786050900066) < 1e-9)
    }

    @Test func welchMatchesAHandComputedCase() throws {
        // Means 2 and 5, variances 1 and 1: t = 3 / √(2/3), df = (2/3)² / (2 · (1/3)² / 2) = 4.
        let equal = try #require(StudentT.welch([1, 2, 3], [4, 5, 6]))
        #expect(abs(equal.t - 3 / (2.0 / 3).squareRoot()) < 1e-12)
        #expect(abs(equal.degreesOfFreedom - 4) < 1e-12)
        // scipy.stats.t.sf(3.6742346141747673, 4).
        #expect(abs(equal.pValue - 0.010655820564378356) < 1e-12)
        // Unequal variances: scipy.stats.ttest_ind(..., equal_var=False, alternative='less').
        let unequal = try #require(StudentT.welch([1, 2, 3], [4, 5, 6.5]))
        #expect(abs(unequal.degreesOfFreedom - 3.8059405940594067) < 1e-9)
        #expect(abs(unequal.pValue - 0.014572652931024667) < 1e-9)
        #expect(StudentT.welch([1], [2, 3]) == nil)
        #expect(StudentT.welch([1, 1], [2, 2])?.pValue == 0)
        #expect(StudentT.welch([2, 2], [2, 2])?.pValue == 1)
    }
}
