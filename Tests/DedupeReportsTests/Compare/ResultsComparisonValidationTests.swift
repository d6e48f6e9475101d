@testable import DedupeDecision
@testable import DedupeHarness
import Testing
@testable import DedupeReports

/// What `compare` refuses before gating, one class per test: fork counts below 1, fields
/// outside their range, duplicated cases, and a comparison that gates nothing.
@Suite struct ResultsComparisonValidationTests {
    /// `Fixtures.results()` timed in `forks` forks of one repetition; `ratio` for the cases
    /// that are not the reference pair.
    static func forked(forks: Int = 6, ratio: Double = 0.5) -> RunResults {
        var results = Fixtures.results()
        results.settings.forks = forks
        for index in results.cases.indices {
            var timing = results.cases[index].timing!
            let isReference = results.cases[index].window == "published-literal"
            timing.samplesNanosecondsPerEvent = (0..<forks).map { 40 + Double($0) }
            timing.ratiosToReference = (0..<forks).map { isReference ? 1 : ratio * (1 + Double($0) / 100) }
            timing.forks = forks
            results.cases[index].timing = timing
        }
        return results
    }

    @Test func aValidFileHasNoProblem() {
        #expect(ResultsComparison.inputProblem(in: Self.forked()) == nil)
    }

    /// A fork count of 0 used to divide by zero.
    @Test func forkCountsBelowOneAreRefused() {
        for forks in [0, -2] {
            var results = Self.forked()
            results.settings.forks = forks
            #expect(ResultsComparison.inputProblem(in: results) == "settings.forks is \(forks) (expected at least 1 timing fork)")
            results = Self.forked()
            results.cases[1].timing!.forks = forks
            #expect(ResultsComparison.inputProblem(in: results) == "cases[1].timing.forks is \(forks) (expected at least 1 timing fork)")
        }
    }

    @Test func fieldsOutsideTheirRangeAreNamed() {
        var results = Self.forked()
        results.cases[2].correctness!.falseDrops = -1
        #expect(ResultsComparison.inputProblem(in: results) == "cases[2].correctness.falseDrops is -1 (expected a count at or above 0)")
        results = Self.forked()
        results.cases[0].timing!.latencyP99Nanoseconds = -.infinity
        #expect(ResultsComparison.inputProblem(in: results) == "cases[0].timing.latencyP99Nanoseconds is -inf (expected a finite number)")
        results = Self.forked()
        results.environment.clockResolutionNanoseconds = -1
        #expect(ResultsComparison.inputProblem(in: results) == "environment.clockResolutionNanoseconds is -1.0 (expected a number at or above 0)")
        results = Self.forked()
        results.cases[1].correctness!.missedByCause["only a loading guard"] = -1
        #expect(ResultsComparison.inputProblem(in: results) == "cases[1].correctness.missedByCause[only a loading guard] is -1 (expected a count at or above 0)")
    }

    /// Differences and growth may be negative.
    @Test func signedFieldsMayBeNegative() {
        var results = Self.forked()
        results.cases[0].memory!.liveBytes = -64
        results.cases[0].memory!.liveBytesGrowthInLastTenth = -0.2
        results.cases[0].memory!.footprintGrowthInLastTenth = -0.1
        #expect(ResultsComparison.inputProblem(in: results) == nil)
    }

    @Test func duplicatedCasesAreRefusedByTheKeyTheyAreMatchedBy() {
        var results = Self.forked()
        results.cases.append(results.cases[1])
        #expect(ResultsComparison.inputProblem(in: results)
            == "cases[1] and cases[3] are the same timed case (\(results.cases[1].id)); a duplicated case cannot be gated")
        // The key is the caller's: by workload alone, every case here is one.
        #expect(ResultsComparison.duplicateProblem(in: Self.forked(), key: \.workload)?.hasPrefix("cases[0] and cases[1]") == true)
        #expect(ResultsComparison.duplicateProblem(in: Self.forked(), key: \.id) == nil)
    }

    @Test func aComparisonThatGatesNothingIsRefused() throws {
        let results = Self.forked()
        #expect(ResultsComparison(baseline: results, current: results).gateProblem == nil)
        var unrated = results
        for index in unrated.cases.indices { unrated.cases[index].timing!.ratiosToReference = [] }
        let comparison = ResultsComparison(baseline: results, current: unrated)
        #expect(comparison.units.isEmpty)
        #expect(comparison.gateProblem == "no unit to gate: of the 3 timed case(s) in both files, 0 are reference rows "
            + "(ratio 1 by construction) and 3 have no ratios to the reference; a gate that tests nothing cannot pass")
        var references = results
        references.cases.removeAll { !$0.isReference }
        #expect(try #require(ResultsComparison(baseline: references, current: references).gateProblem).contains("1 are reference rows"))
        // Ratios of exactly 1 do not make a row a reference row: these are still gated.
        var asFastAsTheReference = results
        for index in asFastAsTheReference.cases.indices {
            asFastAsTheReference.cases[index].timing!.ratiosToReference = Array(repeating: 1, count: 6)
        }
        let gated = ResultsComparison(baseline: asFastAsTheReference, current: asFastAsTheReference)
        #expect(gated.gateProblem == nil)
        #expect(gated.referenceCases == 1)
    }

    /// A 100 KB CPU name is a short warning.
    @Test func longNamesAreCutInMessages() throws {
        let baseline = Self.forked()
        var current = baseline
        current.environment.cpuModel = String(repeating: "x", count: 100_000)
        let caveat = try #require(ResultsComparison(baseline: baseline, current: current).caveats.first)
        #expect(caveat == "CPU differs: c in the baseline, " + String(repeating: "x", count: 200) + "…(99800 more) now")
    }

    /// Names reach the table escaped: a newline in a strategy id adds no row, a tab no column.
    @Test func theTableEscapesNames() {
        var results = Self.forked()
        for index in results.cases.indices where results.cases[index].window == "hash-deque" {
            results.cases[index].window = "hash\tdeque\n"
        }
        let table = ResultsComparison(baseline: results, current: results).table()
        let rows = table.split(separator: "\n")
        #expect(rows.allSatisfy { $0.split(separator: "\t", omittingEmptySubsequences: false).count == 17 })
        #expect(table.contains("hash\\tdeque\\n"))
    }
}
