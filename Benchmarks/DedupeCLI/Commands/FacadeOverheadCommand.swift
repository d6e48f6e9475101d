import DedupeHarness
import DedupeWorkloads

extension Subcommands {
    /// Hidden: measures what the adoption facade adds over the bare pipeline. Run it in a release
    /// build under jemalloc to count allocations:
    /// `LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2 .build/release/dedupe-bench __facade-overhead`.
    static let facadeOverhead = Subcommand(
        name: "__facade-overhead", summary: "Time the adoption facade against the bare pipeline.", positionals: "",
        discussion: """
        Runs the recommended pair on one scenario three ways (bare TwoLayerPipeline, MainActorDeduplicator,
        SharedDeduplicator) in interleaved repetitions. Every side reads ContinuousClock per event, as an
        app does. Allocations per event are counted when the process runs on jemalloc.
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
        let report = FacadeOverhead.measure(workload: scenario.workload(seed: seed), repetitions: repetitions)
        console.output(report.text)
        return 0
    }
}
