@testable import DedupeHarness
import Testing
@testable import DedupeCLI

/// The progress display driven with chosen terminal-ness and times: one line rewritten in place
/// on a terminal, sparse plain lines otherwise, and an ETA from the measured step costs.
@Suite struct ProgressDisplayTests {
    static let steps: [RunPhase: Int] = [.correctness: 4, .timing: 4]

    static func progress(_ completed: Int, at seconds: Double, phase: RunPhase, label: String = "case") -> RunProgress {
        RunProgress(
            caseLabel: label, completed: completed, total: 8, elapsedSeconds: seconds, phase: phase,
            phaseSteps: steps, plannedSeconds: [.timing: 40])
    }

    @Test func terminalGetsOneLineRewrittenInPlace() {
        var display = ProgressDisplay(isTerminal: true, width: 200)
        var written = ""
        for step in 0..<8 {
            written += display.update(Self.progress(step, at: Double(step), phase: step < 4 ? .correctness : .timing)) ?? ""
        }
        written += display.finish(elapsedSeconds: 8) ?? ""
        #expect(written.filter { $0 == "\n" }.count == 1)
        #expect(written.hasSuffix("8 steps in 0:08\u{1B}[K\n"))
        #expect(written.components(separatedBy: "\r").count == 10)
        #expect(written.contains("[timing 4/4] case · 8/8 · 0:07 elapsed"))
    }

    @Test func terminalLineIsCutToTheWidth() {
        var display = ProgressDisplay(isTerminal: true, width: 40)
        let text = display.update(Self.progress(0, at: 0, phase: .correctness, label: String(repeating: "x", count: 100)))!
        let line = text.dropFirst().replacingOccurrences(of: "\u{1B}[K", with: "")
        #expect(line.count == 39 && line.hasSuffix("…"))
    }

    /// Not a terminal: the first step, then at most one line per interval, each ended.
    @Test func plainOutputIsSparse() {
        var display = ProgressDisplay(isTerminal: false, plainInterval: 5)
        var lines: [String] = []
        for step in 0..<8 {
            if let text = display.update(Self.progress(step, at: Double(step) * 2, phase: step < 4 ? .correctness : .timing)) {
                lines.append(text)
            }
        }
        #expect(display.finish(elapsedSeconds: 16) == nil)
        #expect(lines.count == 3)  // at 0, 6 and 12 s
        #expect(lines.allSatisfy { $0.hasSuffix("\n") && !$0.contains("\r") && $0.filter { $0 == "\n" }.count == 1 })
        #expect(lines[0].hasPrefix("[correctness 1/4] case · 1/8 · 0:00 elapsed · ETA …"))
    }

    /// Correctness steps of 1 s: before timing starts, the ETA counts the three steps left at
    /// 1 s and the timing phase at its planned 40 s; once timing has measured steps of 10 s,
    /// its steps left count 10 s each.
    @Test func etaUsesMeasuredCostsPerPhaseAndThePlanBeforeThat() {
        var display = ProgressDisplay(isTerminal: false, plainInterval: 0)
        _ = display.update(Self.progress(0, at: 0, phase: .correctness))
        let second = display.update(Self.progress(1, at: 1, phase: .correctness))!
        #expect(second.hasSuffix("ETA 0:43\n"))
        _ = display.update(Self.progress(2, at: 2, phase: .correctness))
        _ = display.update(Self.progress(3, at: 3, phase: .correctness))
        _ = display.update(Self.progress(4, at: 4, phase: .timing))
        let timing = display.update(Self.progress(5, at: 14, phase: .timing))!
        #expect(timing.hasSuffix("ETA 0:30\n"))
    }

    @Test func labelsWithControlCharactersStayOnOneLine() {
        var display = ProgressDisplay(isTerminal: false)
        let text = display.update(Self.progress(0, at: 0, phase: .correctness, label: "a\nb\u{1B}[2J"))!
        #expect(text.contains("a\\nb\\u{1B}[2J"))
        #expect(text.filter { $0 == "\n" }.count == 1)
    }

    @Test func clockFormatsMinutesAndHours() {
        #expect(ProgressDisplay.clock(0) == "0:00")
        #expect(ProgressDisplay.clock(65.4) == "1:05")
        #expect(ProgressDisplay.clock(3_725) == "1:02:05")
    }
}
