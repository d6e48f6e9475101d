@testable import DedupeHarness
import DedupeWorkloads
import Foundation
import Testing

/// The built `dedupe-bench` binary, run as a user would: exit codes, help, every error class.
@Suite struct EndToEndTests {
    @Test(arguments: [["--help"], ["-h"], ["help"], ["help", "run"], ["run", "--help"], ["compare", "-h"],
                      ["replay", "--help"], ["export-trace", "--help"], ["scenarios", "--help"], ["list", "--help"]])
    func helpExitsZero(_ arguments: [String]) throws {
        let outcome = try BinaryRunner.run(arguments)
        #expect(outcome.status == 0)
        #expect(outcome.output.contains("USAGE: dedupe-bench"))
        #expect(outcome.error.isEmpty)
    }

    @Test func subcommandHelpNamesItsOptions() throws {
        let outcome = try BinaryRunner.run(["help", "run"])
        for option in ["--quick", "--filter", "--seed", "--repetitions", "--window-ms", "--out", "--format"] {
            #expect(outcome.output.contains(option), "\(option)")
        }
        #expect(try !BinaryRunner.run(["--help"]).output.contains(HarnessChild.verb))
    }

    /// `replay --help` names the trace header the recorder writes, every optional column included.
    @Test func replayHelpNamesTheWholeTraceHeader() throws {
        let help = try BinaryRunner.run(["replay", "--help"]).output
        #expect(help.contains("time_ms,kind,envelope,fingerprint,source,truth,push_id,suppressed"), "\(help)")
        #expect(help.contains("Guides/TraceFormat.md"))
    }

    /// `--decisions` lists the columns the file has: one `case` id, not the old `mode,window,consumed`.
    @Test(arguments: ["run", "replay"])
    func decisionsHelpListsTheFilesColumns(_ verb: String) throws {
        let help = try BinaryRunner.run([verb, "--help"]).output
        #expect(help.contains("(case,workload,event,time_ms,kind,envelope,truth,decision)"), "\(help)")
        #expect(!help.contains("mode,window,consumed"))
    }

