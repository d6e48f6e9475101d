import DedupeCLI
import DedupeHarness

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// A closed pipe must surface as EPIPE on the write, which `Console` handles, not kill the process.
signal(SIGPIPE, SIG_IGN)
// Raw bytes, not `CommandLine.arguments`, which repairs invalid UTF-8 into other file names.
let rawArguments = (1..<max(1, Int(CommandLine.argc))).map { index -> [UInt8] in
    guard let argument = CommandLine.unsafeArgv[index] else { return [] }
    return Array(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
}
// The harness's child processes (timing forks, the memory pass) re-run this executable; their
// verb and protocol belong to the harness, which also learns here that it may start them.
if let code = HarnessChild.runIfRequested(rawArguments) { exit(code) }
exit(DedupeCommand.main(rawArguments: rawArguments))
