import DedupeCommandLine
import DedupeHarness

extension MaintenanceCommand {
    /// Measures what the adoption facade adds over the bare pipeline. Run it in a release
    /// build under jemalloc to count allocations:
    /// `LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2 .build/release/dedupe-maintain facade-overhead`.
    static let facadeOverhead = Subcommand(
        name: "facade-overhead", summary: "Time the adoption facade against the bare pipeline.", positionals: "",
        discussion: """
        Runs the recommended pair on one scenario three ways (bare TwoLayerPipeline, MainActorDeduplicator,
        SharedDeduplicator) in interleaved repetitions. Every side reads ContinuousClock per event, as an
        app does. Allocations per event are counted when the process runs on jemalloc.
        """,
        options: OverheadOptions.specs
    ) { arguments, console throws(CommandLineError) in
        let (workload, repetitions) = try OverheadOptions.parse(arguments)
        let report = FacadeOverhead.measure(workload: workload, repetitions: repetitions)
        console.output(report.text)
        return 0
    }
}
