import DedupeDecision
@testable import DedupeHarness
import DedupeReports
import Foundation
import Testing

/// CSV and Markdown of a tiny real run at a fixed seed, byte for byte.
///
/// The run measures correctness only (every case, the correctness sweeps, the device profile,
/// the matched errors and the recommendation), with timing and memory off: those figures depend
/// on the machine and its load, so they are left out of the golden run rather than masked. The
/// environment (toolchain, CPU, date, commit) is replaced by a fixed one for the same reason.
/// Timing and memory rendering are covered by the synthetic results of the other tests.
@Suite struct GoldenReportTests {
    static let goldenDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/golden")

    static let sizing = RunSizing(
        workloadScale: 0.002, timingSecondsPerWorkload: 0.01, timedEventsRange: 50...400, crossProductWorkloads: 1,
        latencyBatchSize: 16, falsePositiveProbes: 2_000, liveSetSizes: [1], consumedSetSizes: [1_000],
        windowLengthsMilliseconds: [50, 500, 5_000], consumedCapacities: [1, 64], bloomBitsPerEntry: [4, 10],
        timingSecondsPerSweepPoint: 0.002, sweepEventsRange: 50...200)

    /// The tiny run, through JSON and back, as `compare` and a re-render would see it.
    static func goldenRun() throws -> RunResults {
        var plan = RunPlan(
            source: .catalogue, quick: true, seed: 42, repetitions: 1, windowMilliseconds: 500,
            filter: RunFilter(
                windows: ["published-literal", "ring-buffer", "hash-deque"], consumedSets: ["set", "fifo-set", "bloom"],
                workloads: ["same-payload-twice", "envelope-reemitted", "marketing-burst"]),
            measureTiming: false, measureMemory: false, runSweeps: true)
        plan.sizing = sizing
        plan.memoryIsolation = .inProcess
        var results = try BenchmarkRunner.run(plan) { _ in }
        results.environment = SyntheticResults.make().environment
        results.environment.allocator = "not measured"
        results.environment.seed = plan.seed
        return try ResultsJSON.decode(ResultsJSON.encode(results))
    }

    static func rendered() throws -> [(String, String)] {
        let results = try goldenRun()
        let charts = ChartReport.charts(results)
        return [
            ("correctness.csv", CSVReport.correctness(results).render()),
            ("sweeps.csv", CSVReport.sweeps(results).render()),
            ("headline.md", MarkdownReport.headline(results)),
            ("report.md", MarkdownReport.render(results, charts: charts)),
        ]
    }

    @Test func reportsMatchGoldenFiles() throws {
        let update = ProcessInfo.processInfo.environment["DEDUPE_UPDATE_GOLDEN"] == "1"
        let rendered = try Self.rendered()
        if update {
            try FileManager.default.createDirectory(at: Self.goldenDirectory, withIntermediateDirectories: true)
            for (name, text) in rendered {
                try text.write(to: Self.goldenDirectory.appendingPathComponent(name), atomically: true, encoding: .utf8)
            }
        }
        for (name, text) in rendered {
            // Read from the source tree, so an update is seen without rebuilding the bundle.
            let golden = try String(contentsOf: Self.goldenDirectory.appendingPathComponent(name), encoding: .utf8)
            #expect(text == golden, "\(name) differs from its golden file")
        }
    }

    @Test func correctnessHeaderStartsWithTheIssueColumns() {
        let header = CSVReport.correctness(SyntheticResults.make()).header
        #expect(Array(header.prefix(21)) == [
            "case", "workload", "mode", "window", "consumed", "identity", "persistence", "window_ms", "window_capacity",
            "consumed_capacity", "false_positive_rate_target", "retention_ms", "expected_ids_per_second",
            "events", "new_events", "dup_events", "false_drops", "missed_duplicates", "skipped_emits", "duplicate_screens",
            "lost_navigations",
        ])
    }

    /// Bloom is faster but may drop; the exact sets tie on memory under the budget, and
    /// `hash-deque + set` is the fastest of them, then `hash-deque + bounded-lru`.
    @Test func syntheticRunRecommendsTheKnownAnswer() {
        let recommendation = Recommendation.make(from: SyntheticResults.make())
        #expect(recommendation.winner?.choice.strategiesText == "hash-deque(window=500ms;reserve=64)+set(reserve=1024)")
        #expect(recommendation.runnerUp?.choice.strategiesText == "hash-deque(window=500ms;reserve=64)+bounded-lru(capacity=1024)")
        #expect(recommendation.windowWinner?.window == "hash-deque")
        #expect(recommendation.consumedWinner?.consumed == "set")
    }

    @Test func debugBuildGetsAWarningAtTheTop() {
        let markdown = MarkdownReport.render(SyntheticResults.make(buildConfiguration: .debug))
        let firstSection = markdown.components(separatedBy: "## Recommendation").first ?? ""
        #expect(firstSection.contains("DEBUG BUILD"))
        #expect(!MarkdownReport.render(SyntheticResults.make()).contains("DEBUG BUILD"))
    }

    @Test func runWritesEveryFormatAndTheJSONReRendersTheSameReports() throws {
        let directory = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let results = SyntheticResults.make()
        let urls = try ReportSet.write(results, formats: Set(ReportFormat.allCases), to: directory)
        let names = Set(urls.map(\.lastPathComponent))
        #expect(names.isSuperset(of: ["results.json", "throughput.csv", "memory.csv", "correctness.csv", "sweeps.csv", "report.md"]))
        #expect(names.filter { $0.hasSuffix(".svg") }.count == ChartReport.charts(results).count)
        let markdown = try String(contentsOf: directory.appendingPathComponent("report.md"), encoding: .utf8)
        for chart in ChartReport.charts(results) { #expect(markdown.contains("](\(chart.fileName))")) }
        let reread = try ResultsJSON.decode(Data(contentsOf: directory.appendingPathComponent("results.json")))
        #expect(reread == results)
        #expect(MarkdownReport.render(reread, charts: ChartReport.charts(reread)) == markdown)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".partial") }
        #expect(leftovers.isEmpty)
    }
}
