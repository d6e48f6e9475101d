import DedupeDecision
import DedupeHarness
import Foundation

/// The kinds of report file a run can write.
package enum ReportFormat: String, CaseIterable, Sendable {
    case csv
    case md
    case json
    case svg
}

/// Renders the chosen reports from one `RunResults` and writes them all or none.
package enum ReportSet {
    /// Every file for `formats`, by file name, in a stable order. Every file takes the one
    /// `recommendation` of `results` (made here when the caller has none). `report.html` goes
    /// with `md`, with every chart inline whatever the formats, and `decisions` for its diff view.
    package static func files(
        _ results: RunResults, formats: Set<ReportFormat>, recommendation: Recommendation? = nil,
        decisions: DecisionDiffData? = nil
    ) throws -> [(name: String, data: Data)] {
        let recommendation = recommendation ?? Recommendation.make(from: results)
        var files: [(name: String, data: Data)] = []
        if formats.contains(.json) {
            files.append(("results.json", try ResultsJSON.encode(results)))
            files.append((BenchmarkActionJSON.fileName, try BenchmarkActionJSON.render(recommendation)))
        }
        if formats.contains(.csv) {
            files.append(("throughput.csv", Data(CSVReport.throughput(results).render().utf8)))
            files.append(("memory.csv", Data(CSVReport.memory(results).render().utf8)))
            files.append(("correctness.csv", Data(CSVReport.correctness(results).render().utf8)))
            files.append(("sweeps.csv", Data(CSVReport.sweeps(results).render().utf8)))
            files.append((CSVReport.storesFileName, Data(CSVReport.stores(results).render().utf8)))
            files.append((CSVReport.storeDamageFileName, Data(CSVReport.storeDamage(results).render().utf8)))
        }
        let allCharts = ChartReport.charts(results, recommendation: recommendation)
        let charts = formats.contains(.svg) ? allCharts : []
        for chart in charts {
            files.append((chart.fileName, Data(chart.chart.svg().utf8)))
        }
        files += PolicyReport.files(results, formats: formats)
        if formats.contains(.md) {
            files.append(("headline.md", Data(MarkdownReport.headline(results, recommendation: recommendation).utf8)))
            let markdown = MarkdownReport.render(results, charts: charts, recommendation: recommendation)
            files.append(("report.md", Data(markdown.utf8)))
            var svg = Dictionary(uniqueKeysWithValues: allCharts.map { ($0.fileName, $0.chart.svg()) })
            if let policies = results.policies { svg[PolicyReport.chartFileName] = PolicyReport.chart(policies).svg() }
            let page = HTMLReport.render(
                results, markdown: formats.contains(.svg) ? markdown : MarkdownReport.render(results, charts: allCharts, recommendation: recommendation),
                charts: svg, recommendation: recommendation, decisions: decisions)
            files.append((HTMLReport.fileName, Data(page.utf8)))
        }
        return files
    }

    /// Every file name `files` can produce, for every format. A directory published without a
    /// manifest (by an older version) holds at most these, and they are replaced, not kept.
    package static let fileNames: Set<String> = Set([
        "results.json", "throughput.csv", "memory.csv", "correctness.csv", "sweeps.csv", "headline.md", "report.md", HTMLReport.fileName,
        "window-ns-vs-live-set.svg", "window-ns-vs-live-set-50pct-repeats.svg", "consumed-ns-vs-size.svg", "consumed-bytes-vs-size.svg", "false-drops-vs-window.svg",
        "missed-vs-window.svg", "missed-vs-capacity.svg", "missed-vs-bloom-bits.svg", ChartReport.windowChoiceFileName,
        CSVReport.storesFileName, CSVReport.storeDamageFileName, ChartReport.storeChartFileName, BenchmarkActionJSON.fileName,
    ]).union(PolicyReport.fileNames)

    /// Publishes the reports as the whole of `directory` (`DirectoryPublication`): after a kill
    /// at any point it holds this set or the previous one, and files that are not reports stay.
    /// Returns the URLs; `warnings` receives notes about leftovers of earlier runs.
    package static func write(
        _ results: RunResults, formats: Set<ReportFormat>, recommendation: Recommendation? = nil,
        decisions: DecisionDiffData? = nil, to directory: URL, warnings: (String) -> Void = { _ in }
    ) throws -> [URL] {
        let files = try files(results, formats: formats, recommendation: recommendation, decisions: decisions)
        for warning in try DirectoryPublication.publish(files, to: directory, legacyNames: fileNames) { warnings(warning) }
        let target = try DirectoryPublication.checkedTarget(directory)
        return files.map { target.appendingPathComponent($0.name) }
    }
}
