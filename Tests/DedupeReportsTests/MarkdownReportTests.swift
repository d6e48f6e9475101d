@testable import DedupeDecision
@testable import DedupeHarness
import DedupeWorkloads
import Testing
@testable import DedupeReports

@Suite struct MarkdownReportTests {
    /// A run where no process could start another (a test runner on a device) says so.
    @Test func theEnvironmentSaysWhenNoChildProcessWasStarted() {
        var results = Fixtures.results()
        results.settings.forks = 6
        results.settings.forksInChildProcesses = false
        #expect(MarkdownReport.environmentSection(results).contains("× 6 forks (quick), every fork in this process (no child process started)"))
        results.settings.forksInChildProcesses = true
        #expect(!MarkdownReport.environmentSection(results).contains("no child process"))
    }

    @Test func sectionsComeInTheDocumentedOrder() {
        let markdown = MarkdownReport.render(Fixtures.results(), charts: ChartReport.charts(Fixtures.results()))
        let headings = ["## Recommendation", "## Per-layer comparison", "## Mode × scenario matrix", "## Pareto frontier",
                        "## Strategies", "## Environment", "## Files", "## Charts"]
        let positions = headings.map { markdown.range(of: $0)?.lowerBound }
        #expect(positions.allSatisfy { $0 != nil })
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted())
        #expect(markdown.contains("![Layer 1: ns/event against live-set size](window-ns-vs-live-set.svg)"))
        #expect(markdown.contains("_Decision rule, in order:_ each strategy pair competes at its **best identity and persistence**"))
        #expect(markdown.contains("**lower is faster**"))
        // The per-case tables live in the CSVs, which the report links.
        #expect(!markdown.contains("## Correctness") && !markdown.contains("## Memory\n"))
        for file in ["correctness.csv", "throughput.csv", "memory.csv", "sweeps.csv", "results.json"] {
            #expect(markdown.contains("(\(file))"), "\(file)")
        }
    }

    @Test func scenarioVerdictsCarryDenominators() {
        func make(_ mode: CaseMode, falseDrops: Int = 0, missed: Int = 0, dup: Int = 10) -> CaseResult {
            CaseResult(
                workload: "s", mode: mode, window: "published-literal", consumed: "set", parameters: Fixtures.parameters,
                timing: nil, memory: nil, correctness: Fixtures.correctness(dup: dup, falseDrops: falseDrops, missed: missed))
        }
        var results = Fixtures.results([
            make(.fingerprintOnly, missed: 1), make(.envelopeOnly, falseDrops: 2), make(.twoLayer),
            make(.twoLayerGuarded, dup: 0), Fixtures.pipeline("published-literal", "set", ns: 1, bytes: 1, workload: "w"),
        ])
        results.workloads = [
            WorkloadInfo(id: "s", description: "sum", category: "published", tag: "device", events: 100, envelopes: 90,
                         replays: 8, replaysWithinWindow: 6, longestReplayMilliseconds: 40, envelopesWithinLongestReplay: 2),
            WorkloadInfo(id: "w", description: "stress", category: "stress", tag: "stress", events: 100, envelopes: 90,
                         replays: 0, replaysWithinWindow: 0, longestReplayMilliseconds: 0, envelopesWithinLongestReplay: 0),
        ]
        let matrix = ScenarioMatrix.make(from: results)
        #expect(matrix.modes == [.fingerprintOnly, .envelopeOnly, .twoLayer, .twoLayerGuarded])
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
        #expect(frontier.map(\.choice.strategiesText) == ["a(window=500ms)+x(capacity=1024)", "b(window=500ms)+x(capacity=1024)",
                                                        "d(window=500ms)+x(capacity=1024)"])
    }
}
