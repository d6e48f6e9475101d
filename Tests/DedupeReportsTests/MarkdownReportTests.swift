import DedupeHarness
import DedupeWorkloads
import Testing
@testable import DedupeReports

@Suite struct MarkdownReportTests {
    @Test func sectionsComeInTheDocumentedOrder() {
        let markdown = MarkdownReport.render(Fixtures.results(), charts: ChartReport.charts(Fixtures.results()))
        let headings = ["## Recommendation", "## Environment", "## Per-layer comparison", "## Mode × scenario matrix",
                        "## Pareto frontier", "## Correctness", "## Memory", "## Charts"]
        let positions = headings.map { markdown.range(of: $0)?.lowerBound }
        #expect(positions.allSatisfy { $0 != nil })
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted())
        #expect(markdown.contains("![Layer 1: ns/event against live-set size](window-ns-vs-live-set.svg)"))
        #expect(markdown.contains("zero false drops first"))
    }

    @Test func scenarioVerdictsFollowTheCounts() {
        let scenario = Scenario(id: "s", summary: "sum", category: .publishedSituation, tag: .device) { _ in
            Workload(name: "s", summary: "", routes: [], sources: [], events: [])
        }
        let stress = Scenario(id: "w", summary: "stress", category: .stress, tag: .stress) { _ in
            Workload(name: "w", summary: "", routes: [], sources: [], events: [])
        }
        func make(_ mode: String, falseDrops: Int = 0, missed: Int = 0, dup: Int = 1) -> CaseResult {
            CaseResult(
                workload: "s", mode: mode, window: "seed-literal", consumed: "set", parameters: Fixtures.parameters,
                timing: nil, memory: nil, correctness: Fixtures.correctness(dup: dup, falseDrops: falseDrops, missed: missed))
        }
        let results = Fixtures.results([
            make("fingerprint-only", missed: 1), make("envelope-only", falseDrops: 2), make("two-layer"),
            make("two-layer-guarded", dup: 0), Fixtures.pipeline("seed-literal", "set", ns: 1, bytes: 1, workload: "w"),
        ])
        let matrix = ScenarioMatrix.make(from: results, scenarios: [scenario, stress])
        #expect(matrix.modes == ["fingerprint-only", "envelope-only", "two-layer", "two-layer-guarded"])
        #expect(matrix.rows.map(\.scenario) == ["s"])
        #expect(matrix.rows[0].verdicts == [.missed(1), .dropped(2), .blocked, .passed])
        #expect(matrix.plainText().contains("missed (1)"))
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
