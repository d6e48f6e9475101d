import DedupeCommandLine
import DedupeHarness
import Foundation

extension MaintenanceCommand {
    /// Measures what an attached trace recorder adds per event. Run it in a release build
    /// under jemalloc to count allocations:
    /// `LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2 .build/release/dedupe-maintain recorder-overhead`.
    static let recorderOverhead = Subcommand(
        name: "recorder-overhead", summary: "Time the trace recorder against the bare deduplicator.", positionals: "",
        discussion: """
        Runs the recommended pair keyed on push ids on one scenario four ways (no recorder, a no-op recorder,
        TraceRecorder into a buffer, TraceRecorder into a file in the temporary directory) in interleaved
        repetitions, and prints ns/event and the ratio to the bare side.
        """,
        options: OverheadOptions.specs
    ) { arguments, console throws(CommandLineError) in
        let (workload, repetitions) = try OverheadOptions.parse(arguments)
        let report = RecorderOverhead.measure(
            workload: workload, repetitions: repetitions, directory: FileManager.default.temporaryDirectory)
        console.output(report.text)
        return 0
    }
}
