import DedupeCommandLine

/// `dedupe-maintain`: the maintainers' measurements that are not part of a run, and so not
/// `dedupe-bench` verbs: what the adoption facade and the trace recorder cost per event, and the
/// window live-set sweep alone. A run's outputs stay what they are; these print their figures.
package enum MaintenanceCommand {
    static let tool = CommandLineTool(
        name: "dedupe-maintain", summary: "Maintainer measurements of PushDedupe outside the benchmark run.",
        subcommands: [facadeOverhead, recorderOverhead, liveSetSweep], defaultSubcommand: nil,
        introduction: "Each verb times in a release build (or with --allow-debug) and prints its figures; none writes reports.",
        exitCodes: "Exit codes: 0 success, 2 usage or input error.")

    /// Runs the tool on the process's raw argument bytes and returns the exit code.
    package static func main(rawArguments: [[UInt8]], console: Console = .standard) -> Int32 {
        tool.main(rawArguments: rawArguments, console: console)
    }
}
