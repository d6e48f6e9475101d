import Foundation
import Testing
@testable import DedupeReports

/// `report.html` in a real browser: `.ci/check-report-html` loads a page rendered from the
/// committed reference results, with a decision sample whose differences are known, in headless
/// Chromium. Skipped where Chromium is not installed, except under `CI=true`, where a missing
/// browser fails so a broken install step cannot hide.
@Suite struct HTMLReportBrowserTests {
    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let inCI = ProcessInfo.processInfo.environment["CI"] == "true"

    @Test(.enabled(if: chromium != nil || inCI, "Chromium is not installed (apt-get install chromium); under CI=true this fails"))
    func theReportRendersInChromium() throws {
        guard Self.chromium != nil else {
            Issue.record("CI=true and Chromium is missing: install it (apt-get install chromium)")
            return
        }
        let results = try ResultsJSON.decode(Data(contentsOf: PickStabilityTests.reference))
        let files = try ReportSet.files(results, formats: [.md], decisions: try HTMLReportTests.sample())
        let page = try #require(files.first { $0.name == HTMLReport.fileName }).data
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("report-html-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent(HTMLReport.fileName)
        try page.write(to: report)

        let process = Process()
        process.executableURL = HTMLReportTests.root.appendingPathComponent(".ci/check-report-html")
        process.arguments = [report.path, directory.appendingPathComponent("report.png").path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("ok diff view: 4 marks, 4 expected"), "\(text)")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("report.png").path))
    }
}
