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
    /// `recommendation` of `results` (made here when the caller has none).
    package static func files(
        _ results: RunResults, formats: Set<ReportFormat>, recommendation: Recommendation? = nil
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
        let charts = formats.contains(.svg) ? ChartReport.charts(results, recommendation: recommendation) : []
        for chart in charts {
            files.append((chart.fileName, Data(chart.chart.svg().utf8)))
        }
        files += PolicyReport.files(results, formats: formats)
        if formats.contains(.md) {
            files.append(("headline.md", Data(MarkdownReport.headline(results, recommendation: recommendation).utf8)))
            files.append(("report.md", Data(MarkdownReport.render(results, charts: charts, recommendation: recommendation).utf8)))
        }
        return files
    }

    /// Every file name `files` can produce, for every format. A directory published without a
    /// manifest (by an older version) holds at most these, and they are replaced, not kept.
    package static let fileNames: Set<String> = Set([
        "results.json", "throughput.csv", "memory.csv", "correctness.csv", "sweeps.csv", "headline.md", "report.md",
        "window-ns-vs-live-set.svg", "window-ns-vs-live-set-50pct-repeats.svg", "consumed-ns-vs-size.svg", "consumed-bytes-vs-size.svg", "false-drops-vs-window.svg",
        "missed-vs-window.svg", "missed-vs-capacity.svg", "missed-vs-bloom-bits.svg", ChartReport.windowChoiceFileName,
        CSVReport.storesFileName, CSVReport.storeDamageFileName, ChartReport.storeChartFileName, BenchmarkActionJSON.fileName,
    ]).union(PolicyReport.fileNames)

    /// Publishes the reports as the whole of `directory` (`DirectoryPublication`): after a kill
    /// at any point it holds this set or the previous one, and files that are not reports stay.
    /// Returns the URLs; `warnings` receives notes about leftovers of earlier runs.
    package static func write(
        _ results: RunResults, formats: Set<ReportFormat>, recommendation: Recommendation? = nil, to directory: URL,
        warnings: (String) -> Void = { _ in }
    ) throws -> [URL] {
        let files = try files(results, formats: formats, recommendation: recommendation)
        for warning in try DirectoryPublication.publish(files, to: directory, legacyNames: fileNames) { warnings(warning) }
        let target = try DirectoryPublication.checkedTarget(directory)
        return files.map { target.appendingPathComponent($0.name) }
    }
}
