import DedupeCLI
import DedupeCommandLine
import DedupeWorkloads

/// The options the overhead verbs share (`facade-overhead`, `recorder-overhead`): one
/// scenario's workload and interleaved repetitions, refused in a debug build unless allowed.
enum OverheadOptions {
    static let specs = [
        CommonOptions.seed, SharedOptions.repetitions, SharedOptions.allowDebug,
        scenario,
    ]
    static let scenario = OptionSpec("scenario", value: "ID", help: "Scenario to run (default mixed-default).")

    static func parse(_ arguments: ParsedArguments) throws(CommandLineError) -> (workload: Workload, repetitions: Int) {
        let seed = try CommonOptions.seed(arguments)
        let repetitions = try arguments.value(SharedOptions.repetitions, default: 21, expecting: "an integer from 1 to 1000") {
            Int($0).flatMap { (1...1000).contains($0) ? $0 : nil }
        }
        let id = arguments.value(scenario) ?? "mixed-default"
        guard let scenario = ScenarioCatalogue.scenario(named: id) else {
            throw CommandLineError(.badValue, "unknown scenario '\(id)' (see 'dedupe-bench list')")
        }
        #if DEBUG
        guard arguments.has(SharedOptions.allowDebug) else {
            throw CommandLineError(.badValue, "refusing to time a debug build: build with -c release (or pass --allow-debug)")
        }
        #endif
        return (scenario.workload(seed: seed), repetitions)
    }
}
