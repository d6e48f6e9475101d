@testable import DedupeHarness
import Testing

/// What the progress reports carry for the display: phases in order, step counts per phase that
/// match the steps reported, and plans for the phases not yet measured.
@Suite struct RunProgressTests {
    @Test func phasesCountTheirStepsAndArePlanned() throws {
        var reports: [RunProgress] = []
        _ = try BenchmarkRunner.run(DeterminismTests.fullPlan(seed: 5)) { reports.append($0) }
        let phases = reports.map(\.phase)
        #expect(phases == phases.sorted { RunPhase.allCases.firstIndex(of: $0)! < RunPhase.allCases.firstIndex(of: $1)! })
        let first = try #require(reports.first)
        for phase in RunPhase.allCases {
            #expect(reports.filter { $0.phase == phase }.count == first.phaseSteps[phase], "\(phase)")
        }
        #expect(first.phaseSteps.values.reduce(0, +) == first.total)
        #expect((first.plannedSeconds[.timing] ?? 0) > 0)
        #expect(first.plannedSeconds[.memory] == nil)
        // Planned from the correctness cases' measured costs once they have run.
        let timing = try #require(reports.first { $0.phase == .timing })
        #expect((timing.plannedSeconds[.memory] ?? 0) > 0)
        #expect((timing.plannedSeconds[.sweeps] ?? 0) > (first.plannedSeconds[.sweeps] ?? 0))
    }
}
