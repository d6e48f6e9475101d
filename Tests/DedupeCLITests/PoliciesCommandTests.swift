import DedupeHarness
import DedupeReports
import Foundation
import Testing

/// `policies` end to end: the matrix on stdout, the report files, and exit 2 for bad input.
@Suite struct PoliciesCommandTests {
    @Test func printsTheMatrixAndWritesItsReports() throws {
        let directory = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try BinaryRunner.run([
            "policies", "--seed", "42", "--filter", "scenario=button-double-tap,envelope-reemitted", "--out", directory.path,
        ])
        #expect(outcome.status == 0, "\(outcome.error)")
        #expect(outcome.output.contains("no-last-route-guard on button-double-tap: duplicate_screens 0 published"))
        #expect(outcome.output.contains("fix holds"))
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
        #expect(files == ["policies.csv", "policies.md", PolicyReport.chartFileName])
        let csv = try String(contentsOf: directory.appendingPathComponent("policies.csv"), encoding: .utf8)
        let lines = csv.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(lines.first == "scenario,variant,intents,pushes,duplicate_screens,lost_navigations,reprocessed_envelopes,"
            + "wrong_screens,repushed_after_leave,tasks_started,fetch_failures")
        #expect(lines.count == 1 + 2 * PolicyVariant.allCases.count)
        let markdown = try String(contentsOf: directory.appendingPathComponent("policies.md"), encoding: .utf8)
        #expect(markdown.contains("Fetch latency against the consume timing"))
    }

    @Test(arguments: [
        ["policies", "--fetch-median-ms", "-5"],
        ["policies", "--fetch-median-ms", "abc"],
        ["policies", "--fetch-median-ms", "0"],
        ["policies", "--filter", "scenario=nope"],
        ["policies", "--filter", "variant=nope"],
        ["policies", "--filter", "mode=two-layer"],
    ])
    func badInputExitsTwo(arguments: [String]) throws {
        let directory = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try BinaryRunner.run(arguments + ["--out", directory.path])
        #expect(outcome.status == 2, "\(arguments): \(outcome.error)")
        #expect(outcome.error.split(separator: "\n").count == 1, "\(outcome.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
}
