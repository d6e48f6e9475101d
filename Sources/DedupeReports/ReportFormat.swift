import DedupeHarness
import Foundation

/// The kinds of report file a run can write.
public enum ReportFormat: String, CaseIterable, Sendable {
    case csv
    case md
    case json
    case svg
}

/// Renders the chosen reports from one `RunResults` and writes them all or none.
public enum ReportSet {
    /// Every file for `formats`, by file name, in a stable order.
    public static func files(_ results: RunResults, formats: Set<ReportFormat>) throws -> [(name: String, data: Data)] {
        var files: [(name: String, data: Data)] = []
        if formats.contains(.json) {
            files.append(("results.json", try ResultsJSON.encode(results)))
        }
        if formats.contains(.csv) {
            files.append(("throughput.csv", Data(CSVReport.throughput(results).render().utf8)))
            files.append(("memory.csv", Data(CSVReport.memory(results).render().utf8)))
            files.append(("correctness.csv", Data(CSVReport.correctness(results).render().utf8)))
            files.append(("sweeps.csv", Data(CSVReport.sweeps(results).render().utf8)))
        }
        let charts = formats.contains(.svg) ? ChartReport.charts(results) : []
        for chart in charts {
            files.append((chart.fileName, Data(chart.chart.svg().utf8)))
        }
        files += PolicyReport.files(results, formats: formats)
        if formats.contains(.md) {
            files.append(("headline.md", Data(MarkdownReport.headline(results).utf8)))
            files.append(("report.md", Data(MarkdownReport.render(results, charts: charts).utf8)))
        }
        return files
    }

    /// Writes the reports into `directory` (created if needed), all or none; returns the URLs.
    public static func write(_ results: RunResults, formats: Set<ReportFormat>, to directory: URL) throws -> [URL] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let files = try files(results, formats: formats)
        let targets = files.map { (data: $0.data, url: directory.appendingPathComponent($0.name)) }
        try AtomicFile.writeAll(targets)
        return targets.map(\.url)
    }
}
