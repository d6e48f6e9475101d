import DedupeHarness
import DedupeWorkloads
import Foundation

extension Subcommands {
    /// Hidden: measures what an attached trace recorder adds per event. Run it in a release build
    /// under jemalloc to count allocations:
    /// `LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2 .build/release/dedupe-bench __recorder-overhead`.
    static let recorderOverhead = Subcommand(
        name: "__recorder-overhead", summary: "Time the trace recorder against the bare deduplicator.", positionals: "",
        discussion: """
        Runs the recommended pair keyed on push ids on one scenario four ways (no recorder, a no-op recorder,
        TraceRecorder into a buffer, TraceRecorder into a file in the temporary directory) in interleaved
        repetitions, and prints ns/event and the ratio to the bare side.
        """,
        options: [
            SharedOptions.seed, SharedOptions.repetitions, SharedOptions.allowDebug,
            OptionSpec("scenario", value: "ID", help: "Scenario to run (default mixed-default)."),
        ]
    ) { arguments, console throws(CommandLineError) in
        let seed = try SharedOptions.seed(arguments)
        let repetitions = try arguments.value("repetitions", default: 21, expecting: "an integer from 1 to 1000") {
            Int($0).flatMap { (1...1000).contains($0) ? $0 : nil }
        }
        let id = arguments.value("scenario") ?? "mixed-default"
        guard let scenario = ScenarioCatalogue.scenario(named: id) else {
            throw CommandLineError(.badValue, "unknown scenario '\(id)' (see 'dedupe-bench list')")
        }
        #if DEBUG
        guard arguments.flags.contains("allow-debug") else {
            throw CommandLineError(.badValue, "refusing to time a debug build: build with -c release (or pass --allow-debug)")
        }
        #endif
        let report = RecorderOverhead.measure(
            workload: scenario.workload(seed: seed), repetitions: repetitions, directory: FileManager.default.temporaryDirectory)
        console.output(report.text)
        return 0
    }
}
