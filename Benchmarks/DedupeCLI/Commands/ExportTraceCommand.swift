import DedupeWorkloads
import Foundation
import DedupeReports

extension Subcommands {
    static let exportTrace = Subcommand(
        name: "export-trace", summary: "Write a scenario's events as a trace file.", positionals: "SCENARIO",
        discussion: "SCENARIO is a workload id from 'dedupe-bench list'. '--out -' (the default) writes to stdout.",
        options: [SharedOptions.seed, OptionSpec("out", value: "FILE", help: "File to write, or - for stdout (default -).")]
    ) { arguments, console throws(CommandLineError) in
        let id = try arguments.positionals(named: ["SCENARIO"])[0]
        let seed = try SharedOptions.seed(arguments)
        guard let scenario = ScenarioCatalogue.scenario(named: id) else {
            throw CommandLineError(.badValue, "unknown scenario '\(id)' (see 'dedupe-bench list')")
        }
        let text = TraceFiles.write(scenario.workload(seed: seed))
        let out = arguments.value("out") ?? "-"
        if out == "-" {
            console.output(text)
            return 0
        }
        do {
            try AtomicFile.write(Data(text.utf8), to: URL(fileURLWithPath: out))
        } catch {
            throw CommandLineError(.unreadableFile, "cannot write '\(out)': \(error.localizedDescription)")
        }
        return 0
    }
}
