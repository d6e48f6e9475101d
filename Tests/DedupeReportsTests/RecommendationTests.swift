import DedupeHarness
import Testing
@testable import DedupeReports

@Suite struct RecommendationTests {
    typealias F = Fixtures

    @Test func zeroFalseDropsOutranksMemoryAndSpeed() {
        let recommendation = Recommendation.make(from: F.results())
        #expect(recommendation.winner?.label == "hash-deque + set")
        #expect(recommendation.runnerUp?.label == "seed-literal + set")
        #expect(recommendation.wouldChange.contains { $0.contains("hash-deque + bloom") && $0.contains("drops 1") })
    }

    @Test func fewestFalseDropsWinWhenNoneIsSafe() {
        let results = F.results([
            F.pipeline("a", "x", ns: 10, bytes: 10, falseDrops: 5),
            F.pipeline("b", "y", ns: 90, bytes: 90, falseDrops: 2),
        ])
        #expect(Recommendation.make(from: results).winner?.label == "b + y")
    }

    @Test func missedDuplicateBudgetComesBeforeMemory() {
        let results = F.results([
            F.pipeline("lean", "lru", ns: 10, bytes: 100, missed: 3),
            F.pipeline("fat", "set", ns: 30, bytes: 9000, missed: 0),
        ])
        let strict = Recommendation.make(from: results)
        #expect(strict.winner?.label == "fat + set")
        #expect(strict.wouldChange.contains { $0.contains("lean + lru") && $0.contains("were acceptable") })
        let lax = Recommendation.make(from: results, rule: RecommendationRule(missedDuplicateBudget: 0.5))
        #expect(lax.winner?.label == "lean + lru")
    }

    @Test func overBudgetEverywhereKeepsTheFewestMisses() {
        let results = F.results([
            F.pipeline("a", "x", ns: 10, bytes: 10, missed: 5),
            F.pipeline("b", "y", ns: 90, bytes: 90, missed: 2),
        ])
        let recommendation = Recommendation.make(from: results)
        #expect(recommendation.winner?.label == "b + y")
        #expect(recommendation.wouldChange.contains("No candidate without extra false drops misses no more duplicates than the published code."))
    }

    @Test func memoryWithinToleranceIsATieDecidedBySpeed() {
        let results = F.results([
            F.pipeline("slow", "x", ns: 50, bytes: 1000),
            F.pipeline("quick", "y", ns: 20, bytes: 1050),
            F.pipeline("fast", "z", ns: 5, bytes: 5000),
        ])
        let recommendation = Recommendation.make(from: results)
        #expect(recommendation.winner?.label == "quick + y")
        #expect(recommendation.wouldChange.contains { $0.hasPrefix("If speed outranked memory, fast + z") })
    }

    @Test func aggregatesOverWorkloads() {
        let results = F.results([
            F.pipeline("a", "x", ns: 10, bytes: 100, workload: "one"),
            F.pipeline("a", "x", ns: 40, bytes: 300, missed: 1, workload: "two"),
        ])
        let winner = Recommendation.make(from: results).winner
        #expect(winner?.workloads == 2)
        #expect(winner?.missedDuplicates == 1)
        #expect(winner?.dupEvents == 20)
        #expect(winner?.memoryBytes == 300)
        #expect(abs((winner?.nanosecondsPerEvent ?? 0) - 20) < 1e-9)
    }

    /// The harness runs some pairs on one workload only; their sums must not compete with
    /// sums over every workload.
    @Test func onlyCandidatesCoveringEveryWorkloadCompete() {
        let results = F.results([
            F.pipeline("a", "x", ns: 30, bytes: 100, missed: 1, workload: "one"),
            F.pipeline("a", "x", ns: 30, bytes: 100, missed: 1, workload: "two"),
            F.pipeline("b", "x", ns: 40, bytes: 100, workload: "one"),
            F.pipeline("b", "x", ns: 40, bytes: 100, workload: "two"),
            F.pipeline("c", "y", ns: 5, bytes: 10, workload: "one"),
        ])
        let recommendation = Recommendation.make(from: results)
        #expect(recommendation.winner?.label == "b + x")
        #expect(recommendation.runnerUp?.label == "a + x")
        let markdown = MarkdownReport.render(results)
        #expect(markdown.contains("on the workloads all of them ran on (`one`)"))
    }

    @Test func prefersTwoLayerAndFallsBackToGuarded() {
        let guardedOnly = F.results([F.pipeline("a", "x", ns: 1, bytes: 1, mode: "two-layer-guarded")])
        #expect(Recommendation.make(from: guardedOnly).mode == "two-layer-guarded")
        let none = F.results([F.pipeline("a", "x", ns: 1, bytes: 1, mode: "fingerprint-only")])
        #expect(Recommendation.make(from: none).winner == nil)
        #expect(MarkdownReport.render(none).contains("no pipeline to recommend"))
    }

    @Test func rankOrdersByTheWholeRule() {
        let candidates = Candidate.aggregate([
            F.pipeline("d", "x", ns: 1, bytes: 1, falseDrops: 1),
            F.pipeline("c", "x", ns: 1, bytes: 1, missed: 5),
            F.pipeline("b", "x", ns: 9, bytes: 1),
            F.pipeline("a", "x", ns: 2, bytes: 1),
        ])
        #expect(RecommendationRule().rank(candidates).map(\.label) == ["a + x", "b + x", "c + x", "d + x"])
    }

    /// Every exact window drops the same in-window re-taps; a window that forgets early drops
    /// fewer of them only by missing duplicates. Errors count beyond the published code's.
    @Test func errorsCountBeyondThePublishedCodeOnTheSameWorkload() {
        let results = F.results([
            F.pipeline("seed-literal", "set", ns: 100, bytes: 4000, falseDrops: 7, missed: 1),
            F.pipeline("hash-deque", "set", ns: 20, bytes: 4000, falseDrops: 7, missed: 1),
            F.pipeline("forgetful", "set", ns: 10, bytes: 4000, falseDrops: 2, missed: 6),
            F.pipeline("hash-deque", "bloom", ns: 15, bytes: 500, falseDrops: 8, missed: 1),
        ])
        let recommendation = Recommendation.make(from: results)
        #expect(recommendation.winner?.label == "hash-deque + set")
        #expect(recommendation.winner?.extraFalseDrops == 0)
        #expect(recommendation.winner?.falseDrops == 7)
        let candidates = Candidate.aggregate(results.cases)
        #expect(candidates.first { $0.label == "forgetful + set" }.map { ($0.extraFalseDrops, $0.extraMissedDuplicates) } ?? (-1, -1) == (0, 5))
        #expect(candidates.first { $0.label == "hash-deque + bloom" }?.extraFalseDrops == 1)
        #expect(recommendation.wouldChange.contains { $0.contains("forgetful + set") && $0.contains("were acceptable") })
    }
}
