import DedupeCommandLine
import DedupeHarness
import Foundation

/// `dedupe-fuzz`: the project's end-to-end fuzzer of `dedupe-bench` (`Guides/CLI.md`,
/// *`dedupe-fuzz`*), a maintainer tool of its own. `.ci/run` runs a short seeded round of it.
package enum FuzzCommand {
    static let tool = CommandLineTool(
        name: "dedupe-fuzz", summary: fuzz.summary, subcommands: [], defaultSubcommand: fuzz, introduction: "",
        exitCodes: "Exit codes: 0 no finding, 1 a finding, 2 usage or input error.")

    /// Runs the fuzzer on the process's raw argument bytes and returns the exit code: the store
    /// fuzzer when the first argument is `stores`, the end-to-end one otherwise.
    package static func main(rawArguments: [[UInt8]], console: Console = .standard) -> Int32 {
        let tool = rawArguments.first == Array("stores".utf8) ? StoreFuzzCommand.tool : Self.tool
        return tool.main(rawArguments: rawArguments, console: console)
    }

    static let fuzz = Subcommand(
        name: "dedupe-fuzz", summary: "Fuzz dedupe-bench's replay and compare end to end with seeded mutations.", positionals: "",
        discussion: """
        Input i of a round is a pure function of --seed and i: a seed trace or results file mutated one to three
        times. Each runs in a child process of dedupe-bench (--forks 1 --repetitions 1 for replay) with a
        per-input timeout, and is classified: accepted (exit 0; compare also 1), refused (exit 2, one error line),
        or a finding: crash (a signal or another exit code), hang (the timeout, then four times it), wrong accept (exit 0 on input
        that means nothing, or nan, inf, control characters or a broken table in the outputs), bad refusal
        (exit 2 without exactly one error line). Writes summary.txt, inputs.tsv and findings/ (each finding's
        input; crash traces also minimized) to --out. Exit 1 when there is a finding. 'dedupe-fuzz stores' fuzzes
        the store designs' files instead (see 'dedupe-fuzz stores --help').
        """,
        options: [
            CommonOptions.seed,
            FuzzOptions.inputs, FuzzOptions.seconds, FuzzOptions.timeout, FuzzOptions.kinds, FuzzOptions.minimize, FuzzOptions.out,
            FuzzOptions.bench,
        ]
    ) { arguments, console throws(CommandLineError) in
        _ = try arguments.positionals(named: [])
        var round = FuzzRound(
            seed: try CommonOptions.seed(arguments),
            inputs: try arguments.value(FuzzOptions.inputs, default: 100, expecting: "an integer from 1 to 1000000") {
                (CommonOptions.integer($0) as Int?).flatMap { (1...1_000_000).contains($0) ? $0 : nil }
            },
            seconds: try arguments.value(FuzzOptions.seconds, default: .infinity, expecting: "a number of seconds above 0") {
                CommonOptions.decimal($0).flatMap { $0 > 0 ? $0 : nil }
            },
            timeout: try arguments.value(FuzzOptions.timeout, default: 30, expecting: "a number of seconds from 1 to 3600") {
                CommonOptions.decimal($0).flatMap { (1...3_600).contains($0) ? $0 : nil }
            },
            kinds: try FuzzRound.kinds(arguments.value(FuzzOptions.kinds)),
            minimizationRuns: try arguments.value(FuzzOptions.minimize, default: 60, expecting: "an integer from 0 to 10000") {
                (CommonOptions.integer($0) as Int?).flatMap { (0...10_000).contains($0) ? $0 : nil }
            },
            directory: try FuzzRound.directory(arguments.value(FuzzOptions.out)),
            tool: try benchExecutable(arguments.value(FuzzOptions.bench)))
        let summary = try round.run(console: console)
        console.output(summary)
        return round.findings > 0 ? 1 : 0
    }

    /// `--bench`, or the `dedupe-bench` that the package's build put beside this executable.
    static func benchExecutable(_ path: String?) throws(CommandLineError) -> String {
        let executable = path ?? URL(fileURLWithPath: ChildProcess.currentExecutablePath())
            .deletingLastPathComponent().appendingPathComponent("dedupe-bench").path
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw CommandLineError(
                .badValue, "no dedupe-bench executable at '\(executable)' (build the package, or pass '--bench PATH')")
        }
        return URL(fileURLWithPath: executable).standardizedFileURL.path
    }
}

/// Options of `dedupe-fuzz`.
enum FuzzOptions {
    static let inputs = OptionSpec("inputs", value: "N", help: "Inputs in the round, 1 to 1000000 (default 100).")
    static let seconds = OptionSpec("seconds", value: "S", help: "Stop after the input that passes S seconds (default: no limit).")
    static let timeout = OptionSpec(
        "timeout", value: "S",
        help: "Seconds one input may run before it is retried with four times as long, then counts as a hang (default 30).")
    static let kinds = OptionSpec("kinds", value: "LIST", help: "replay, compare or both (default replay,compare).")
    static let minimize = OptionSpec("minimize", value: "N", help: "Runs spent minimizing each new crash site's trace, 0 for none (default 60).")
    static let out = OptionSpec("out", value: "DIR", help: "Directory for the summary, the inputs table and the findings (required).")
    static let bench = OptionSpec(
        "bench", value: "PATH", help: "The dedupe-bench executable under test (default: the one beside dedupe-fuzz).")
}
