import DedupeHarness
import DedupeWorkloads
import Testing
@testable import DedupeReports

@Suite struct MarkdownReportTests {
    @Test func sectionsComeInTheDocumentedOrder() {
        let markdown = MarkdownReport.render(Fixtures.results(), charts: ChartReport.charts(Fixtures.results()))
        let headings = ["## Recommendation", "## Environment", "## Strategies", "## Per-layer comparison",
                        "## Mode × scenario matrix", "## Pareto frontier", "## Correctness", "## Memory", "## Charts"]
        let positions = headings.map { markdown.range(of: $0)?.lowerBound }
        #expect(positions.allSatisfy { $0 != nil })
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted())
        #expect(markdown.contains("![Layer 1: ns/event against live-set size](window-ns-vs-live-set.svg)"))
        #expect(markdown.contains("_Decision rule, in order:_ (1) **guarantee**"))
        #expect(markdown.contains("**lower × is faster**"))
    }

    @Test func scenarioVerdictsCarryDenominators() {
        func make(_ mode: String, falseDrops: Int = 0, missed: Int = 0, dup: Int = 10) -> CaseResult {
            CaseResult(
                workload: "s", mode: mode, window: "seed-literal", consumed: "set", parameters: Fixtures.parameters,
                timing: nil, memory: nil, correctness: Fixtures.correctness(dup: dup, falseDrops: falseDrops, missed: missed))
        }
        var results = Fixtures.results([
            make("fingerprint-only", missed: 1), make("envelope-only", falseDrops: 2), make("two-layer"),
            make("two-layer-guarded", dup: 0), Fixtures.pipeline("seed-literal", "set", ns: 1, bytes: 1, workload: "w"),
        ])
        let profile = DeviceProfile.derive(from: [], windowMilliseconds: 500)
        results.workloads = [
            WorkloadInfo(id: "s", description: "sum", category: "published", tag: "device", events: 100, envelopes: 90,
                         replays: 8, replaysWithinWindow: 6, profile: profile),
            WorkloadInfo(id: "w", description: "stress", category: "stress", tag: "stress", events: 100, envelopes: 90,
                         replays: 0, replaysWithinWindow: 0, profile: profile),
        ]
        let matrix = ScenarioMatrix.make(from: results)
        #expect(matrix.modes == ["fingerprint-only", "envelope-only", "two-layer", "two-layer-guarded"])
        #expect(matrix.rows.map(\.scenario) == ["s"])
        #expect(matrix.rows[0].verdicts.map { $0?.description } == [
            "9/10 blocked", "10/10 blocked, 2/90 dropped", "10/10 blocked", "90/90 passed",
        ])
        #expect(matrix.rows[0].summary == "sum (6/8 replays within the 500 ms window this run used)")
        #expect(matrix.plainText().contains("9/10 blocked"))
    }

    @Test func paretoKeepsOnlyNonDominated() {
        let candidates = Candidate.aggregate([
            Fixtures.pipeline("a", "x", ns: 10, bytes: 100),
            Fixtures.pipeline("b", "x", ns: 20, bytes: 50),
            Fixtures.pipeline("c", "x", ns: 30, bytes: 200),
            Fixtures.pipeline("d", "x", ns: 10, bytes: 100),
        ])
        let frontier = ParetoFrontier.frontier(candidates, objectives: [\.nanosecondsPerEvent, \.memoryBytes])
        #expect(frontier.map(\.label) == ["a + x", "b + x", "d + x"])
    }
}
