import DedupeDecision
import DedupeReports
import Foundation
import Testing

/// `run` end to end on a one-pair plan: progress on stderr, summary on stdout, every report
/// written, and the debug-build refusal. The pair's window is `hash-deque`: the sweeps time the
/// filtered window at up to 4,096 live fingerprints, where the O(live) reference took 30 s of a
/// debug build.
@Suite struct RunCommandTests {
    static let smallPlan = [
        "--quick", "--repetitions", "1", "--filter", "workload=same-payload-twice", "--filter", "window=hash-deque",
        "--filter", "consumed=set", "--filter", "mode=two-layer",
    ]

    @Test func runWritesEveryReportAndSummarises() throws {
        let directory = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("reports")
        let outcome = try BinaryRunner.run(["run", "--allow-debug", "--out", out.path] + Self.smallPlan)
        #expect(outcome.status == 0, "\(outcome.error)")
        // Either pair: the pick between two exact pairs is decided on speed, and a debug build's
        // timings (its invariant walks, a loaded machine) decide nothing a test may rely on.
        #expect(["hash-deque", "published-literal"].contains { outcome.output.contains("Recommendation: two-layer/\($0)(window=500ms;reserve=") })
        // Only two-layer ran, so no layer is ranked on its own.
        #expect(!outcome.output.contains("Best window:"))
        // Not a terminal: sparse plain lines, the first at the first step (the published pair,
        // which every run scores as the reference).
        #expect(outcome.error.hasPrefix("[correctness 1/4] same-payload-twice/two-layer/published-literal(window=500ms;reserve="))
        #expect(!outcome.error.contains("\r"))
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: out.path))
        #expect(files.isSuperset(of: ["results.json", "report.md", "throughput.csv", "memory.csv", "correctness.csv", "sweeps.csv", "stores.csv", "store-damage.csv"]))
        #expect(files.filter { $0.hasSuffix(".svg") }.count == 11)
        #expect(files.isSuperset(of: ["policies.csv", "policies.md"]))
        #expect(!files.contains { $0.hasSuffix(".partial") })
        let results = try ResultsJSON.decode(Data(contentsOf: out.appendingPathComponent("results.json")))
        #expect(results.cases.contains { $0.mode == .twoLayer && $0.window == "hash-deque" && $0.consumed == "set" })
        #expect(results.settings.filters.count == 4)
        if results.environment.buildConfiguration == .debug {
            let report = try String(contentsOf: out.appendingPathComponent("report.md"), encoding: .utf8)
            #expect(report.contains("DEBUG BUILD"))
        }
    }

    #if DEBUG
    @Test func debugBuildIsRefusedWithoutAllowDebug() throws {
        let outcome = try BinaryRunner.run(["run", "--out", "/nonexistent/never-written"] + Self.smallPlan)
        #expect(outcome.status == 2)
        #expect(outcome.error.hasPrefix("dedupe-bench: error: refusing to time a debug build"))
        #expect(outcome.error.split(separator: "\n").count == 1)
    }
    #endif
}
