import DedupeDecision
@testable import DedupeHarness
import DedupeReports
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `compare` on synthetic forked results: the decision rule directly, and its exit codes and
/// messages through the binary (the exit code is the CI gate).
@Suite struct CompareCommandTests {
    static func compare(_ baseline: RunResults, _ current: RunResults, _ extra: [String] = []) throws -> BinaryRunner.Outcome {
        let directory = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let before = directory.appendingPathComponent("baseline.json")
        let after = directory.appendingPathComponent("current.json")
        try ResultsJSON.encode(baseline).write(to: before)
        try ResultsJSON.encode(current).write(to: after)
        return try BinaryRunner.run(["compare", before.path, after.path] + extra)
    }

    static func isBloom(_ result: CaseResult) -> Bool { result.consumed == "bloom" }

    /// A unit of `bloom`'s own layer (`consumed-alone bloom`, `two-layer *+bloom`).
    static func isBloomUnit(_ unit: ResultsComparison.Unit) -> Bool {
        unit.key.layer == .consumed && unit.key.strategyID == "bloom"
    }

    @Test func aWholeProcessSlowerIsNotARegression() {
        // Half the current run's forks are 40% slower for every case, the reference too.
        let baseline = ForkedResults.make(seed: 1)
        let current = ForkedResults.make(seed: 2, processShift: { $0 < 3 ? 1.4 : 1 })
        let comparison = ResultsComparison(baseline: baseline, current: current)
        #expect(!comparison.hasRegression)
        #expect(comparison.rows.contains { $0.changePercent > 5 })
    }

    @Test func processLevelNoiseOfEachCaseIsNotARegression() {
        // Each case settles at its own speed in each process, ±8%, on both sides.
        for seed in UInt64(1)...5 {
            let baseline = ForkedResults.make(seed: seed, forkNoise: 0.08)
            let current = ForkedResults.make(seed: seed + 100, forkNoise: 0.08)
            let comparison = ResultsComparison(baseline: baseline, current: current)
            #expect(!comparison.hasRegression, "seed \(seed): \(comparison.units.filter { $0.verdict == .regression }.map(\.reason))")
        }
    }

    @Test func oneProcessWhereOneCaseIsSlowIsNotARegression() {
        // A `fifo-set` at 9.5 ns in one process and 11.5 in another: +25% in one fork.
        let baseline = ForkedResults.make(seed: 1)
        let current = ForkedResults.make(seed: 2, factor: { result, fork, _ in Self.isBloom(result) && fork == 0 ? 1.25 : 1 })
        #expect(!ResultsComparison(baseline: baseline, current: current).hasRegression)
    }

