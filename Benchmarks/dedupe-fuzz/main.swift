import DedupeCommandLine
import DedupeFuzz

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// A closed pipe must surface as EPIPE on the write, which `Console` handles, not kill the process.
signal(SIGPIPE, SIG_IGN)
exit(FuzzCommand.main(rawArguments: CommandLineArguments.raw()))
