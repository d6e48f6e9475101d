@testable import DedupeHarness
import Testing
@testable import DedupeCLI

/// The ETA of a phase that counts its events: what is left of it at its measured events per
/// second, whatever the size of its steps; and a clock that never traps.
@Suite struct ProgressEventRateTests {
    static func progress(_ completed: Int, at seconds: Double, events: Int, phase: RunPhase = .correctness) -> RunProgress {
        RunProgress(
            caseLabel: "case", completed: completed, total: 4, elapsedSeconds: seconds, phase: phase,
            phaseSteps: [.correctness: 3, .timing: 1], plannedSeconds: [.timing: 30], stepEvents: events,
            phaseEvents: [.correctness: 11_000_000])
    }

    /// A 10⁶-event case took 2 s: the 10⁷-event case after it is estimated at 20 s, not at the
    /// 2 s a mean step would say, plus the planned 30 s of timing.
    @Test func aPhaseThatCountsEventsIsEstimatedByItsRate() {
        var display = ProgressDisplay(isTerminal: false, plainInterval: 0)
        _ = display.update(Self.progress(0, at: 0, events: 1_000_000))
        let line = display.update(Self.progress(1, at: 2, events: 10_000_000))!
        #expect(line.hasSuffix("ETA 0:50\n"))
    }

    @Test(arguments: [Double.nan, -5, .infinity, 1e300, 9.3e18, 3_599_999_999.6])
    func theClockNeverTraps(seconds: Double) {
        let text = ProgressDisplay.clock(seconds)
        #expect(text == (seconds > 0 ? "999999:59:59" : "0:00"))
    }
}
