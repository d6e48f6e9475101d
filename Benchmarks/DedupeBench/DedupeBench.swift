import DedupeCommandLine
import DedupeCLI
import DedupeHarness
@_exported import PushDedupe
@_exported import protocol DedupeHarness.DedupePipeline
import Foundation

/// The `dedupe-bench` command line, run from a team's own executable with its own strategies
/// beside the library's: every verb (`run`, `replay`, `compare`, `list`, …) and every report.
///
/// A team's package depends on this package's `DedupeBench` product and has an executable whose
/// whole `main.swift` is:
///
/// ```swift
/// import DedupeBench
///
/// DedupeBench.main(adding: [
///     .pipeline(TeamRouterDedupe.self, reads: [.windowLength], summary: "the router's dedupe as shipped"),
/// ])
/// ```
///
/// Timing forks and the memory pass re-run that executable, which registers the same strategies
/// before anything else, so its types are timed in child processes as the built-ins are.
public enum DedupeBench {
    /// Runs the command line on this process's arguments with `strategies` registered, and exits
    /// with its code: 0 success; 1 `compare` found a regression (time or correctness) or `verify`
    /// failed; 2 a usage or input error, or a registration the bench refuses.
    public static func main(adding strategies: [BenchStrategy]) -> Never {
        // A closed pipe must surface as EPIPE on the write, which the console handles.
        signal(SIGPIPE, SIG_IGN)
        let rawArguments = CommandLineArguments.raw()
        guard let catalogue = catalogue(adding: strategies) else { exit(2) }
        // The children (timing forks, the memory pass) re-run this executable: their verb is
        // served here, with the same catalogue.
        if let code = HarnessChild.runIfRequested(rawArguments, catalogue: catalogue) { exit(code) }
        exit(DedupeCommand.main(rawArguments: rawArguments))
    }

    /// Runs one command line (`["run", "--quick", "--out", path]`, no program name) in this
    /// process with `strategies` registered, and returns its exit code. No child process is
    /// started: every timing fork and the memory pass run here, for where a process cannot start
    /// another (a test runner on a device). The results say so: `results.json` records
    /// `forksInChildProcesses: false`, the report's environment section names it, and `compare`
    /// reads the file like any other.
    ///
    /// ```swift
    /// @Test func benchOnDevice() {
    ///     let out = FileManager.default.temporaryDirectory.appendingPathComponent("bench").path
    ///     #expect(DedupeBench.runInProcess(["run", "--quick", "--out", out], adding: [.pipeline(…)]) == 0)
    /// }
    /// ```
    public static func runInProcess(_ arguments: [String], adding strategies: [BenchStrategy]) -> Int32 {
        guard let catalogue = catalogue(adding: strategies) else { return 2 }
        HarnessChild.register(catalogue, hostsChildren: false)
        return DedupeCommand.main(arguments: arguments)
    }

    /// The library's catalogue with `strategies`, or `nil` after one line on stderr.
    static func catalogue(adding strategies: [BenchStrategy]) -> StrategyCatalogue? {
        do {
            return try .standard(adding: strategies)
        } catch {
            FileHandle.standardError.write(Data("dedupe-bench: error: \(error.message)\n".utf8))
            return nil
        }
    }
}
