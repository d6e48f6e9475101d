import DedupeCommandLine

/// The `dedupe-bench` command: the user's verbs, dispatched by ``CommandLineTool``.
///
/// Exit codes: 0 success; 1 `compare` found a significant regression or `verify`'s verdict
/// fails; 2 a usage error, a missing or malformed file, or a run the harness refused.
package enum DedupeCommand {
    static let tool = CommandLineTool(
        name: "dedupe-bench", summary: "Compare de-duplication strategies for iOS push-notification routing.",
        subcommands: Subcommands.all, defaultSubcommand: Subcommands.run,
        introduction: "With no subcommand, runs the default suite ('run') and writes the reports to \(SharedOptions.defaultOutputDirectory)/.",
        exitCodes: "Exit codes: 0 success, 1 a significant regression found by 'compare' or a failed 'verify', 2 usage or input error.")

    /// Runs the command and returns the process exit code. Never traps on any `arguments`.
    package static func main(arguments: [String], console: Console = .standard) -> Int32 {
        tool.main(arguments: arguments, console: console)
    }

    /// Runs the command on the process's raw argument bytes (``CommandLineTool/main(rawArguments:console:)``).
    package static func main(rawArguments: [[UInt8]], console: Console = .standard) -> Int32 {
        tool.main(rawArguments: rawArguments, console: console)
    }
}