    @Test func aPerCaseEffectAboveTheThresholdIsFlaggedAndNothingElse() throws {
        let baseline = ForkedResults.make(seed: 1, forkNoise: 0.03)
        let current = ForkedResults.make(seed: 2, forkNoise: 0.03, factor: { result, _, _ in Self.isBloom(result) ? 1.15 : 1 })
        let comparison = ResultsComparison(baseline: baseline, current: current)
        let flagged = comparison.units.filter { $0.verdict == .regression }
        // Every unit of bloom's layer, no other set's, no window's alone. A window's pipeline unit
        // holds bloom among the sets it ran with: here one of two (`published-literal+set` is the
        // reference), so +15% shows there at about half; in the suite one of 14.
        #expect(!flagged.isEmpty)
        let others = flagged.filter { !Self.isBloomUnit($0) }
        #expect(others.allSatisfy { $0.key.layer == .window && $0.key.mode.rawValue.hasPrefix("two-layer") && $0.change.percent < 10 },
                "\(others.map(\.key.description))")
        #expect(comparison.units.filter(Self.isBloomUnit).allSatisfy { $0.verdict == .regression })
        let unit = try #require(flagged.first)
        #expect(unit.change.lowerPercent > 5 && unit.change.percent > 10 && unit.change.percent < 20)
        #expect(unit.reason.contains("Holm-adjusted p = ") && unit.reason.contains("lies above +4%"))
    }

    @Test func anEffectBelowTheThresholdIsNotFlagged() {
        let baseline = ForkedResults.make(seed: 1)
        let current = ForkedResults.make(seed: 2, factor: { result, _, _ in Self.isBloom(result) ? 1.03 : 1 })
        let comparison = ResultsComparison(baseline: baseline, current: current)
        #expect(!comparison.hasRegression)
        let bloom = comparison.units.filter(Self.isBloomUnit)
        #expect(bloom.contains { $0.reason.contains("reaches below +4%") })
    }

    @Test func regressionExitsOneAndSaysWhy() throws {
        let baseline = ForkedResults.make(seed: 1)
        let current = ForkedResults.make(seed: 2, factor: { result, _, _ in Self.isBloom(result) ? 1.5 : 1 })
        let outcome = try Self.compare(baseline, current)
        #expect(outcome.status == 1)
        let lines = outcome.output.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("compare: ") == true)
        #expect(lines.first?.contains("case(s) in both files (6 and 6 forks)") == true)
        #expect(lines.contains("Regressions, largest first:"))
        #expect(lines.contains { $0.hasPrefix("  regression: ") && $0.contains("bloom") && $0.contains("lies above +4%") })
        #expect(outcome.output.contains("not gated: "))
    }

    @Test func unchangedExitsZeroAndTheTableHasEveryCase() throws {
        let baseline = ForkedResults.make(seed: 1)
        let current = ForkedResults.make(seed: 2)
        let directory = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let table = directory.appendingPathComponent("table.tsv")
        let outcome = try Self.compare(baseline, current, ["--out", table.path])
        #expect(outcome.status == 0)
        #expect(outcome.output.contains("No regression."))
        let rows = try String(contentsOf: table, encoding: .utf8).split(separator: "\n")
        let timed = baseline.cases.filter { $0.timing != nil }.count
        #expect(rows.filter { $0.hasPrefix("case\t") }.count == timed)
        #expect(rows.first?.hasPrefix("level\tname\tmode") == true)
    }

    @Test func improvementExitsZero() throws {
        let baseline = ForkedResults.make(seed: 1)
        let current = ForkedResults.make(seed: 2, factor: { result, _, _ in Self.isBloom(result) ? 0.6 : 1 })
        let outcome = try Self.compare(baseline, current)
        #expect(outcome.status == 0)
        #expect(outcome.output.contains("  improvement: "))
    }

    @Test func thresholdDecides() throws {
        let baseline = ForkedResults.make(seed: 1)
        let current = ForkedResults.make(seed: 2, factor: { result, _, _ in Self.isBloom(result) ? 1.12 : 1 })
        #expect(try Self.compare(baseline, current, ["--threshold", "5"]).status == 1)
        #expect(try Self.compare(baseline, current, ["--threshold=20"]).status == 0)
        #expect(try Self.compare(baseline, current, ["--correction", "bh"]).output.contains("Benjamini–Hochberg-adjusted"))
    }

    /// Each unusable input: exit 2 and one line naming what is wrong. `@` stands for the case a
    /// message names, which every message names one way: its place in the file and its id.
    @Test(arguments: [
        ("quick", "quick mode differs (true in the baseline, false now), so the timings are not comparable"),
        ("seed", "seed differs (42 in the baseline, 8 now)"),
        ("build", "build configuration differs (release in the baseline, debug now)"),
        ("forks", "too few forks to reach significance: 6 in the baseline and 2 now give no 95% interval; run both with at least 4 forks (--forks)"),
        ("unforked", "the results have no timing forks (made by a build before forks); rerun it with this build"),
        ("parameters", "no timed case is in both files"),
        ("timingReference", "timing reference differs (published in the baseline, window=hash-deque now), so the timings are not comparable"),
        ("sample", "@: timing.samplesNanosecondsPerEvent[1] is 0.0 ns/event (expected a positive finite number)"),
        ("split", "@: its 19 sample(s) do not split evenly into the run's 6 fork(s)"),
        ("otherForks", "@ was timed in 5 fork(s) and the run in 6 (settings.forks); every case is timed in the run's forks"),
        ("noSamples", "@ has timing but no samples"),
        ("unrated", "no unit to gate: of the"),
        ("references", "are reference rows (ratio 1 by construction) and 0 have no ratios to the reference; a gate that tests nothing cannot pass"),
        ("duplicate", "appears twice"),
        ("zeroForks", "settings.forks is 0 (expected at least 1 timing fork)"),
        ("caseForks", ".timing.forks is -1 (expected at least 1 timing fork)"),
        ("negativeCount", ".correctness.counts expected 13 non-negative counts"),
        ("negativeNanoseconds", ".timing.latencyP50Nanoseconds is -1.0 (expected a number at or above 0)"),
    ])
    func unusableInputExitsTwo(edit: String, message: String) throws {
        let baseline = ForkedResults.make(seed: 1)
        var current = ForkedResults.make(seed: 2)
        var baselineCopy = baseline
        baselineCopy.environment.seed = 42
        current.environment.seed = 42
        let timed = current.cases.indices.filter { current.cases[$0].timing != nil && current.cases[$0].window == "hash-deque" }
        let named = "cases[\(timed[0])] (\(current.cases[timed[0]].id.text))"
        switch edit {
        case "quick": current.settings.quick = false
        case "seed": current.environment.seed = 8
        case "build": current.environment.buildConfiguration = .debug
        case "forks": current = ForkedResults.make(seed: 2, forks: 2); current.environment.seed = 42
        case "unforked": current.settings.forks = nil
        case "parameters":
            // Every parameter any strategy reads, so no case id matches.
            for index in current.cases.indices {
                current.cases[index].parameters.windowMilliseconds *= 2
                current.cases[index].parameters.windowCapacity *= 2
                current.cases[index].parameters.consumedCapacity *= 2
                current.cases[index].parameters.falsePositiveRate /= 2
                current.cases[index].parameters.retentionMilliseconds *= 2
            }
        case "timingReference": current.settings.timingReference = "window=hash-deque"
        case "sample": current.cases[timed[0]].timing!.samplesNanosecondsPerEvent[1] = 0
        case "split": current.cases[timed[0]].timing!.samplesNanosecondsPerEvent.append(1)
        case "otherForks":
            // 30 samples: a multiple of both the case's 5 forks and the run's 6.
            current.cases[timed[0]].timing!.forks = 5
            current.cases[timed[0]].timing!.samplesNanosecondsPerEvent = (1...30).map { 10 + Double($0) / 100 }
        case "noSamples": current.cases[timed[0]].timing!.samplesNanosecondsPerEvent = []
        case "unrated":
            // Without their references, no case has ratios (a file derives them from both samples).
            baselineCopy.cases.removeAll(where: \.isReference)
            current.cases.removeAll(where: \.isReference)
        case "references":
            // Only the reference rows are timed: there is nothing to gate.
            baselineCopy.cases.removeAll { $0.timing != nil && !$0.isReference }
            current.cases.removeAll { $0.timing != nil && !$0.isReference }
        case "duplicate": current.cases.append(current.cases[timed[0]])
        case "zeroForks": current.settings.forks = 0
        case "caseForks": current.cases[timed[0]].timing!.forks = -1
        case "negativeCount": current.cases[timed[0]].correctness!.dupEvents = -4
        case "negativeNanoseconds": current.cases[timed[0]].timing!.latencyP50Nanoseconds = -1
        default: Issue.record("unknown edit \(edit)")
        }
        let outcome = try Self.compare(baselineCopy, current)
        #expect(outcome.status == 2)
        #expect(outcome.error.contains(message.replacingOccurrences(of: "@", with: named)), "\(outcome.error)")
        #expect(outcome.error.range(of: #"case \d"#, options: .regularExpression) == nil, "\(outcome.error)")
        #expect(outcome.error.split(separator: "\n").count == 1)
    }

    /// A strategy timed exactly like the reference has ratios of exactly 1 in both files; it is
    /// gated all the same, since a reference row is known by what it is, not by its ratios.
    @Test func aStrategyAsFastAsTheReferenceIsStillGated() {
        var sides = [ForkedResults.make(seed: 1), ForkedResults.make(seed: 2)]
        for side in sides.indices {
            for index in sides[side].cases.indices where Self.isBloom(sides[side].cases[index]) && sides[side].cases[index].timing != nil {
                let count = sides[side].cases[index].timing!.ratiosToReference.count
                sides[side].cases[index].timing!.ratiosToReference = Array(repeating: 1, count: count)
            }
        }
        let comparison = ResultsComparison(baseline: sides[0], current: sides[1])
        #expect(comparison.units.contains { Self.isBloomUnit($0) && $0.verdict == .unchanged })
        #expect(comparison.referenceCases == sides[0].cases.filter { $0.timing != nil && $0.isReference }.count)
    }

    /// A small `--alpha` is printed as the level it is, not rounded to a 100% interval.
    @Test func theConfidenceLevelOfASmallAlphaIsExact() throws {
        let outcome = try Self.compare(ForkedResults.make(seed: 1), ForkedResults.make(seed: 2), ["--alpha", "0.0000001"])
        #expect(outcome.status == 2)
        #expect(outcome.error.contains("6 in the baseline and 6 now give no 99.99999% interval; run both with at least "), "\(outcome.error)")
        #expect(!outcome.error.contains("100%"))
    }

    @Test func aComparisonOfOneFileWithItselfPasses() throws {
        let results = ForkedResults.make(seed: 1)
        let outcome = try Self.compare(results, results)
        #expect(outcome.status == 0)
        #expect(outcome.error.isEmpty)
    }

    @Test func differentCPUsAreAWarning() throws {
        let baseline = ForkedResults.make(seed: 1)
        var current = ForkedResults.make(seed: 2)
        current.environment.cpuModel = "another CPU"
        let outcome = try Self.compare(baseline, current)
        #expect(outcome.status == 0)
        #expect(outcome.error.contains("dedupe-bench: warning: CPU differs"))
    }

    /// Cases that ran in both files with other parameters match nothing; `compare` says so.
    @Test func casesWithOtherParametersAreFlagged() throws {
        let baseline = ForkedResults.make(seed: 1)
        var current = baseline
        let index = current.cases.firstIndex { $0.timing != nil && $0.window != nil }!
        current.cases[index].parameters.windowMilliseconds *= 2
        let outcome = try Self.compare(baseline, current)
        #expect(outcome.error.contains("dedupe-bench: warning: 1 case(s) ran with other parameters and are not compared"))
        #expect(outcome.error.contains("\(baseline.cases[index].id) in the baseline, \(current.cases[index].id) now"))
        #expect(outcome.output.contains("1 case(s) only in the baseline"))
    }

    /// A number outside its field's type is named, not reported as invalid JSON.
    @Test func aSeedOutOfRangeNamesTheField() throws {
        let directory = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = String(decoding: try ResultsJSON.encode(ForkedResults.make(seed: 1)), as: UTF8.self)
        let file = directory.appendingPathComponent("seed.json")
        let seed = try #require(text.range(of: #""seed":[0-9]+"#, options: .regularExpression))
        try Data(text.replacingCharacters(in: seed, with: #""seed":-1"#).utf8).write(to: file)
        let outcome = try BinaryRunner.run(["compare", file.path, file.path])
        #expect(outcome.status == 2)
        #expect(outcome.error == "dedupe-bench: error: \(file.path): environment.seed is -1 (expected an integer from 0 to 18446744073709551615)\n")
    }

    /// A 100 KB CPU name is cut in the warning, and names with control characters reach the
    /// summary escaped and the table without adding rows or columns.
    @Test func namesFromTheFilesAreCutAndEscaped() throws {
        // bloom 1.5× slower, so its units are listed in the summary.
        let baseline = ForkedResults.make(seed: 1)
        var current = ForkedResults.make(seed: 2, factor: { result, _, _ in Self.isBloom(result) ? 1.5 : 1 })
        current.environment.cpuModel = String(repeating: "c", count: 100_000) + "\n"
        var renamed = [baseline, current]
        for side in renamed.indices {
            for index in renamed[side].cases.indices where renamed[side].cases[index].consumed == "bloom" {
                renamed[side].cases[index].consumed = "bloom\n\t\u{1B}[2J"
            }
        }
        let directory = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let table = directory.appendingPathComponent("table.tsv")
        let outcome = try Self.compare(renamed[0], renamed[1], ["--out", table.path])
        #expect(outcome.status == 1)
        let warning = try #require(outcome.error.split(separator: "\n").first { $0.contains("CPU differs") })
        #expect(warning.hasSuffix("…(99801 more) now") && warning.count < 400)
        #expect(!outcome.output.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(outcome.output.contains("bloom\\n\\t\\u{1B}[2J"))
        let text = try String(contentsOf: table, encoding: .utf8)
        #expect(text.contains("bloom\\n\\t\\u{1B}[2J"))
        let rows = text.split(separator: "\n")
        #expect(rows.allSatisfy { $0.split(separator: "\t", omittingEmptySubsequences: false).count == 17 })
    }

    /// A table destination that is not a regular file is refused before anything is read.
    @Test func theTableRefusesAFIFO() throws {
        let directory = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("table.tsv").path
        try #require(mkfifo(fifo, 0o600) == 0)
        let results = ForkedResults.make(seed: 1)
        let outcome = try Self.compare(results, results, ["--out", fifo])
        #expect(outcome.status == 2)
        #expect(outcome.error == "dedupe-bench: error: invalid value '\(fifo)' for '--out': it is a FIFO (only a regular file or a new path is written)\n")
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
