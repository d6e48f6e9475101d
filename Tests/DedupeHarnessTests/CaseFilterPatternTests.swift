import Testing
@testable import DedupeHarness

/// `--filter case=/REGEX/`: the cases whose id has a match are kept, beside every mode's
/// reference; a pattern that matches no case id stops the run before anything is measured.
@Suite struct CaseFilterPatternTests {
    static func plan(_ patterns: [String]) -> RunPlan {
        var filter = RunFilter(windows: ["hash-deque", "published-literal"], consumedSets: ["set", "fifo-set"], workloads: ["button-double-tap"], modes: ["two-layer"])
        filter.casePatterns = patterns.isEmpty ? nil : patterns
        var plan = RunPlan(seed: 1, repetitions: 1, filter: filter, measureTiming: false, measureMemory: false, runSweeps: false)
        plan.memoryIsolation = .inProcess
        return plan
    }

    @Test func aPatternKeepsTheCasesItMatchesAndTheReferences() throws {
        let all = try BenchmarkRunner.run(Self.plan([])) { _ in }
        let kept = try BenchmarkRunner.run(Self.plan(["hash-deque.*fifo-set"])) { _ in }
        let ids = kept.cases.map(\.id.text)
        #expect(ids.count < all.cases.count)
        #expect(ids.contains { $0.contains("hash-deque") && $0.contains("fifo-set") })
        for result in kept.cases {
            let matches = result.id.text.firstMatch(of: try Regex("hash-deque.*fifo-set")) != nil
            #expect(matches || result.isReference, "\(result.id.text)")
        }
        #expect(kept.settings.filters.contains("case=/hash-deque.*fifo-set/"))
    }

    @Test func aPatternThatMatchesNothingIsRefused() {
        #expect {
            try BenchmarkRunner.run(Self.plan(["bloom"])) { _ in }
        } throws: { error in
            "\(error)".contains("/bloom/ matches no case id")
        }
    }
}
