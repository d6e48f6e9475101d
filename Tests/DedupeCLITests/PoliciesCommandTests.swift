import DedupeLifecycle
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
        #expect(files == ["policies.csv", PolicyReport.causesFileName, "policies.md", PolicyReport.chartFileName])
        let csv = try String(contentsOf: directory.appendingPathComponent("policies.csv"), encoding: .utf8)
        let lines = csv.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(lines.first == PolicyReport.columns.joined(separator: ","))
        #expect(outcome.output.contains("published: remaining failures by cause (unexplained: 0)"))
        #expect(outcome.output.contains("  default (reserve-then-commit): 0 taps lost, 0 duplicates shown, of "))
        #expect(outcome.output.contains("  published (commit-before-work): "))
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
        ["policies", "--script", "/no/such/file.script"],
        ["policies", "--script", "/tmp", "--filter", "scenario=mixed-default"],
    ])
    func badInputExitsTwo(arguments: [String]) throws {
        let directory = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try BinaryRunner.run(arguments + ["--out", directory.path])
        #expect(outcome.status == 2, "\(arguments): \(outcome.error)")
        #expect(outcome.error.split(separator: "\n").count == 1, "\(outcome.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    /// A script file replays under each variant; a task end that names no running task under
    /// some variant is a warning with its line, not an error.
    @Test func scriptReplaysUnderEachVariant() throws {
        let directory = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("reemit.script")
        try """
        # a payload re-emitted while its fetch runs
        schedule scripted
        route A item:42
        intent i1 A
        envelope e1 A i1
        at 0 payload e1
        at 0.001 emit e1 pending_route
        at 0.002 end 1 success
        at 0.003 end 2 success
        """.write(to: path, atomically: true, encoding: .utf8)
        let outcome = try BinaryRunner.run([
            "policies", "--script", path.path, "--filter", "variant=published,consume-after-success",
        ])
        #expect(outcome.status == 0, "\(outcome.error)")
        let rows = outcome.output.split(separator: "\n")
        let after = try #require(rows.first { $0.hasPrefix("consume-after-success ") })
        #expect(after.split(separator: " ", omittingEmptySubsequences: true)[6] == "1", "reprocessed: \(after)")
        #expect(outcome.output.contains("reprocessed_envelopes 1 (pending_route, consume-after-success)"))
        #expect(outcome.error.contains("reemit.script:9: under published, task 2 is not running here"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["reemit.script"], "no --out, no files")
    }

    @Test func malformedScriptExitsTwoNamingItsLine() throws {
        let directory = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("bad.script")
        try "route A item:1\nintent i1 A\nat 0 tap B i1\n".write(to: path, atomically: true, encoding: .utf8)
        let outcome = try BinaryRunner.run(["policies", "--script", path.path])
        #expect(outcome.status == 2)
        #expect(outcome.error.contains("bad.script:3: unknown route 'B'"), "\(outcome.error)")
        #expect(outcome.error.split(separator: "\n").count == 1)
    }
}
