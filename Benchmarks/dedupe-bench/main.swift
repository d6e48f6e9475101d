import DedupeCLI
import DedupeCommandLine
import DedupeHarness

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// A closed pipe must surface as EPIPE on the write, which `Console` handles, not kill the process.
signal(SIGPIPE, SIG_IGN)
let rawArguments = CommandLineArguments.raw()
// The harness's child processes (timing forks, the memory pass) re-run this executable; their
// verb and protocol belong to the harness, which also learns here that it may start them.
if let code = HarnessChild.runIfRequested(rawArguments) { exit(code) }
exit(DedupeCommand.main(rawArguments: rawArguments))
