import DedupeHarness
import DedupeReports
import Foundation
import Testing

/// `compare` on synthetic baselines, through the binary: its exit code is the CI gate.
@Suite struct CompareCommandTests {
    /// A copy of `results` whose timed cases have every sample scaled by `factor(index)`.
    static func scaled(_ results: RunResults, _ factor: (Int, Int) -> Double) -> RunResults {
        var copy = results
        for index in copy.cases.indices {
            guard var timing = copy.cases[index].timing else { continue }
            timing.samplesNanosecondsPerEvent = timing.samplesNanosecondsPerEvent.enumerated().map { $1 * factor(index, $0) }
            timing.medianNanosecondsPerEvent = timing.samplesNanosecondsPerEvent.sorted()[timing.samplesNanosecondsPerEvent.count / 2]
            copy.cases[index].timing = timing
        }
        return copy
    }

    static func compare(_ baseline: RunResults, _ current: RunResults, _ extra: [String] = []) throws -> BinaryRunner.Outcome {
        let directory = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let before = directory.appendingPathComponent("baseline.json")
        let after = directory.appendingPathComponent("current.json")
        try ResultsJSON.encode(baseline).write(to: before)
        try ResultsJSON.encode(current).write(to: after)
        return try BinaryRunner.run(["compare", before.path, after.path] + extra)
    }

    @Test func clearRegressionExitsOne() throws {
        let baseline = SyntheticResults.make()
        let firstTimed = baseline.cases.firstIndex { $0.timing != nil }!
        let current = Self.scaled(baseline) { index, _ in index == firstTimed ? 1.5 : 1 }
        let outcome = try Self.compare(baseline, current)
        #expect(outcome.status == 1)
        #expect(outcome.output.contains("regression"))
        #expect(outcome.output.contains("1 regression(s)"))
    }

    @Test func noiseExitsZero() throws {
        let baseline = SyntheticResults.make()
        // ±3% alternating: the medians move less than the 5% threshold and the samples overlap.
        let current = Self.scaled(baseline) { _, sample in sample % 2 == 0 ? 1.03 : 0.97 }
        let outcome = try Self.compare(baseline, current)
        #expect(outcome.status == 0)
        #expect(outcome.output.contains("0 regression(s)"))
    }

    @Test func shiftedButNotSignificantIsNotARegression() throws {
        // Slower by 20% at the median, but the samples interleave: p is large.
        var baseline = SyntheticResults.make()
        var current = baseline
        let index = baseline.cases.firstIndex { $0.timing != nil }!
        baseline.cases[index].timing!.samplesNanosecondsPerEvent = [10, 30, 50, 70, 90]
        baseline.cases[index].timing!.medianNanosecondsPerEvent = 50
        current.cases[index].timing!.samplesNanosecondsPerEvent = [20, 40, 60, 80, 100]
        current.cases[index].timing!.medianNanosecondsPerEvent = 60
        let outcome = try Self.compare(baseline, current)
        #expect(outcome.status == 0)
    }

    @Test func improvementExitsZero() throws {
        let baseline = SyntheticResults.make()
        let current = Self.scaled(baseline) { _, _ in 0.6 }
        let outcome = try Self.compare(baseline, current)
        #expect(outcome.status == 0)
        #expect(outcome.output.contains("improvement"))
    }

    @Test func thresholdDecides() throws {
        let baseline = SyntheticResults.make()
        let current = Self.scaled(baseline) { _, _ in 1.12 }
        #expect(try Self.compare(baseline, current, ["--threshold", "10"]).status == 1)
        #expect(try Self.compare(baseline, current, ["--threshold=20"]).status == 0)
    }

    @Test func differentRunSettingsAreFlagged() throws {
        let baseline = SyntheticResults.make()
        var current = SyntheticResults.make(seed: 8)
        current.settings.quick = false
        let outcome = try Self.compare(baseline, current)
        #expect(outcome.error.contains("dedupe-bench: warning: quick mode differs: true in the baseline, false now"))
        #expect(outcome.error.contains("seed differs"))
        #expect(try Self.compare(baseline, baseline).error.isEmpty)
    }

    /// Cases that ran with other parameters match nothing; `compare` says so instead of
    /// listing them as if the runs had different cases.
    @Test func casesWithOtherParametersAreFlagged() throws {
        let baseline = SyntheticResults.make()
        var current = baseline
        let index = current.cases.firstIndex { $0.timing != nil && $0.window != nil }!
        current.cases[index].parameters.windowMilliseconds *= 2
        let outcome = try Self.compare(baseline, current)
        #expect(outcome.error.contains("dedupe-bench: warning: 1 case(s) ran with other parameters and are not compared"))
        #expect(outcome.error.contains("window \(Int(baseline.cases[index].parameters.windowMilliseconds)) ms"))
        #expect(outcome.output.contains("only in baseline"))
        #expect(try Self.compare(baseline, baseline).error.isEmpty)
    }

    @Test func unknownSchemaIsAnInputError() throws {
        let directory = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("future.json")
        try Data(#"{"schemaVersion": 99}"#.utf8).write(to: file)
        let outcome = try BinaryRunner.run(["compare", file.path, file.path])
        #expect(outcome.status == 2)
        #expect(outcome.error.contains("schema version 99"))
        let garbage = directory.appendingPathComponent("garbage.json")
        try Data("not json".utf8).write(to: garbage)
        #expect(try BinaryRunner.run(["compare", garbage.path, garbage.path]).status == 2)
    }
}
