import DedupeCommandLine

/// Every `dedupe-bench` subcommand, in help order: the user's verbs only. The maintainer tools
/// are executables of their own (`dedupe-fuzz`, `dedupe-maintain`).
enum Subcommands {
    static let all: [Subcommand] = [run, list, scenarios, policies, verify, replay, exportTrace, compare]
}