    @Test(arguments: [
        (["frobnicate"], "unknown subcommand 'frobnicate'"),
        (["run", "--frobnicate"], "unknown option '--frobnicate'"),
        (["--frobnicate"], "unknown option '--frobnicate'"),
        (["run", "--seed", "many"], "invalid value 'many' for '--seed'"),
        (["run", "--repetitions", "0"], "invalid value '0' for '--repetitions'"),
        (["run", "--format", "pdf"], "invalid value 'pdf' in '--format'"),
        (["run", "--filter", "window=quantum"], "unknown window 'quantum'"),
        (["run", "--seed"], "option '--seed' needs a value"),
        (["replay"], "missing argument TRACE.csv"),
        (["replay", "/nonexistent/trace.csv"], "cannot read '/nonexistent/trace.csv': no such file"),
        (["compare", "/nonexistent/a.json", "/nonexistent/b.json"], "cannot read '/nonexistent/a.json'"),
        (["compare", "--alpha", "2", "a", "b"], "invalid value '2' for '--alpha'"),
        (["export-trace", "no-such-scenario"], "unknown scenario 'no-such-scenario'"),
        (["list", "extra"], "unexpected argument 'extra'"),
        (["run", "--out", "/dev/null"], "invalid value '/dev/null' for '--out': it is a character device"),
        (["run", "--memory-budget", "12XB"], "invalid value '12XB' for '--memory-budget'"),
        (["run", "--memory-budget", "0"], "invalid value '0' for '--memory-budget'"),
        (["run", "--drop-weight=-1"], "invalid value '-1' for '--drop-weight'"),
        (["run", "--safety-factor", "0.5"], "invalid value '0.5' for '--safety-factor'"),
    ])
    func errorsPrintOneLineAndExitTwo(_ arguments: [String], _ message: String) throws {
        let outcome = try BinaryRunner.run(arguments)
        #expect(outcome.status == 2)
        let lines = outcome.error.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("dedupe-bench: error: ") == true)
        #expect(outcome.error.contains(message), "\(outcome.error)")
        #expect(outcome.output.isEmpty)
    }

    @Test(arguments: [
        ("malformed-bad-number.csv", 4, "bad number"),
        ("malformed-decreasing-time.csv", 5, "time_ms decreases"),
        ("malformed-unknown-kind.csv", 3, "unknown kind"),
        ("malformed-column-count.csv", 4, "expected 6 columns"),
        ("malformed-orphan-emit.csv", 4, "no earlier payload created"),
    ])
    func malformedTraceNamesFileAndLine(_ name: String, _ line: Int, _ reason: String) throws {
        let path = BinaryRunner.fixture(name).path
        let outcome = try BinaryRunner.run(["replay", path])
        #expect(outcome.status == 2)
        #expect(outcome.error.hasPrefix("dedupe-bench: error: "))
        #expect(outcome.error.contains("\(name):\(line): "), "\(outcome.error)")
        #expect(outcome.error.contains(reason), "\(outcome.error)")
        #expect(outcome.error.split(separator: "\n").count == 1)
    }

    @Test func traceWithoutEventsIsRefused() throws {
        let path = BinaryRunner.fixture("empty-trace.csv").path
        let outcome = try BinaryRunner.run(["replay", path])
        #expect(outcome.status == 2)
        #expect(outcome.error.contains("empty-trace.csv: the trace has no events"), "\(outcome.error)")
        #expect(outcome.output.isEmpty)
    }

    /// Only relaunches used to pass the "no events" check and publish 0/0 rates (`nan` with
    /// `--format md,csv`).
    @Test func traceWithoutPayloadIsRefused() throws {
        let path = BinaryRunner.fixture("relaunch-only.csv").path
        let outcome = try BinaryRunner.run(["replay", path, "--allow-debug", "--format", "md,csv"])
        #expect(outcome.status == 2)
        #expect(outcome.error == "dedupe-bench: error: \(path): the trace has no payload, only 2 relaunch line(s): there is nothing to deduplicate\n")
        #expect(outcome.output.isEmpty)
    }

    @Test func directoryIsAnUnreadableFile() throws {
        let directory = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try BinaryRunner.run(["replay", directory.path])
        #expect(outcome.status == 2)
        #expect(outcome.error.contains("is a directory"))
    }

    @Test func listNamesEveryKindWithADescription() throws {
        let outcome = try BinaryRunner.run(["list"])
        #expect(outcome.status == 0)
        for id in ["published-literal", "hash-deque", "bounded-lru", "bloom", "two-layer-guarded", "false_drops", "same-payload-twice"] {
            let line = outcome.output.split(separator: "\n").first { $0.contains(" \(id) ") || $0.hasPrefix("  \(id) ") }
            #expect(line != nil, "\(id)")
        }
        // Every workload shows its category and tag; the SDK sets are listed at their constants.
        let lines = outcome.output.split(separator: "\n")
        #expect(lines.contains { $0.contains("stale-initial-notification") && $0.contains("[real-world, device]") })
        #expect(lines.contains { $0.contains("marketing-burst") && $0.contains("[stress, stress]") })
        #expect(lines.filter { $0.hasPrefix("  recent-ids-10 ") || $0.hasPrefix("  recent-ids-100 ") }.count == 2)
        #expect(!lines.contains { $0.hasPrefix("  recent-ids ") }, "no id is listed twice")
    }

    @Test func exportTraceWritesTheDocumentedFormatToAFileOrStdout() throws {
        let directory = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("trace.csv")
        let toFile = try BinaryRunner.run(["export-trace", "same-payload-twice", "--seed", "3", "--out", file.path])
        let toStdout = try BinaryRunner.run(["export-trace", "same-payload-twice", "--seed", "3"])
        #expect(toFile.status == 0)
        #expect(toStdout.status == 0)
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text == toStdout.output)
        let lines = text.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(lines.first == "time_ms,kind,envelope,fingerprint,source,truth,push_id,suppressed")
        #expect(lines.count > 1)
        let reread = try TraceReader.read(url: file)
        let original = try #require(ScenarioCatalogue.scenario(named: "same-payload-twice")).workload(seed: 3)
        // Route and source indices depend on first appearance; the events themselves must match.
        func essentials(_ workload: Workload) -> [String] {
            workload.events.map { "\($0.time.nanoseconds) \($0.kind) \($0.envelope) \($0.fingerprint.rawValue) \($0.truth)" }
        }
        #expect(reread.events.count == original.events.count)
        let matches = essentials(reread) == essentials(original)
        #expect(matches)
    }
}
