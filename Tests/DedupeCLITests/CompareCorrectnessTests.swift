@testable import DedupeDecision
@testable import DedupeHarness
import DedupeReports
import Testing

/// `compare`'s correctness gate: a rise in false drops, newly dropped or newly missed events on
/// any case fails it, through the binary's exit code, naming the case and the causes that rose.
@Suite struct CompareCorrectnessTests {
    /// Forked results whose every case has errors, the same on both sides unless `change` says.
    static func scored(seed: UInt64, change: (inout CorrectnessResult, CaseResult) -> Void = { _, _ in }) -> RunResults {
        var results = ForkedResults.make(seed: seed)
        for index in results.cases.indices {
            var correctness = SyntheticResults.correctness(events: 1_000, dups: 100, falseDrops: 2, missed: 10)
            correctness.droppedByCause = [ErrorCause.windowDrop: 2]
            correctness.missedByCause = [ErrorCause.pushIdentity: 10]
            correctness.matched = MatchedErrors(
                reference: "two-layer published-literal+set", newlyDropped: 0, newlyMissed: 1, recoveredNavigations: 0,
                newlyBlockedDuplicates: 0)
            change(&correctness, results.cases[index])
            results.cases[index].correctness = correctness
        }
        return results
    }

    static func isBloom(_ result: CaseResult) -> Bool { result.consumed == "bloom" && result.choice.isBase }

    @Test func aFileComparedWithItselfPasses() throws {
        let results = Self.scored(seed: 1)
        #expect(CorrectnessRegression.find(baseline: results, current: results).isEmpty)
        let outcome = try CompareCommandTests.compare(results, results)
        #expect(outcome.status == 0, "\(outcome.output)\(outcome.error)")
        #expect(outcome.output.contains("No correctness regression."))
    }

    @Test func newFalseDropsFailNamingTheCaseAndTheCause() throws {
        let baseline = Self.scored(seed: 1)
        // The same timings, so only correctness can fail the gate.
        let current = Self.scored(seed: 1) { correctness, result in
            guard Self.isBloom(result) else { return }
            correctness.falseDrops += 3
            correctness.droppedByCause[ErrorCause.setFalsePositive] = 3
            correctness.matched?.newlyDropped = 3
        }
        let comparison = ResultsComparison(baseline: baseline, current: current)
        #expect(comparison.units.allSatisfy { $0.verdict != .regression })
        #expect(comparison.hasRegression)
        let bloomCases = baseline.cases.filter(Self.isBloom).count
        #expect(comparison.correctness.count == 2 * bloomCases)
        #expect(Set(comparison.correctness.map(\.figure)) == ["false drops", "newly dropped"])
        let outcome = try CompareCommandTests.compare(baseline, current)
        #expect(outcome.status == 1)
        let name = try #require(baseline.cases.first(where: Self.isBloom)).id.text
        #expect(outcome.output.contains("  \(name): false drops 2 → 5 (consumed-set false positive +3)"), "\(outcome.output)")
        #expect(outcome.output.contains("Correctness regressions (\(2 * bloomCases)), each a failure:"))
    }

    @Test func newlyMissedDuplicatesFailWithTheirCause() {
        let baseline = Self.scored(seed: 1)
        let current = Self.scored(seed: 1) { correctness, result in
            guard Self.isBloom(result) else { return }
            correctness.missedDuplicates += 4
            correctness.missedByCause[ErrorCause.forgotten] = 4
            correctness.matched?.newlyMissed = 5
        }
        let regressions = CorrectnessRegression.find(baseline: baseline, current: current)
        #expect(!regressions.isEmpty)
        #expect(regressions.allSatisfy { $0.figure == "newly missed" && $0.baseline == 1 && $0.current == 5 })
        #expect(regressions.allSatisfy { $0.causes == ["\(ErrorCause.forgotten) +4"] })
    }

    @Test func fewerErrorsAreNotARegression() {
        let baseline = Self.scored(seed: 1)
        let current = Self.scored(seed: 1) { correctness, _ in
            correctness.falseDrops = 0
            correctness.droppedByCause = [:]
            correctness.matched?.newlyMissed = 0
        }
        #expect(CorrectnessRegression.find(baseline: baseline, current: current).isEmpty)
    }
}
