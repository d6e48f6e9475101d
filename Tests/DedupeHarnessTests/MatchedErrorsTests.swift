@testable import DedupeHarness
import DedupeWorkloads
import Testing

/// Errors matched event by event, and the exact sign test on the discordant pairs.
@Suite struct MatchedErrorsTests {
    static func raw(_ decisions: [CaseDecision]) -> [UInt8] { decisions.map(\.rawValue) }

    /// A case that drops one wanted navigation the reference keeps and keeps one the reference
    /// drops, and misses one duplicate the reference blocks while blocking one it misses, has
    /// the reference's totals exactly: netting shows nothing, matching shows all four.
    @Test func eventMatchingCatchesOffsettingErrorsThatNettingHides() {
        let truths: [Truth] = [.new, .new, .dup, .dup, .new]
        let reference = Self.raw([.navigated, .suppressedByWindow, .suppressedByConsumedSet, .navigated, .navigated])
        let candidate = Self.raw([.suppressedByConsumedSet, .navigated, .navigated, .suppressedByWindow, .navigated])
        let drops = { (d: [UInt8]) in zip(d, truths).filter { $1 == .new && $0 != CaseDecision.navigated.rawValue }.count }
        let misses = { (d: [UInt8]) in zip(d, truths).filter { $1 == .dup && $0 == CaseDecision.navigated.rawValue }.count }
        #expect(drops(candidate) - drops(reference) == 0 && misses(candidate) - misses(reference) == 0)
        let matched = MatchedErrors(decisions: candidate, referenceDecisions: reference, truths: truths, reference: "ref")
        #expect(matched.newlyDropped == 1)
        #expect(matched.recoveredNavigations == 1)
        #expect(matched.newlyMissed == 1)
        #expect(matched.newlyBlockedDuplicates == 1)
        #expect(matched.mcnemarP == 1)
    }

    /// A skipped emit is not a drop (its payload's suppression was scored), and an unlabelled
    /// event is never an error: a difference on one is counted apart, by direction.
    @Test func skippedEmitsAndUnlabelledEventsAreNotErrors() {
        let matched = MatchedErrors(
            decisions: Self.raw([.skippedEmit, .navigated]), referenceDecisions: Self.raw([.navigated, .suppressedByGuard]),
            truths: [.new, .unknown], reference: "ref")
        var expected = MatchedErrors(reference: "ref", newlyDropped: 0, newlyMissed: 0, recoveredNavigations: 0, newlyBlockedDuplicates: 0)
        expected.newlyNavigatedUnlabelled = 1
        #expect(matched == expected)
        let suppressed = MatchedErrors(
            decisions: Self.raw([.suppressedByWindow]), referenceDecisions: Self.raw([.navigated]), truths: [.unknown], reference: "ref")
        #expect(suppressed.newlySuppressedUnlabelled == 1 && suppressed.newlyDropped == 0 && suppressed.newlyNavigatedUnlabelled == 0)
    }

    /// Hand-computed: P(X ≤ k) for X ~ Binomial(n, ½), doubled.
    @Test func signTestMatchesHandComputedValues() {
        #expect(SignTest.twoSidedP(0, 0) == 1)
        #expect(abs(SignTest.twoSidedP(0, 5) - 2.0 / 32) < 1e-15)
        #expect(abs(SignTest.twoSidedP(5, 1) - 14.0 / 64) < 1e-15)
        #expect(abs(SignTest.twoSidedP(2, 10) - 158.0 / 4096) < 1e-15)
        #expect(SignTest.twoSidedP(3, 3) == 1)
        #expect(SignTest.twoSidedP(7, 6) == 1)
        // 2 · 2⁻¹⁰⁰: far below what a direct sum of doubles of C(100, k) could carry.
        let tiny = SignTest.twoSidedP(0, 100)
        #expect(abs(tiny / 0x1p-99 - 1) < 1e-12)
        // n = 2,000,000, k = n/2 - 1,000: z ≈ -1.414, p ≈ 0.1573 (normal approximation with
        // continuity correction gives 0.15735; the exact value is within 1e-3 of it).
        let large = SignTest.twoSidedP(999_000, 1_001_000)
        #expect(large > 0.1563 && large < 0.1583)
    }

    /// The runner matches every case with the reference of its mode on the same workload, and
    /// runs (and reports) a reference the filter left out.
    @Test func runnerMatchesEveryCaseWithItsModesReference() throws {
        // Two envelopes, then the first replayed: a one-id FIFO set has forgotten it.
        let workload = trace([(0, .payload, 1, 0, .new), (1_000, .payload, 2, 1, .new), (2_000, .emit, 1, 0, .dup)])
        let results = try BenchmarkRunner.run(scoringPlan(workload, consumed: ["tiny-fifo"], modes: ["envelope-only"])) { _ in }
        let fifo = try #require(result(results, "envelope-only", consumed: "tiny-fifo")?.correctness?.matched)
        #expect(fifo.reference == "hand.csv/envelope-only/set/minted/memory")
        #expect(fifo.newlyMissed == 1 && fifo.newlyDropped == 0 && fifo.recoveredNavigations == 0)
        #expect(fifo.newlyBlockedDuplicates == 0)
        #expect(results.cases.filter { $0.consumed == "set" }.map(\.id.text) == [fifo.reference], "the reference is reported")
    }
}

/// What counts as losing a wanted navigation when matched.
@Suite struct MatchedDropTests {
    /// The top-of-stack guard drops only a screen the user already has; the loading guard drops
    /// a tap, which is lost.
    @Test func theLoadingGuardDropsAndTheTopGuardDoesNot() {
        let matched = MatchedErrors(
            decisions: MatchedErrorsTests.raw([.suppressedByGuard, .suppressedByLoadingGuard]),
            referenceDecisions: MatchedErrorsTests.raw([.navigated, .navigated]), truths: [.new, .new], reference: "ref")
        #expect(matched.newlyDropped == 1)
    }
}
