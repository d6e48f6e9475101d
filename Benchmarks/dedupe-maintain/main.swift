import DedupeCommandLine
import DedupeMaintenance

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// A closed pipe must surface as EPIPE on the write, which `Console` handles, not kill the process.
signal(SIGPIPE, SIG_IGN)
exit(MaintenanceCommand.main(rawArguments: CommandLineArguments.raw()))
