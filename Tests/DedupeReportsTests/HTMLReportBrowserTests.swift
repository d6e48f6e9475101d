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
        let (status, text) = try Self.check(report, screenshot: directory.appendingPathComponent("report.png"))
        #expect(status == 0, "\(text)")
        #expect(text.contains("ok diff view: 4 marks, 4 expected"), "\(text)")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("report.png").path))
    }

    /// A page whose self-test passes but which logs to the console and loads an image from the
    /// network fails the check, for both reasons.
    @Test(.enabled(if: chromium != nil, "Chromium is not installed (apt-get install chromium)"))
    func aPageThatLogsOrFetchesFails() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("report-html-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("bad.html")
        try Data("""
            <!DOCTYPE html><html><body><img src="http://example.invalid/pixel.png">
            <pre id="selftest-result">PASS</pre><script>console.error("boom")</script></body></html>
            """.utf8).write(to: report)
        let (status, text) = try Self.check(report, screenshot: directory.appendingPathComponent("bad.png"))
        #expect(status == 1, "\(text)")
        #expect(text.contains("console messages:") && text.contains("boom"), "\(text)")
        #expect(text.contains("the page made network requests:") && text.contains("http://example.invalid/pixel.png"), "\(text)")
    }

    /// Runs `.ci/check-report-html` on `report`: its exit status and everything it printed.
    static func check(_ report: URL, screenshot: URL) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = HTMLReportTests.root.appendingPathComponent(".ci/check-report-html")
        process.arguments = [report.path, screenshot.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}
