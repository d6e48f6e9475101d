import DedupeHarness
import DedupeReports
import Foundation
import Testing

/// CSV and Markdown of a fixed-seed synthetic run, byte for byte, with timing columns masked.
@Suite struct GoldenReportTests {
    static let goldenDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/golden")

    /// Timing columns differ between machines, so their cells are compared as `*`.
    static func isTimingColumn(_ name: String) -> Bool {
        name.contains("ns_per") || name.hasSuffix("_ns") || name.contains("per_second") || name.contains("ratio_to_reference")
    }

    static func masked(_ table: CSVTable) -> String {
        let timing = Set(table.header.indices.filter { isTimingColumn(table.header[$0]) })
        var copy = table
        copy.rows = table.rows.map { row in row.indices.map { timing.contains($0) ? "*" : row[$0] } }
        return copy.render()
    }

    static func rendered() throws -> [(String, String)] {
        // Through JSON and back, as `compare` and a re-render would see it.
        let results = try ResultsJSON.decode(ResultsJSON.encode(SyntheticResults.make()))
        let charts = ChartReport.charts(results)
        return [
            ("throughput.csv", masked(CSVReport.throughput(results))),
            ("memory.csv", masked(CSVReport.memory(results))),
            ("correctness.csv", masked(CSVReport.correctness(results))),
            ("sweeps.csv", masked(CSVReport.sweeps(results))),
            ("report.md", MarkdownReport.render(results, charts: charts, scenarios: SyntheticResults.scenarios)),
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
        #expect(Array(header.prefix(13)) == [
            "workload", "mode", "window", "consumed", "window_ms", "events", "new_events", "dup_events", "false_drops",
            "missed_duplicates", "skipped_emits", "duplicate_screens", "lost_navigations",
        ])
    }

    @Test func syntheticRunRecommendsTheKnownAnswer() {
        let recommendation = Recommendation.make(from: SyntheticResults.make())
        #expect(recommendation.winner?.label == "hash-deque + set")
        #expect(recommendation.runnerUp?.label == "seed-literal + set")
        #expect(recommendation.windowWinner?.label == "hash-deque")
        #expect(recommendation.consumedWinner?.label == "set")
    }

    @Test func debugBuildGetsAWarningAtTheTop() {
        let markdown = MarkdownReport.render(SyntheticResults.make(buildConfiguration: "debug"))
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
