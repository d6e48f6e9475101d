import DedupeCommandLine
import DedupeWorkloads

/// Options of `export-trace`.
enum ExportTraceOptions {
    static let out = OptionSpec("out", value: "FILE", help: "File to write, or - for stdout (default -).")
}

extension Subcommands {
    static let exportTrace = Subcommand(
        name: "export-trace", summary: "Write a scenario's events as a trace file.", positionals: "SCENARIO",
        discussion: "SCENARIO is a workload id from 'dedupe-bench list'. '--out -' (the default) writes to stdout.",
        options: [CommonOptions.seed, ExportTraceOptions.out]
    ) { arguments, console throws(CommandLineError) in
        let id = try arguments.positionals(named: ["SCENARIO"])[0]
        let seed = try CommonOptions.seed(arguments)
        guard let scenario = ScenarioCatalogue.scenario(named: id) else {
            throw CommandLineError(.badValue, "unknown scenario '\(id)' (see 'dedupe-bench list')")
        }
        let workload = scenario.workload(seed: seed)
        let out = arguments.value(ExportTraceOptions.out) ?? "-"
        guard !out.isEmpty else { throw CommandLineError(.badValue, "invalid value '' for '--out': expected a file or -") }
        if out == "-" {
            console.output(String(decoding: try TraceFiles.encode(workload), as: UTF8.self))
        } else {
            try TraceFiles.write(workload, to: out)
        }
        return 0
    }
}
