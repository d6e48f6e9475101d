import DedupeReports
import Foundation
import Testing

/// The committed reference run's report is a summary a person reads: within its line budget,
/// with per-case detail in the files it links, every one of which exists beside it.
@Suite struct ReferenceReportBudgetTests {
    static let reports = ReadmeHeadlineTests.root.appendingPathComponent("Reports")

    @Test func theReportStaysWithinItsBudgetAndEveryFileItLinksExists() throws {
        let report = try String(contentsOf: Self.reports.appendingPathComponent("report.md"), encoding: .utf8)
        let lines = report.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines <= MarkdownReport.lineBudget, "Reports/report.md has \(lines) lines, over its budget of \(MarkdownReport.lineBudget)")
        // Markdown links and image references to local files: `](name.csv)`, `](chart.svg)`.
        let targets = report.components(separatedBy: "](").dropFirst().compactMap { $0.split(separator: ")").first.map(String.init) }
            .filter { !$0.contains("://") && !$0.hasPrefix("#") }
        #expect(Set(targets).isSuperset(of: ["correctness.csv", "throughput.csv", "memory.csv", "sweeps.csv", "policies.csv"]))
        for target in Set(targets) {
            #expect(FileManager.default.fileExists(atPath: Self.reports.appendingPathComponent(target).path), "report.md links \(target), which Reports/ lacks")
        }
    }
}
