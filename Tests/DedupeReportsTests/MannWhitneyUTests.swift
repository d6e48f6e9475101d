@testable import DedupeDecision
import Testing
@testable import DedupeReports

@Suite struct MannWhitneyUTests {
    @Test func separatedSamplesGiveTheSmallestExactP() throws {
        let result = try #require(MannWhitneyU.test([1, 2, 3, 4, 5], [6, 7, 8, 9, 10]))
        #expect(result.exact)
        #expect(result.u == 25)
        #expect(abs(result.pValue - 1.0 / 252) < 1e-12)
        let reversed = try #require(MannWhitneyU.test([6, 7, 8, 9, 10], [1, 2, 3, 4, 5]))
        #expect(reversed.u == 0)
        #expect(reversed.pValue == 1)
    }

    /// Enumerates all C(6,3) = 20 arrangements by hand: P(U ≥ 8) = 2/20 (U = 8 and U = 9).
    @Test func exactTailMatchesEnumeration() throws {
        let result = try #require(MannWhitneyU.test([1, 2, 4], [3, 5, 6]))
        #expect(result.u == 8)
        #expect(abs(result.pValue - 2.0 / 20) < 1e-12)
    }

    @Test func exactDistributionSumsToOne() {
        for (n1, n2) in [(1, 1), (2, 5), (5, 5), (7, 3)] {
            #expect(MannWhitneyU.exactUpperTail(u: 0, n1: n1, n2: n2) == 1)
        }
    }

    @Test func tiesUseTheCorrectedNormalApproximation() throws {
        let result = try #require(MannWhitneyU.test([1, 1, 2, 2, 3], [2, 3, 3, 4, 4]))
        #expect(!result.exact)
        // Ranks: 1,1 → 1.5; 2,2,2 → 4; 3,3,3 → 7; 4,4 → 9.5. Second sample: 4+7+7+9.5+9.5 = 37.
        #expect(result.u == 37 - 15)
        #expect(result.pValue > 0.01 && result.pValue < 0.05)
        let identical = try #require(MannWhitneyU.test([5, 5, 5], [5, 5, 5]))
        #expect(identical.pValue == 1)
    }

    @Test func emptySamplesHaveNoTest() {
        #expect(MannWhitneyU.test([], [1]) == nil)
    }
}
